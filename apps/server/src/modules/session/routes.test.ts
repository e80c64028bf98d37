import { SESSION_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, demoIds, login } from '../../../test/helper.ts';
import { clientStores, clients, orgs } from '../../db/schema/index.ts';

describe('business and store selection', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let clerk: string;
  let ids: { software: number; hotel?: number };
  let otherClientId: number;
  let otherStoreId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    clerk = await login(t.app, DEMO.clerk.account);
    ids = await demoIds(t.app, admin);
    // another tenant, nobody from the demo org belongs to it
    const [org] = await t.db.insert(orgs).values({ name: '别家集团' }).returning();
    const [c] = await t.db
      .insert(clients)
      .values({ orgId: org!.id, name: '别家公司', taxCode: '91110000MA00000000' })
      .returning();
    const [s] = await t.db
      .insert(clientStores)
      .values({ clientId: c!.id, name: '别家门店', code: 'X1' })
      .returning();
    otherClientId = c!.id;
    otherStoreId = s!.id;
  });

  it('POST /v3/user/org-list lists the groups of the user with the current one marked', async () => {
    const res = await call(t.app, 'POST', '/v3/user/org-list', { token: admin });
    expect(res.json.code).toBe(0);
    expect(res.json.data).toEqual([expect.objectContaining({ name: '云栈集团', is_current: true })]);
  });

  it('POST /v3/user/set-org-id refuses a group the user is not in', async () => {
    const [other] = await t.db.select().from(orgs).where(eq(orgs.name, '别家集团'));
    const res = await call(t.app, 'POST', '/v3/user/set-org-id', {
      token: admin,
      body: { org_id: other!.id },
    });
    expect(res.json.code).toBe(SESSION_CODE.ORG_NOT_PERMITTED);
  });

  it('POST /v3/user/client-list gives the admin both businesses and the clerk only hers', async () => {
    const all = await call(t.app, 'POST', '/v3/user/client-list', { token: admin, body: {} });
    expect(all.json.data.map((c: { name: string }) => c.name).sort()).toEqual(
      [DEMO.software.name, DEMO.hotel.name].sort(),
    );
    const mine = await call(t.app, 'POST', '/v3/user/client-list', { token: clerk, body: {} });
    expect(mine.json.data).toHaveLength(1);
    expect(mine.json.data[0]).toMatchObject({ name: DEMO.software.name, industry: 'general' });
  });

  it('POST /v3/user/client-list filters by name or tax code', async () => {
    const res = await call(t.app, 'POST', '/v3/user/client-list', {
      token: admin,
      body: { keyword: '酒店' },
    });
    expect(res.json.data.map((c: { name: string }) => c.name)).toEqual([DEMO.hotel.name]);
    const byCode = await call(t.app, 'POST', '/v3/user/client-list', {
      token: admin,
      body: { keyword: DEMO.software.taxCode.slice(0, 8) },
    });
    expect(byCode.json.data.map((c: { name: string }) => c.name)).toEqual([DEMO.software.name]);
    // a tax code's letters are upper case; a keyword typed in lower case finds it
    const lower = await call(t.app, 'POST', '/v3/user/client-list', {
      token: admin,
      body: { keyword: DEMO.hotel.taxCode.slice(-6).toLowerCase() },
    });
    expect(lower.json.data.map((c: { name: string }) => c.name)).toEqual([DEMO.hotel.name]);
  });

  it('GET /v3/user/store-list shows the admin every store and the clerk her one', async () => {
    const all = await call(t.app, 'GET', `/v3/user/store-list?client_id=${ids.software}`, { token: admin });
    expect(all.json.data).toHaveLength(3);
    const mine = await call(t.app, 'GET', `/v3/user/store-list?client_id=${ids.software}`, { token: clerk });
    expect(mine.json.data).toHaveLength(1);
    expect(mine.json.data[0].name).toBe('文三路总部');
  });

  it("refuses another tenant's client_id on any call", async () => {
    const res = await call(t.app, 'GET', `/v3/authority/menu-list?client_id=${otherClientId}&sid=-1`, {
      token: admin,
    });
    expect(res.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    const stores = await call(t.app, 'GET', `/v3/user/store-list?client_id=${otherClientId}`, {
      token: admin,
    });
    expect(stores.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    expect(stores.json.data).toBeNull();
  });

  it("refuses another tenant's sid, and a store of the business the clerk may not use", async () => {
    const foreign = await call(
      t.app,
      'GET',
      `/v3/authority/menu-list?client_id=${ids.software}&sid=${otherStoreId}`,
      { token: admin },
    );
    expect(foreign.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    const all = await call(t.app, 'GET', `/v3/user/store-list?client_id=${ids.software}`, { token: admin });
    const notHers = all.json.data.find((s: { name: string }) => s.name === '滨江研发中心').client_store_id;
    const res = await call(t.app, 'GET', `/v3/authority/menu-list?client_id=${ids.software}&sid=${notHers}`, {
      token: clerk,
    });
    expect(res.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
  });

  it('refuses the hotel business to the clerk who only has the software company', async () => {
    const res = await call(t.app, 'GET', `/v3/authority/menu-list?client_id=${ids.hotel}&sid=-1`, {
      token: clerk,
    });
    expect(res.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
  });

  it('answers 401 in the envelope (HTTP 200) without a token', async () => {
    const res = await call(t.app, 'POST', '/v3/user/client-list', { body: {} });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ code: 401, message: '登录已失效，请重新登录', data: null });
  });

  it('answers HTTP 404 for an unknown API path', async () => {
    const res = await call(t.app, 'GET', '/v3/no/such-thing', { token: admin });
    expect(res.status).toBe(404);
  });
});
