import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CODE, SESSION_CODE, TOKEN_TTL_SECONDS } from '@kaipiao/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, encryptPassword, pictureCode } from '../../test/helper.ts';
import { CONTENT_SECURITY_POLICY } from './security.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

/** The clerk (no two-factor) through the real login; the raw answer, to read its Set-Cookie. */
async function loginRaw(t: TestApp, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v3/user/account-login',
    headers,
    payload: {
      account: DEMO.clerk.account,
      password: await encryptPassword(t.app, DEMO.password),
      picture_code: '1234',
      unique_code: await pictureCode(t.app),
    },
  });
}

function sessionCookie(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const found = all.find((c) => c.startsWith('kp_token='));
  if (!found) throw new Error(`no kp_token cookie in ${JSON.stringify(all)}`);
  return found;
}

const tokenOf = (cookie: string) => cookie.split(';')[0]!.slice('kp_token='.length);

/** user/info with the cookie alone (how the console's own calls authenticate now) */
async function infoByCookie(t: TestApp, token: string) {
  const res = await t.app.inject({ method: 'GET', url: '/v3/user/info', cookies: { kp_token: token } });
  return res.json().code as number;
}

describe('session cookie (issue 21 item 4, M2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  it('is set by the server on login: HttpOnly, SameSite=Lax, Path=/, not Secure over http', async () => {
    const res = await loginRaw(t);
    expect(res.json().code).toBe(0);
    const cookie = sessionCookie(res);
    expect(tokenOf(cookie)).toBe(res.json().data.token);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(new RegExp(`; Max-Age=${TOKEN_TTL_SECONDS}`));
    expect(cookie).not.toMatch(/Secure/);
    // and it is a session: the cookie alone signs the next call in
    expect(await infoByCookie(t, tokenOf(cookie))).toBe(0);
  });

  it('is not Secure when an untrusted client claims x-forwarded-proto https', async () => {
    const cookie = sessionCookie(await loginRaw(t, { 'x-forwarded-proto': 'https' }));
    expect(cookie).not.toMatch(/Secure/);
  });

  it('is not set by a failed login', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/user/account-login',
      payload: {
        account: DEMO.clerk.account,
        password: await encryptPassword(t.app, 'Wrong@2026x'),
        picture_code: '1234',
        unique_code: await pictureCode(t.app),
      },
    });
    expect(res.json().code).not.toBe(0);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('GET /v3/user/logout with the cookie alone does not end the session (a link on another site)', async () => {
    const token = tokenOf(sessionCookie(await loginRaw(t)));
    const res = await t.app.inject({ method: 'GET', url: '/v3/user/logout', cookies: { kp_token: token } });
    expect(res.json()).toMatchObject({ code: SESSION_CODE.LOGOUT_NEEDS_POST });
    expect(res.json().message).toContain('退出登录');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await infoByCookie(t, token)).toBe(0);
  });

  it('GET /v3/user/logout with the access-token header still logs out (spec)', async () => {
    const token = tokenOf(sessionCookie(await loginRaw(t)));
    const res = await call(t.app, 'GET', '/v3/user/logout', { token });
    expect(res.json.code).toBe(0);
    expect(await infoByCookie(t, token)).toBe(CODE.UNAUTHORIZED);
  });

  it('POST /v3/user/logout by cookie ends the session and clears the cookie', async () => {
    const token = tokenOf(sessionCookie(await loginRaw(t)));
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/user/logout',
      cookies: { kp_token: token },
      headers: {
        host: 'kaipiao.example.com',
        origin: 'https://kaipiao.example.com',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { redirect_url: null } });
    const cleared = sessionCookie(res);
    expect(cleared).toMatch(/^kp_token=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cleared).toMatch(/; HttpOnly/);
    expect(await infoByCookie(t, token)).toBe(CODE.UNAUTHORIZED);
  });
});

describe('cross-site requests (issue 21 item 4, L3)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = tokenOf(sessionCookie(await loginRaw(t)));
  });

  const post = (url: string, headers: Record<string, string>, withCookie = true) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { host: 'kaipiao.example.com', ...headers },
      cookies: withCookie ? { kp_token: token } : {},
      payload: {},
    });

  it('refuses a POST with the cookie from another site’s page: HTTP 403, Chinese, nothing done', async () => {
    const res = await post('/v3/user/logout', { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: SESSION_CODE.CROSS_SITE, data: null });
    expect(res.json().message).toMatch(/其他网站/);
    expect(await infoByCookie(t, token)).toBe(0);
  });

  it('refuses by Sec-Fetch-Site when there is no Origin, a sibling subdomain and Origin: null', async () => {
    expect((await post('/v3/user/client-list', { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    const sibling = { origin: 'https://evil.kaipiao.example.com', 'sec-fetch-site': 'same-site' };
    expect((await post('/v3/user/client-list', sibling)).statusCode).toBe(403);
    expect((await post('/v3/user/client-list', { origin: 'null' })).statusCode).toBe(403);
    // another site's form posting to a public route too (login CSRF)
    expect((await post('/v3/user/account-login', { origin: 'https://evil.example' }, false)).statusCode).toBe(
      403,
    );
  });

  it('lets the console’s own calls through: same origin, Sec-Fetch-Site, the dev proxy’s host', async () => {
    const same = await post('/v3/user/client-list', { origin: 'https://kaipiao.example.com' });
    expect(same.json().code).toBe(0);
    // behind a proxy that rewrote Host the browser still says same-origin
    const proxied = await post('/v3/user/client-list', {
      origin: 'https://console.example.com',
      'sec-fetch-site': 'same-origin',
    });
    expect(proxied.json().code).toBe(0);
    const vite = await t.app.inject({
      method: 'POST',
      url: '/v3/user/client-list',
      headers: { host: 'localhost:5173', origin: 'http://localhost:5173' },
      cookies: { kp_token: token },
      payload: {},
    });
    expect(vite.json().code).toBe(0);
  });

  it('lets programs through: the access-token header from any origin, or no browser headers at all', async () => {
    const header = await post('/v3/user/client-list', {
      origin: 'https://evil.example',
      'access-token': token,
    });
    expect(header.json().code).toBe(0);
    const program = await post('/v3/user/client-list', {});
    expect(program.json().code).toBe(0);
  });

  it('leaves GET alone and refuses the device socket’s handshake from another site', async () => {
    const get = await t.app.inject({
      method: 'GET',
      url: '/v3/user/info',
      headers: { host: 'kaipiao.example.com', origin: 'https://evil.example' },
      cookies: { kp_token: token },
    });
    expect(get.json().code).toBe(0);
    const ws = await t.app.inject({
      method: 'GET',
      url: '/ws/device-auth?client_id=1',
      headers: {
        host: 'kaipiao.example.com',
        origin: 'https://evil.example',
        connection: 'upgrade',
        upgrade: 'websocket',
      },
      cookies: { kp_token: token },
    });
    expect(ws.statusCode).toBe(403);
  });
});

describe('security headers (issue 11 item 2, M2)', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // a stand-in for apps/web/dist
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await buildTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await fs.rm(dist, { recursive: true, force: true });
  });

  const expectHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['strict-transport-security']).toBeUndefined();
  };

  it('enforces one CSP: own scripts only, inline styles for antd, no framing, no plugins', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });

  it('are on an API answer, an error answer, a sandbox page, index.html and a static asset', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/v3/user/picture-code' });
    expect(api.statusCode).toBe(200);
    expectHeaders(api.headers);
    const refused = await t.app.inject({ method: 'GET', url: '/v3/user/info' });
    expect(refused.json().code).toBe(CODE.UNAUTHORIZED);
    expectHeaders(refused.headers);
    expectHeaders((await t.app.inject({ method: 'GET', url: '/v3/no-such-route' })).headers);
    const sandbox = await t.app.inject({ method: 'GET', url: '/sandbox/qr-login?qr_id=x' });
    expect(sandbox.headers['content-type']).toContain('text/html');
    expectHeaders(sandbox.headers);
    const page = await t.app.inject({ method: 'GET', url: '/invoice/online' });
    expect(page.body).toContain('<div id="root">');
    expectHeaders(page.headers);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expectHeaders(asset.headers);
  });

  it('sends no HSTS without KAIPIAO_TRUST_PROXY, even if a client claims https', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v3/user/picture-code',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('behind a TLS proxy (KAIPIAO_TRUST_PROXY=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_TRUST_PROXY: 'true' } });
  });

  it('marks the cookie Secure and sends HSTS for https', async () => {
    const res = await loginRaw(t, { 'x-forwarded-proto': 'https' });
    expect(res.json().code).toBe(0);
    expect(sessionCookie(res)).toMatch(/; Secure/);
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  });

  it('sends neither for a plain http request through the proxy', async () => {
    const res = await loginRaw(t, { 'x-forwarded-proto': 'http' });
    expect(sessionCookie(res)).not.toMatch(/Secure/);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
