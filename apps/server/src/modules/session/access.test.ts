import { CODE, SESSION_CODE } from '@kaipiao/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import {
  authorityRules,
  clientStores,
  clients,
  employeeScopes,
  employees,
  orgs,
  sessions,
  users,
} from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';

/**
 * What a session may reach, and for how long (issue 22): the token's expiry, logout, the business
 * and store a call names (client_id / sid, never trusted), and changes to the employee — rule,
 * stores, status — taking effect once the access cache's 15 s have passed.
 */

let t: Awaited<ReturnType<typeof buildTestApp>>;
let admin: string;
let clerk: string;
let software: number;
let hotel: number;
const store = {} as Record<'HQ' | 'BJ' | 'SH' | 'BS', number>;
let otherClient: number;
let otherStore: number;
let otherOrg: number;

const UNAUTHORIZED = { code: 401, message: '登录已失效，请重新登录', data: null };
const NO_CLIENT = { code: SESSION_CODE.CLIENT_NOT_PERMITTED, message: '您没有该企业的权限', data: null };
const NO_STORE = { code: SESSION_CODE.STORE_NOT_PERMITTED, message: '无权限操作该门店', data: null };
const FORBIDDEN = { code: CODE.FORBIDDEN, message: '您没有该功能的权限', data: null };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await login(t.app, DEMO.admin.account);
  clerk = await login(t.app, DEMO.clerk.account);
  const all = await t.db.select().from(clients);
  software = all.find((c) => c.taxCode === DEMO.software.taxCode)!.id;
  hotel = all.find((c) => c.taxCode === DEMO.hotel.taxCode)!.id;
  for (const s of await t.db.select().from(clientStores)) {
    if (s.code in { HQ: 1, BJ: 1, SH: 1, BS: 1 }) store[s.code as keyof typeof store] = s.id;
  }
  // another tenant with a business and a store
  const [o] = await t.db.insert(orgs).values({ name: '别家集团', packageCode: 'pro' }).returning();
  otherOrg = o!.id;
  const [c] = await t.db
    .insert(clients)
    .values({ orgId: otherOrg, name: '别家贸易有限公司', taxCode: '91330100MA2X9Y8Z7K' })
    .returning();
  otherClient = c!.id;
  const [s] = await t.db
    .insert(clientStores)
    .values({ clientId: otherClient, name: '别家门店', code: 'OT' })
    .returning();
  otherStore = s!.id;
});

afterEach(() => {
  vi.useRealTimers();
  // entries cached under a moved clock must not outlive the test
  t.app.accessService.forgetAll();
});

const menu = async (token: string, query: string) =>
  (await call(t.app, 'GET', `/v3/authority/menu-list?${query}`, { token })).json;
const info = async (token: string) => (await call(t.app, 'GET', '/v3/user/info', { token })).json;
const clerkEmployee = async () => {
  const [u] = await t.db.select().from(users).where(eq(users.account, DEMO.clerk.account));
  return (await t.db.select().from(employees).where(eq(employees.userId, u!.id)))[0]!;
};
/** Fakes `Date` (timers stay real), stopped at `ms`. */
function clockAt(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}

describe('the session token', () => {
  it('answers 401 without a token, and for a token nobody was given', async () => {
    expect((await call(t.app, 'GET', '/v3/user/info')).json).toEqual(UNAUTHORIZED);
    expect(await info('not-a-token-anyone-was-given')).toEqual(UNAUTHORIZED);
  });

  it('works one second before it expires and answers 401 one second after (looked up fresh)', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    const end = row!.expiresAt.getTime();
    clockAt(end - 1000);
    expect((await info(token)).code).toBe(0);
    t.app.accessService.forgetAll();
    vi.setSystemTime(end + 1000);
    expect(await info(token)).toEqual(UNAUTHORIZED);
  });

  it('answers 401 at exactly its expiry time (looked up fresh)', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    t.app.accessService.forgetAll();
    clockAt(row!.expiresAt.getTime());
    expect(await info(token)).toEqual(UNAUTHORIZED);
  });

  it('a client_id beyond the id range is refused as malformed (10001), not a server error', async () => {
    expect(await menu(admin, 'client_id=99999999999&sid=-1')).toEqual({
      code: CODE.VALIDATION,
      message: 'client_id / sid 参数错误',
      data: null,
    });
  });

  it('answers 401 once it expires even while the process still has it cached', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    const end = row!.expiresAt.getTime();
    clockAt(end - 1000);
    expect((await info(token)).code).toBe(0); // cached now, for 10 s
    vi.setSystemTime(end + 1000);
    expect(await info(token)).toEqual(UNAUTHORIZED);
    expect(await menu(token, `client_id=${software}&sid=-1`)).toEqual(UNAUTHORIZED);
  });

  it('answers 401 at exactly its expiry time while the process still has it cached', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    const end = row!.expiresAt.getTime();
    clockAt(end - 1000);
    expect((await info(token)).code).toBe(0); // cached now, for 10 s
    vi.setSystemTime(end);
    expect(await info(token)).toEqual(UNAUTHORIZED);
  });

  it('reads the session row: a row whose expiry is moved back ends the session once the cache has passed', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    expect((await info(token)).code).toBe(0);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(token)));
    clockAt(Date.now() + 10_001);
    expect(await info(token)).toEqual(UNAUTHORIZED);
  });

  it('ends at logout at once, cached or not, and only that session', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const other = await login(t.app, DEMO.clerk.account);
    expect((await menu(token, `client_id=${software}&sid=-1`)).code).toBe(0);
    expect((await call(t.app, 'POST', '/v3/user/logout', { token })).json.code).toBe(0);
    expect(await info(token)).toEqual(UNAUTHORIZED);
    expect(await menu(token, `client_id=${software}&sid=-1`)).toEqual(UNAUTHORIZED);
    expect((await menu(other, `client_id=${software}&sid=-1`)).code).toBe(0);
  });
});

describe('client_id and sid: the business and store a call names must be the session’s', () => {
  it('refuses another group’s business (12002) and its store (12003)', async () => {
    expect(await menu(admin, `client_id=${otherClient}&sid=-1`)).toEqual(NO_CLIENT);
    expect(await menu(admin, `client_id=${otherClient}&sid=${otherStore}`)).toEqual(NO_CLIENT);
    expect(await menu(admin, `client_id=${software}&sid=${otherStore}`)).toEqual(NO_STORE);
  });

  it('refuses a business that does not exist (12002)', async () => {
    expect(await menu(admin, 'client_id=999999&sid=-1')).toEqual(NO_CLIENT);
  });

  it('a session of no group reaches the businesses the user is an employee for, and no other', async () => {
    await t.db.update(users).set({ lastOrgId: null }).where(eq(users.account, DEMO.clerk.account));
    try {
      const token = await login(t.app, DEMO.clerk.account);
      expect(
        (
          await t.db
            .select()
            .from(sessions)
            .where(eq(sessions.tokenHash, sha256(token)))
        )[0]!.orgId,
      ).toBeNull();
      expect((await menu(token, `client_id=${software}&sid=${store.HQ}`)).code).toBe(0);
      expect(await menu(token, `client_id=${otherClient}&sid=-1`)).toEqual(NO_CLIENT);
      expect(await menu(token, `client_id=${hotel}&sid=-1`)).toEqual(NO_CLIENT);
      const listed = (await call(t.app, 'POST', '/v3/user/client-list', { token, body: {} })).json.data;
      expect(listed.map((c: { client_id: number }) => c.client_id)).toEqual([software]);
      // with no group set, the first of the user's groups is the current one
      expect((await call(t.app, 'POST', '/v3/user/org-list', { token })).json.data).toEqual([
        expect.objectContaining({ is_current: true }),
      ]);
    } finally {
      const [e] = await t.db
        .select()
        .from(employees)
        .where(eq(employees.id, (await clerkEmployee()).id));
      await t.db.update(users).set({ lastOrgId: e!.orgId }).where(eq(users.account, DEMO.clerk.account));
    }
  });

  it('a session of no group lists each business once, from the groups where the user reaches it', async () => {
    const [u] = await t.db.select().from(users).where(eq(users.account, DEMO.admin.account));
    await t.db.update(users).set({ lastOrgId: null }).where(eq(users.id, u!.id));
    // a staff employee of the other group, with no business in scope there
    await t.db
      .insert(employees)
      .values({ orgId: otherOrg, userId: u!.id, role: 'staff', isGroupAdmin: false });
    try {
      const token = await login(t.app, DEMO.admin.account);
      const listed = (await call(t.app, 'POST', '/v3/user/client-list', { token, body: {} })).json.data;
      expect(listed.map((c: { client_id: number }) => c.client_id)).toEqual(
        [software, hotel].sort((a, b) => a - b),
      );
      const groups = (await call(t.app, 'POST', '/v3/user/org-list', { token })).json.data;
      expect(groups.map((g: { is_current: boolean }) => g.is_current)).toEqual([true, false]);
    } finally {
      await t.db.delete(employees).where(and(eq(employees.orgId, otherOrg), eq(employees.userId, u!.id)));
      const [e] = await t.db.select().from(employees).where(eq(employees.userId, u!.id));
      await t.db.update(users).set({ lastOrgId: e!.orgId }).where(eq(users.id, u!.id));
    }
  });

  it('a session of no group whose employee is disabled lists no group and no business', async () => {
    await t.db.update(users).set({ lastOrgId: null }).where(eq(users.account, DEMO.clerk.account));
    const emp = await clerkEmployee();
    try {
      const token = await login(t.app, DEMO.clerk.account);
      await t.db.update(employees).set({ status: 'disabled' }).where(eq(employees.id, emp.id));
      expect((await call(t.app, 'POST', '/v3/user/org-list', { token })).json).toEqual({
        code: 0,
        message: 'ok',
        data: [],
      });
      expect((await call(t.app, 'POST', '/v3/user/client-list', { token, body: {} })).json.data).toEqual([]);
    } finally {
      await t.db.update(employees).set({ status: 'active' }).where(eq(employees.id, emp.id));
      await t.db.update(users).set({ lastOrgId: emp.orgId }).where(eq(users.account, DEMO.clerk.account));
    }
  });

  it('refuses the clerk a business of her group she has no scope in (12002)', async () => {
    expect(await menu(clerk, `client_id=${hotel}&sid=-1`)).toEqual(NO_CLIENT);
  });

  it('lets the clerk choose her store or the summary, and refuses the other stores (12003)', async () => {
    expect((await menu(clerk, `client_id=${software}&sid=${store.HQ}`)).code).toBe(0);
    expect((await menu(clerk, `client_id=${software}&sid=-1`)).code).toBe(0);
    expect((await menu(clerk, `client_id=${software}`)).code).toBe(0);
    expect(await menu(clerk, `client_id=${software}&sid=${store.BJ}`)).toEqual(NO_STORE);
    expect(await menu(clerk, `client_id=${software}&sid=${store.BS}`)).toEqual(NO_STORE);
  });

  it('lets the administrator choose any active store of the business, but not a store of another business', async () => {
    for (const sid of [store.HQ, store.BJ, store.SH]) {
      expect((await menu(admin, `client_id=${software}&sid=${sid}`)).code).toBe(0);
    }
    expect(await menu(admin, `client_id=${software}&sid=${store.BS}`)).toEqual(NO_STORE);
    expect((await menu(admin, `client_id=${hotel}&sid=${store.BS}`)).code).toBe(0);
  });

  it('refuses a store that has been disabled, to the administrator and to its clerk', async () => {
    await t.db.update(clientStores).set({ status: 'disabled' }).where(eq(clientStores.id, store.HQ));
    t.app.accessService.forgetAll();
    try {
      expect(await menu(admin, `client_id=${software}&sid=${store.HQ}`)).toEqual(NO_STORE);
      expect(await menu(clerk, `client_id=${software}&sid=${store.HQ}`)).toEqual(NO_STORE);
    } finally {
      await t.db.update(clientStores).set({ status: 'active' }).where(eq(clientStores.id, store.HQ));
      t.app.accessService.forgetAll();
    }
    expect((await menu(clerk, `client_id=${software}&sid=${store.HQ}`)).code).toBe(0);
  });

  it('refuses a client_id or sid that is not a whole number (10001)', async () => {
    const bad = { code: CODE.VALIDATION, message: 'client_id / sid 参数错误', data: null };
    expect(await menu(admin, 'client_id=abc&sid=-1')).toEqual(bad);
    expect(await menu(admin, `client_id=${software}&sid=1.5`)).toEqual(bad);
  });

  it('asks for a business (10688) on a business route without client_id, and for a store on a store-specific one', async () => {
    expect((await call(t.app, 'GET', '/v3/authority/menu-list', { token: admin })).json).toEqual({
      code: CODE.SWITCH_STORE,
      message: '',
      data: null,
    });
    const specific = await call(t.app, 'GET', `/v3/scan-code/list?client_id=${software}&sid=-1`, {
      token: admin,
    });
    expect(specific.json).toEqual({
      code: CODE.SWITCH_STORE,
      message: '请先切换到具体门店再操作',
      data: null,
    });
    // a store route with no menu entry (the console shell's device check) asks for a business itself
    expect((await call(t.app, 'GET', '/v3/equipment/check-tax', { token: admin })).json).toEqual({
      code: CODE.SWITCH_STORE,
      message: '',
      data: null,
    });
    const noSid = await call(t.app, 'GET', `/v3/scan-code/list?client_id=${software}`, { token: admin });
    expect(noSid.json.code).toBe(CODE.SWITCH_STORE);
    expect(
      (await call(t.app, 'GET', `/v3/scan-code/list?client_id=${software}&sid=${store.HQ}`, { token: admin }))
        .json.code,
    ).toBe(0);
  });

  it('follows the group the session is set to: another group’s business answers, the first group’s no longer does', async () => {
    const [u] = await t.db.select().from(users).where(eq(users.account, DEMO.admin.account));
    await t.db
      .insert(employees)
      .values({ orgId: otherOrg, userId: u!.id, role: 'admin', isGroupAdmin: true });
    const token = await login(t.app, DEMO.admin.account);
    try {
      expect((await menu(token, `client_id=${software}&sid=-1`)).code).toBe(0);
      expect(await menu(token, `client_id=${otherClient}&sid=-1`)).toEqual(NO_CLIENT);
      expect(
        (await call(t.app, 'POST', '/v3/user/set-org-id', { token, body: { org_id: otherOrg } })).json.code,
      ).toBe(0);
      expect((await menu(token, `client_id=${otherClient}&sid=${otherStore}`)).code).toBe(0);
      expect(await menu(token, `client_id=${software}&sid=-1`)).toEqual(NO_CLIENT);
      const listed = (await call(t.app, 'POST', '/v3/user/client-list', { token, body: {} })).json.data;
      expect(listed.map((c: { client_id: number }) => c.client_id)).toEqual([otherClient]);
      const groups = (await call(t.app, 'POST', '/v3/user/org-list', { token })).json.data;
      expect(groups.filter((g: { is_current: boolean }) => g.is_current)).toEqual([
        { org_id: otherOrg, name: '别家集团', is_current: true },
      ]);
      expect(groups).toHaveLength(2);
    } finally {
      await t.db.delete(employees).where(and(eq(employees.orgId, otherOrg), eq(employees.userId, u!.id)));
    }
  });

  it('refuses to set a group the user is not in (12001)', async () => {
    const res = await call(t.app, 'POST', '/v3/user/set-org-id', {
      token: clerk,
      body: { org_id: otherOrg },
    });
    expect(res.json).toEqual({ code: SESSION_CODE.ORG_NOT_PERMITTED, message: '您不属于该集团', data: null });
  });
});

describe('changes to the employee take effect once the access cache (15 s) has passed', () => {
  /** Moves the stopped clock past the access cache's 15 s, from wherever it was last moved to. */
  let last = 0;
  const afterCache = () => {
    last = Math.max(vi.getRealSystemTime(), last) + 15_001;
    clockAt(last);
  };
  const library = (token: string, sid: number | string = -1) =>
    call(t.app, 'POST', `/v3/invoice-record/list?client_id=${software}&sid=${sid}`, {
      token,
      body: { page: 1, page_size: 10 },
    });

  it('a url taken out of the rule closes its calls; put back, they answer', async () => {
    const emp = await clerkEmployee();
    const url = '/query/invoice';
    const setUrls = (op: 'remove' | 'append') =>
      t.db
        .update(authorityRules)
        .set({ urls: op === 'remove' ? sql`array_remove(urls, ${url})` : sql`array_append(urls, ${url})` })
        .where(eq(authorityRules.id, emp.authorityRuleId!));
    expect((await library(clerk)).json.code).toBe(0);
    await setUrls('remove');
    try {
      afterCache();
      expect((await library(clerk)).json).toEqual(FORBIDDEN);
    } finally {
      vi.useRealTimers();
      await setUrls('append');
    }
    afterCache();
    expect((await library(clerk)).json.code).toBe(0);
  });

  it("an edit that invalidates the user's access (app.invalidate, as the editing routes do) applies at once", async () => {
    const emp = await clerkEmployee();
    expect((await library(clerk)).json.code).toBe(0);
    await t.db
      .update(authorityRules)
      .set({ urls: sql`array_remove(urls, '/query/invoice')` })
      .where(eq(authorityRules.id, emp.authorityRuleId!));
    try {
      await t.app.invalidate({ userId: emp.userId });
      expect((await library(clerk)).json).toEqual(FORBIDDEN);
    } finally {
      await t.db
        .update(authorityRules)
        .set({ urls: sql`array_append(urls, '/query/invoice')` })
        .where(eq(authorityRules.id, emp.authorityRuleId!));
      await t.app.invalidate({ userId: emp.userId });
    }
    expect((await library(clerk)).json.code).toBe(0);
  });

  it('a store taken out of the clerk’s scope is refused (12003); given every store (0), she may choose any', async () => {
    const emp = await clerkEmployee();
    const scopes = () => t.db.select().from(employeeScopes).where(eq(employeeScopes.employeeId, emp.id));
    const before = await scopes();
    const setScope = async (storeIds: number[]) => {
      await t.db.delete(employeeScopes).where(eq(employeeScopes.employeeId, emp.id));
      await t.db
        .insert(employeeScopes)
        .values(storeIds.map((storeId) => ({ employeeId: emp.id, clientId: software, storeId })));
    };
    try {
      await setScope([store.BJ]);
      afterCache();
      expect(await menu(clerk, `client_id=${software}&sid=${store.HQ}`)).toEqual(NO_STORE);
      expect((await menu(clerk, `client_id=${software}&sid=${store.BJ}`)).code).toBe(0);
      const mine = (await call(t.app, 'GET', `/v3/user/store-list?client_id=${software}`, { token: clerk }))
        .json.data;
      expect(mine.map((s: { client_store_id: number }) => s.client_store_id)).toEqual([store.BJ]);
      vi.useRealTimers();
      await setScope([0]);
      afterCache();
      for (const sid of [store.HQ, store.BJ, store.SH]) {
        expect((await menu(clerk, `client_id=${software}&sid=${sid}`)).code).toBe(0);
      }
      const stores = (await call(t.app, 'GET', `/v3/user/store-list?client_id=${software}`, { token: clerk }))
        .json.data;
      expect(stores).toHaveLength(3);
      // every store (0) beside a named one is still every store
      vi.useRealTimers();
      await setScope([store.BJ, 0]);
      afterCache();
      expect((await menu(clerk, `client_id=${software}&sid=${store.HQ}`)).code).toBe(0);
    } finally {
      vi.useRealTimers();
      await t.db.delete(employeeScopes).where(eq(employeeScopes.employeeId, emp.id));
      await t.db.insert(employeeScopes).values(before);
    }
  });

  it('a clerk left with no store of a business loses the business (12002)', async () => {
    const emp = await clerkEmployee();
    const before = await t.db.select().from(employeeScopes).where(eq(employeeScopes.employeeId, emp.id));
    await t.db.delete(employeeScopes).where(eq(employeeScopes.employeeId, emp.id));
    try {
      afterCache();
      expect(await menu(clerk, `client_id=${software}&sid=-1`)).toEqual(NO_CLIENT);
    } finally {
      vi.useRealTimers();
      await t.db.insert(employeeScopes).values(before);
    }
  });

  it('a disabled employee loses the group: businesses refused (12002), none listed, no group to choose', async () => {
    const emp = await clerkEmployee();
    await t.db.update(employees).set({ status: 'disabled' }).where(eq(employees.id, emp.id));
    try {
      afterCache();
      expect(await menu(clerk, `client_id=${software}&sid=-1`)).toEqual(NO_CLIENT);
      expect(
        (await call(t.app, 'POST', '/v3/user/client-list', { token: clerk, body: {} })).json.data,
      ).toEqual([]);
      expect((await call(t.app, 'POST', '/v3/user/org-list', { token: clerk })).json.data).toEqual([]);
    } finally {
      vi.useRealTimers();
      await t.db.update(employees).set({ status: 'active' }).where(eq(employees.id, emp.id));
    }
    afterCache();
    expect((await menu(clerk, `client_id=${software}&sid=-1`)).code).toBe(0);
  });

  it('an employee made administrator of the business reaches every store', async () => {
    const emp = await clerkEmployee();
    await t.db.update(employees).set({ role: 'admin' }).where(eq(employees.id, emp.id));
    try {
      afterCache();
      expect((await menu(clerk, `client_id=${software}&sid=${store.BJ}`)).code).toBe(0);
      // an administrator of the business (not of the group) lists every business of the group
      const listed = (await call(t.app, 'POST', '/v3/user/client-list', { token: clerk, body: {} })).json
        .data;
      expect(listed.map((c: { client_id: number }) => c.client_id).sort()).toEqual([software, hotel].sort());
      expect(
        (
          await call(t.app, 'GET', `/v3/client/client-store-list?client_id=${software}&sid=-1`, {
            token: clerk,
          })
        ).json.code,
      ).toBe(0);
    } finally {
      vi.useRealTimers();
      await t.db.update(employees).set({ role: 'staff' }).where(eq(employees.id, emp.id));
    }
    afterCache();
    expect(await menu(clerk, `client_id=${software}&sid=${store.BJ}`)).toEqual(NO_STORE);
  });
});

describe('the summary view (sid -1) of a clerk limited to stores', () => {
  it('reads one row by id only from her own stores: another store’s scan code is refused (12003)', async () => {
    const create = async (sid: number, name: string) =>
      (
        await call(t.app, 'POST', `/v3/scan-code/create-counter?client_id=${software}&sid=${sid}`, {
          token: admin,
          body: { name },
        })
      ).json.data.id as number;
    const mine = await create(store.HQ, '总部收银台');
    const theirs = await create(store.BJ, '滨江收银台');
    const image = (id: number, sid?: number) =>
      t.app.inject({
        method: 'GET',
        url: `/v3/scan-code/image?client_id=${software}${sid === undefined ? '' : `&sid=${sid}`}&id=${id}`,
        headers: { 'access-token': clerk },
      });
    for (const sid of [-1, undefined, store.HQ]) {
      expect((await image(mine, sid)).headers['content-type']).toBe('image/png');
      expect((await image(theirs, sid)).json()).toEqual(NO_STORE);
    }
  });
});
