import cookie from '@fastify/cookie';
import { CODE, type MenuEntry, SESSION_CODE } from '@kaipiao/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.ts';
import type { RouteScope } from '../lib/scope.ts';
import { AccessService, type ClientAccess, type SessionCtx } from '../modules/session/access.ts';
import { authPlugin, routeScope } from './auth.ts';
import { errorsPlugin } from './errors.ts';

/**
 * The auth hook on its own (issue 22), with a stand-in access service: which routes need a session,
 * a business, a specific store or a menu url, and the scope it hands the route. No database: the
 * access rules themselves are tested in modules/session/access.test.ts.
 */

const SESSION: SessionCtx = {
  tokenHash: 'h',
  userId: 7,
  orgId: 1,
  source: '',
  platform: '',
  expiresAt: new Date(Date.now() + 3_600_000),
};
const entry = (url: string, auth: 0 | 1): MenuEntry => ({
  url,
  is_auth: auth,
  is_gray: auth ? 0 : 1,
  is_need_pay: 0,
  is_new_client: 0,
  is_gray_from_bookkeeping: 0,
});

/** Business 1: stores 10 and 11; the clerk (token "clerk") may use store 10 only; "/b" is grey. */
function access(storeIds: ReadonlySet<number> | null): ClientAccess {
  const menu = [entry('/a', 1), entry('/b', 0)];
  return {
    clientId: 1,
    orgId: 1,
    industry: 'general',
    employeeId: 3,
    isGroupAdmin: storeIds === null,
    isAdmin: storeIds === null,
    storeIds,
    activeStoreIds: new Set([10, 11]),
    menu,
    authUrls: new Set(menu.filter((m) => m.is_auth === 1).map((m) => m.url)),
  };
}
const stub = {
  async sessionFromToken(token: string | undefined) {
    if (token === 'admin') return SESSION;
    if (token === 'clerk') return { ...SESSION, userId: 8 };
    throw new AppError(CODE.UNAUTHORIZED);
  },
  async clientAccess(session: SessionCtx, clientId: number) {
    if (clientId !== 1) throw new AppError(SESSION_CODE.CLIENT_NOT_PERMITTED);
    return access(session.userId === 8 ? new Set([10]) : null);
  },
  assertStore: AccessService.prototype.assertStore,
} as unknown as AccessService;

let app: FastifyInstance;
afterEach(async () => {
  await app?.close();
});

type Config = { auth?: 'public'; scope?: RouteScope; menu?: string | string[]; store?: 'specific' };
async function build(routes: Record<string, Config>) {
  app = Fastify();
  app.decorate('accessService', stub);
  await app.register(errorsPlugin);
  await app.register(cookie);
  await app.register(authPlugin);
  for (const [url, config] of Object.entries(routes)) {
    app.get(url, { config }, async (req) => ({
      code: 0,
      message: 'ok',
      data: {
        userId: req.session === null ? null : req.session.userId,
        clientId: req.scope === null ? null : req.scope.clientId,
        sid: req.sid,
        scope: req.scope,
      },
    }));
  }
  await app.ready();
  return app;
}
const ROUTES: Record<string, Config> = {
  '/v3/open': { auth: 'public' },
  '/v3/me': { scope: 'user' },
  '/v3/biz': { scope: 'business' },
  '/v3/rows': { scope: 'store' },
  '/v3/issue': { scope: 'store', store: 'specific' },
  '/v3/menu-a': { scope: 'business', menu: '/a' },
  '/v3/menu-b': { scope: 'business', menu: '/b' },
  '/v3/menu-ab': { scope: 'business', menu: ['/b', '/a'] },
  '/v3/me-menu': { scope: 'user', menu: '/a' },
  '/v3/me-issue': { scope: 'user', store: 'specific' },
  '/page': {},
};
const get = async (url: string, token?: string, headers: Record<string, string> = {}) =>
  (
    await app.inject({
      method: 'GET',
      url,
      headers: { ...headers, ...(token ? { 'access-token': token } : {}) },
    })
  ).json();

describe('plugins/auth: the route table', () => {
  it('refuses to start with an API route that declares no scope, naming it', async () => {
    await expect(build({ '/v3/forgot': {} })).rejects.toThrow(
      /routes without config\.scope.*GET \/v3\/forgot/,
    );
  });

  it('names every undeclared route, comma-separated', async () => {
    await expect(build({ '/v3/forgot': {}, '/v3/lost': {} })).rejects.toThrow(
      /: GET \/v3\/forgot, GET \/v3\/lost$/,
    );
  });

  it('refuses an API route registered with no options at all; a page without options starts', async () => {
    expect(routeScope(undefined)).toBeUndefined();
    const bare = async (url: string) => {
      app = Fastify();
      app.decorate('accessService', stub);
      await app.register(errorsPlugin);
      await app.register(cookie);
      await app.register(authPlugin);
      app.get(url, async () => ({ code: 0, message: 'ok', data: null }));
      await app.ready();
    };
    await expect(bare('/v3/bare')).rejects.toThrow(/routes without config\.scope.*: GET \/v3\/bare$/);
    await app.close();
    await bare('/bare-page');
    expect((await get('/bare-page')).code).toBe(0);
    expect(app.routeTable).toEqual([]);
  });

  it('lists every API route with its scope; pages are not API routes', async () => {
    await build(ROUTES);
    expect(app.routeTable).toEqual(
      Object.entries(ROUTES)
        .filter(([url]) => url.startsWith('/v3/'))
        .map(([url, config]) => ({ method: 'GET', url, scope: config.scope ?? 'public' })),
    );
    expect(app.routeTable).toContainEqual({ method: 'GET', url: '/v3/open', scope: 'public' });
    expect(app.routeTable).toContainEqual({ method: 'GET', url: '/v3/issue', scope: 'store' });
    expect(app.routeTable.filter((r) => r.method === 'HEAD')).toEqual([]);
    expect(app.routeTable.map((r) => r.url)).not.toContain('/page');
  });
});

describe('plugins/auth: what each route needs', () => {
  it('lets public routes and pages through without a token; anything else answers 401', async () => {
    await build(ROUTES);
    const none = { userId: null, clientId: null, sid: null, scope: null };
    expect(await get('/v3/open')).toEqual({ code: 0, message: 'ok', data: none });
    expect(await get('/v3/open?client_id=1&sid=10', 'admin')).toEqual({ code: 0, message: 'ok', data: none });
    expect(await get('/page')).toMatchObject({ code: 0 });
    const refused = { code: 401, message: '登录已失效，请重新登录', data: null };
    expect(await get('/v3/me')).toEqual(refused);
    expect(await get('/v3/me', 'forged')).toEqual(refused);
    expect(await get('/v3/me', 'admin')).toMatchObject({ code: 0, data: { userId: 7, scope: null } });
  });

  it('takes the access-token header before the cookie, and the cookie alone', async () => {
    await build(ROUTES);
    expect(await get('/v3/me', undefined, { cookie: 'kp_token=clerk' })).toMatchObject({
      data: { userId: 8 },
    });
    expect(await get('/v3/me', 'admin', { cookie: 'kp_token=clerk' })).toMatchObject({ data: { userId: 7 } });
    expect((await get('/v3/me', 'forged', { cookie: 'kp_token=clerk' })).code).toBe(401);
  });

  it('asks for a business (10688, no message) on business and store routes without client_id', async () => {
    await build(ROUTES);
    const ask = { code: CODE.SWITCH_STORE, message: '', data: null };
    for (const url of ['/v3/biz', '/v3/rows', '/v3/menu-a', '/v3/biz?client_id=']) {
      expect(await get(url, 'admin')).toEqual(ask);
    }
    // a user route does not need one
    expect((await get('/v3/me?sid=10', 'admin')).code).toBe(0);
  });

  it('refuses a client_id or sid that is not a whole number (10001)', async () => {
    await build(ROUTES);
    const bad = { code: CODE.VALIDATION, message: 'client_id / sid 参数错误', data: null };
    expect(await get('/v3/biz?client_id=one', 'admin')).toEqual(bad);
    expect(await get('/v3/biz?client_id=1&sid=1e', 'admin')).toEqual(bad);
    expect(await get('/v3/biz?client_id=1.5', 'admin')).toEqual(bad);
    // ids are PostgreSQL integers: one beyond their range is malformed too
    expect(await get('/v3/biz?client_id=2147483648', 'admin')).toEqual(bad);
    expect(await get('/v3/biz?client_id=1&sid=-2147483648', 'admin')).toEqual(bad);
    expect((await get('/v3/biz?client_id=2147483647', 'admin')).code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    expect((await get('/v3/biz?client_id=1&sid=-2147483647', 'admin')).code).toBe(
      SESSION_CODE.STORE_NOT_PERMITTED,
    );
  });

  it('hands the route the scope: the summary when no sid is sent, the store when one is', async () => {
    await build(ROUTES);
    const summary = await get('/v3/rows?client_id=1', 'admin');
    expect(summary.data).toMatchObject({
      sid: -1,
      scope: { clientId: 1, storeId: null, storeIds: null, isAdmin: true },
    });
    const store = await get('/v3/rows?client_id=1&sid=11', 'admin');
    expect(store.data).toMatchObject({ sid: 11, scope: { storeId: 11, storeIds: [11] } });
    const clerk = await get('/v3/rows?client_id=1&sid=-1', 'clerk');
    expect(clerk.data).toMatchObject({
      sid: -1,
      scope: { storeId: null, storeIds: [10], isAdmin: false, employeeId: 3 },
    });
  });

  it('refuses a business or store the access service refuses (12002, 12003)', async () => {
    await build(ROUTES);
    expect((await get('/v3/rows?client_id=2', 'admin')).code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    expect(await get('/v3/rows?client_id=1&sid=11', 'clerk')).toEqual({
      code: SESSION_CODE.STORE_NOT_PERMITTED,
      message: '无权限操作该门店',
      data: null,
    });
    expect((await get('/v3/rows?client_id=1&sid=12', 'admin')).code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    // the store is checked on every route that names a business, user routes too
    expect((await get('/v3/me?client_id=1&sid=11', 'clerk')).code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
  });

  it('refuses the summary on a store-specific route (10688 with its message)', async () => {
    await build(ROUTES);
    const specific = { code: CODE.SWITCH_STORE, message: '请先切换到具体门店再操作', data: null };
    expect(await get('/v3/issue?client_id=1&sid=-1', 'admin')).toEqual(specific);
    expect(await get('/v3/issue?client_id=1', 'admin')).toEqual(specific);
    expect((await get('/v3/issue?client_id=1&sid=10', 'admin')).code).toBe(0);
    // a user route that needs a store asks for one when no business is named
    expect(await get('/v3/me-issue', 'admin')).toEqual(specific);
    expect((await get('/v3/me-issue?client_id=1&sid=10', 'admin')).code).toBe(0);
  });

  it('needs one of the menu urls authorised: a grey one alone is 403', async () => {
    await build(ROUTES);
    expect((await get('/v3/menu-a?client_id=1', 'admin')).code).toBe(0);
    expect(await get('/v3/menu-b?client_id=1', 'admin')).toEqual({
      code: CODE.FORBIDDEN,
      message: '您没有该功能的权限',
      data: null,
    });
    expect((await get('/v3/menu-ab?client_id=1', 'admin')).code).toBe(0);
    // a menu url is a business's: a user route with one asks for a business (10688, no message)
    expect(await get('/v3/me-menu', 'admin')).toEqual({ code: CODE.SWITCH_STORE, message: '', data: null });
    expect((await get('/v3/me-menu?client_id=1', 'admin')).code).toBe(0);
  });
});
