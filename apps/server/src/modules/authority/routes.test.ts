import { CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, demoIds, login } from '../../../test/helper.ts';
import { orgs } from '../../db/schema/index.ts';

describe('GET /v3/authority/menu-list', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let clerk: string;
  let ids: { software: number; hotel?: number };

  beforeAll(async () => {
    t = await buildTestApp();
    // a login that fails throws with the server's answer: no test below runs without its user
    admin = await login(t.app, DEMO.admin.account, DEMO.password);
    clerk = await login(t.app, DEMO.clerk.account);
    ids = await demoIds(t.app, clerk);
  });

  it('returns the clerk her rule entries in the spec §3 shape, without store or group management', async () => {
    const res = await call(t.app, 'GET', `/v3/authority/menu-list?client_id=${ids.software}&sid=-1`, {
      token: clerk,
    });
    expect(res.json.code).toBe(0);
    const urls = res.json.data.list.map((e: { url: string }) => e.url);
    expect(urls).toContain('/invoice/online');
    expect(urls).not.toContain('/group/client-store');
    expect(urls).not.toContain('/group/employee');
    expect(Object.keys(res.json.data.list[0]).sort()).toEqual(
      ['is_auth', 'is_gray', 'is_gray_from_bookkeeping', 'is_need_pay', 'is_new_client', 'url'].sort(),
    );
  });

  it('answers JSON (the encoded menu is sent as is, with its content type), the same body twice', async () => {
    const get = () =>
      t.app.inject({
        method: 'GET',
        url: `/v3/authority/menu-list?client_id=${ids.software}&sid=-1`,
        headers: { 'access-token': clerk },
      });
    const [first, second] = [await get(), await get()];
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json().code).toBe(0);
    expect(second.body).toBe(first.body);
  });

  it('shows the gray-release trusteeship page gray with the org not listed for it', async () => {
    // the demo org is listed for it; take it off the list
    const [org] = await t.db.select().from(orgs);
    await t.db
      .update(orgs)
      .set({ grayFeatures: org!.grayFeatures.filter((u) => u !== '/invoice/trusteeship') })
      .where(eq(orgs.id, org!.id));
    t.app.accessService.forgetAll();
    const res = await call(t.app, 'GET', `/v3/authority/menu-list?client_id=${ids.software}&sid=-1`, {
      token: clerk,
    });
    expect(res.json.data.list.find((e: { url: string }) => e.url === '/invoice/trusteeship')).toMatchObject({
      is_auth: 0,
      is_gray: 1,
    });
  });

  it('asks for a business (10688) when no client_id is sent', async () => {
    const res = await call(t.app, 'GET', '/v3/authority/menu-list', { token: clerk });
    expect(res.json.code).toBe(CODE.SWITCH_STORE);
  });

  it('reflects an expired bookkeeping service within the cache window of a new session', async () => {
    const [org] = await t.db.select().from(orgs);
    await t.db
      .update(orgs)
      .set({ bookkeepingExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(orgs.id, org!.id));
    const fresh = await login(t.app, DEMO.clerk.account);
    t.app.accessService.forgetAll();
    const res = await call(t.app, 'GET', `/v3/authority/menu-list?client_id=${ids.software}&sid=-1`, {
      token: fresh,
    });
    expect(res.json.data.list.find((e: { url: string }) => e.url === '/invoice/batch')).toMatchObject({
      is_auth: 0,
      is_gray: 1,
      is_gray_from_bookkeeping: 1,
    });
    await t.db.update(orgs).set({ bookkeepingExpiresAt: null }).where(eq(orgs.id, org!.id));
    t.app.accessService.forgetAll();
  });

  it('refuses (403) an API whose menu url the user lacks, and allows it to one who has it', async () => {
    const refused = await call(
      t.app,
      'GET',
      `/v3/client/client-store-list?client_id=${ids.software}&sid=-1`,
      { token: clerk },
    );
    expect(refused.json).toMatchObject({ code: CODE.FORBIDDEN, data: null });
    const allowed = await call(
      t.app,
      'GET',
      `/v3/client/client-store-list?client_id=${ids.software}&sid=-1`,
      { token: admin },
    );
    expect(allowed.json.code).toBe(0);
    expect(allowed.json.data).toHaveLength(3);
  });
});
