import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../../stores/session-store.ts';
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

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, message: 'ok', data }), {
    headers: { 'content-type': 'application/json' },
  });

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
    useSessionStore.setState({
      business: { client_id: 5, name: '杭州云栈', tax_code: 'X', org_id: 1, industry: 'general' },
      store: { client_store_id: 9, name: '总部' },
    });
  });
  afterEach(() => vi.useRealTimers());

  it('opens when the check says authorisation is needed; 20 s heartbeat; 1/3/4 prompt, 2 closes; reconnects after 2 s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope({ need_auth: 1, devices: [] })),
    );
    const { result, unmount } = renderHook(() => useDeviceAuthSocket(), { wrapper });
    await flush();
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
    act(() => ws.say(auth(2)));
    expect(result.current.prompt).toBeNull();

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

  it('stays closed when the check says no authorisation is needed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope({ need_auth: 0, devices: [] })),
    );
    renderHook(() => useDeviceAuthSocket(), { wrapper });
    await flush();
    expect(FakeSocket.all).toHaveLength(0);
  });
});
