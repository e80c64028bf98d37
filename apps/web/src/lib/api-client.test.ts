import { describe, expect, it, vi } from 'vitest';
import { type ApiDeps, createApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(reply: (url: string, init: RequestInit) => Promise<Response>) {
  const fetch = vi.fn(reply);
  const deps: ApiDeps = {
    getScope: () => ({ client_id: 7, sid: -1 }),
    navigate: vi.fn(),
    alert: vi.fn(),
    toast: vi.fn(),
    signOut: vi.fn(),
    currentPath: () => '/invoice/online?x=1',
    fetch: fetch as unknown as typeof globalThis.fetch,
  };
  return { api: createApiClient(() => deps), deps, fetch };
}

const ok = (data: unknown) => async () => json({ code: 0, message: 'ok', data });
const fail =
  (code: number, message = '出错了') =>
  async () =>
    json({ code, message, data: null });

/** a fetch that never answers until its signal aborts */
const hang = async (_url: string, init: RequestInit) =>
  new Promise<Response>((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

describe('api client', () => {
  it('returns data and adds the client_id/sid params, never a token header, when code is 0', async () => {
    const { api, fetch } = setup(ok({ a: 1 }));
    await expect(api.get('/v3/user/info')).resolves.toEqual({ a: 1 });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/v3/user/info?client_id=7&sid=-1');
    // the session is the server's HttpOnly cookie, which the browser sends by itself
    expect((init.headers as Record<string, string>)['access-token']).toBeUndefined();
    expect(init.credentials ?? 'same-origin').toBe('same-origin');
  });

  it('puts client_id/sid in the query of a POST and the payload in a JSON body', async () => {
    const { api, fetch } = setup(ok(null));
    await api.post('/v3/user/set-org-id', { org_id: 3 });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/v3/user/set-org-id?client_id=7&sid=-1');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"org_id":3}');
  });

  it('repeats array params and lets a call override the scope params', async () => {
    const { api, fetch } = setup(ok([]));
    await api.get('/v3/x', { params: { ids: [1, 2], client_id: 9, empty: undefined } });
    expect(fetch.mock.calls[0][0]).toBe('/v3/x?client_id=9&sid=-1&ids=1&ids=2');
  });

  it('signs out, shows the message and goes to login with a redirect when code is 401', async () => {
    const { api, deps } = setup(fail(401, '登录已失效，请重新登录'));
    const both = Promise.allSettled([api.get('/v3/a'), api.get('/v3/b')]);
    const results = await both;
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(deps.signOut).toHaveBeenCalledTimes(1);
    expect(deps.alert).toHaveBeenCalledTimes(1);
    const [title, content, onOk] = vi.mocked(deps.alert).mock.calls[0];
    expect([title, content]).toEqual(['提示', '登录已失效，请重新登录']);
    expect(deps.navigate).not.toHaveBeenCalled();
    onOk?.();
    expect(deps.navigate).toHaveBeenCalledWith('/user/login?redirect=%2Finvoice%2Fonline%3Fx%3D1');
  });

  it('navigates to /403 when code is 403', async () => {
    const { api, deps } = setup(fail(403));
    await expect(api.get('/v3/a')).rejects.toMatchObject({ kind: 'code', code: 403 });
    expect(deps.navigate).toHaveBeenCalledWith('/403');
    expect(deps.alert).not.toHaveBeenCalled();
  });

  it('shows the message then goes to store switching when code is 10688 with a message', async () => {
    const { api, deps } = setup(fail(10688, '请先切换到具体门店再操作'));
    await expect(api.get('/v3/a')).rejects.toBeInstanceOf(ApiError);
    expect(deps.navigate).not.toHaveBeenCalled();
    const onOk = vi.mocked(deps.alert).mock.calls[0][2];
    onOk?.();
    expect(deps.navigate).toHaveBeenCalledWith('/user/switch-store');
  });

  it('goes to store switching at once when code is 10688 without a message', async () => {
    const { api, deps } = setup(fail(10688, ''));
    await expect(api.get('/v3/a')).rejects.toBeInstanceOf(ApiError);
    expect(deps.alert).not.toHaveBeenCalled();
    expect(deps.navigate).toHaveBeenCalledWith('/user/switch-store');
  });

  it('shows [status] 系统出错了，请稍候重试 when the HTTP status is an error', async () => {
    const { api, deps } = setup(async () => new Response('boom', { status: 502 }));
    await expect(api.get('/v3/a')).rejects.toMatchObject({ kind: 'http', status: 502 });
    expect(deps.toast).toHaveBeenCalledWith('[502] 系统出错了，请稍候重试');
  });

  it('shows 网络开小差了，请稍候重试 when the network fails', async () => {
    const { api, deps } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.get('/v3/a')).rejects.toMatchObject({ kind: 'network' });
    expect(deps.toast).toHaveBeenCalledWith('网络开小差了，请稍候重试');
  });

  it('shows 请求超时了，请稍候重试 when the call outlives its timeout', async () => {
    const { api, deps } = setup(hang);
    await expect(api.get('/v3/a', { timeout: 20 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(deps.toast).toHaveBeenCalledWith('请求超时了，请稍候重试');
  });

  it('times out after 15 s by default', async () => {
    vi.useFakeTimers();
    const { api } = setup(hang);
    const pending = api.get('/v3/a').catch((e: ApiError) => e.kind);
    await vi.advanceTimersByTimeAsync(14_999);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toBe('timeout');
    vi.useRealTimers();
  });

  it('stays silent when the caller aborts', async () => {
    const { api, deps } = setup(hang);
    const controller = new AbortController();
    const pending = api.get('/v3/a', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(deps.toast).not.toHaveBeenCalled();
  });

  it('shows other codes in an error dialog titled 提示', async () => {
    const { api, deps } = setup(fail(11002, '账号或密码错误'));
    await expect(api.post('/v3/user/account-login')).rejects.toMatchObject({ code: 11002 });
    expect(deps.alert).toHaveBeenCalledWith('提示', '账号或密码错误');
  });

  it('stays silent on other codes and transport errors when showError is false', async () => {
    const { api, deps } = setup(fail(11002));
    await expect(api.get('/v3/a', { showError: false })).rejects.toMatchObject({ code: 11002 });
    const broken = setup(async () => new Response('', { status: 500 }));
    await expect(broken.api.get('/v3/a', { showError: false })).rejects.toMatchObject({ kind: 'http' });
    expect(deps.alert).not.toHaveBeenCalled();
    expect(broken.deps.toast).not.toHaveBeenCalled();
  });
});
