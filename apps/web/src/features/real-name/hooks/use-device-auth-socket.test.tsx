import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiHandler, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { useDeviceAuthSocket } from './use-device-auth-socket.ts';

/** A stand-in for the browser's WebSocket: records what is sent, lets the test open / close / speak. */
class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readonly OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  say(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

/** GET check-tax answers `check_auth` with what the test sets; the calls are counted */
let checkAuth: 0 | 1;
const checks = () => apiCalls('/v3/equipment/check-tax').length;

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await act(async () => vi.advanceTimersByTimeAsync(0));
};
const auth = (auth_status: number) => ({
  type: 'auth',
  device_id: 3,
  qr_code: 'eA==',
  auth_type: 0,
  auth_status,
});

describe('useDeviceAuthSocket (spec §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    checkAuth = 1;
    server.use(
      apiHandler('GET', '/v3/equipment/check-tax', () => reply.ok({ check_auth: checkAuth, devices: [] })),
    );
    useSessionStore.setState({
      business: { client_id: 5, name: '杭州云栈', tax_code: 'X', org_id: 1, industry: 'general' },
      store: { client_store_id: 9, name: '总部' },
    });
  });
  afterEach(() => vi.useRealTimers());

  it('opens when the check says authorisation is needed; 20 s heartbeat; 1/3/4 prompt, 2 closes; reconnects after 2 s', async () => {
    const { result, unmount } = renderHook(() => useDeviceAuthSocket(), { wrapper });
    await flush();
    // spec §4, §7: the device check is GET /v3/equipment/check-tax
    expect(apiCalls()[0]?.path).toBe('/v3/equipment/check-tax');
    expect(FakeSocket.all).toHaveLength(1);
    const ws = FakeSocket.all[0]!;
    expect(ws.url).toMatch(/\/ws\/device-auth\?client_id=5&sid=9$/);
    act(() => ws.open());
    expect(result.current.connected).toBe(true);

    await act(async () => vi.advanceTimersByTimeAsync(19_999));
    expect(ws.sent).toEqual([]);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(ws.sent).toEqual(['{"type":"ping"}']);
    await act(async () => vi.advanceTimersByTimeAsync(20_000));
    expect(ws.sent).toHaveLength(2);

    for (const status of [1, 3, 4]) {
      act(() => ws.say(auth(status)));
      expect(result.current.prompt?.auth_status).toBe(status);
    }
    const asked = checks();
    act(() => ws.say(auth(2)));
    expect(result.current.prompt).toBeNull();
    // authorised: the check is asked again (still needed here, so the socket stays)
    await flush();
    expect(checks()).toBe(asked + 1);

    // closed while still needed: a new socket 2 s later
    act(() => ws.close());
    expect(result.current.connected).toBe(false);
    await act(async () => vi.advanceTimersByTimeAsync(1_999));
    expect(FakeSocket.all).toHaveLength(1);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(FakeSocket.all).toHaveLength(2);

    // no longer needed (unmounted): closing does not reconnect
    unmount();
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('stays closed when the check says no authorisation is needed, and opens when it later does', async () => {
    checkAuth = 0;
    renderHook(() => useDeviceAuthSocket(), { wrapper });
    await flush();
    expect(FakeSocket.all).toHaveLength(0);
    // the bureau raises an authorisation: the next check (30 s later) opens the socket
    checkAuth = 1;
    await act(async () => vi.advanceTimersByTimeAsync(30_000));
    // (the response body is read over a few turns of the event loop)
    for (let i = 0; i < 20 && FakeSocket.all.length === 0; i++) {
      await act(async () => vi.advanceTimersByTimeAsync(10));
    }
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('closes and does not reconnect once the check says authorisation is no longer needed', async () => {
    const { result } = renderHook(() => useDeviceAuthSocket(), { wrapper });
    await flush();
    const ws = FakeSocket.all[0]!;
    act(() => ws.open());
    act(() => ws.say(auth(1)));
    expect(result.current.prompt?.auth_status).toBe(1);
    // the person confirms: 2 closes the prompt, the check now says 0, the socket closes for good
    checkAuth = 0;
    act(() => ws.say(auth(2)));
    await flush();
    expect(result.current.prompt).toBeNull();
    expect(ws.readyState).toBe(3);
    expect(result.current.connected).toBe(false);
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('a server close while still needed asks the check again and reconnects 2 s later', async () => {
    renderHook(() => useDeviceAuthSocket(), { wrapper });
    await flush();
    const ws = FakeSocket.all[0]!;
    act(() => ws.open());
    const asked = checks();
    act(() => ws.close());
    await flush();
    expect(checks()).toBe(asked + 1);
    await act(async () => vi.advanceTimersByTimeAsync(2_000));
    expect(FakeSocket.all).toHaveLength(2);
  });
});
