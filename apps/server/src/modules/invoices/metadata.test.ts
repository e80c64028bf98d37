import { CODE, INVOICE_CODE, INVOICE_TYPES, SESSION_CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { authorityRules, clientStores, clients, orgs } from '../../db/schema/index.ts';

describe('device and invoice-type metadata', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let ids: Fixture['ids'];
  let foreignStore: number;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    ids = f.ids;
    const [org] = await t.db.insert(orgs).values({ name: '别家集团' }).returning();
    const [c] = await t.db
      .insert(clients)
      .values({ orgId: org!.id, name: '别家公司', taxCode: '91110000MA00000000' })
      .returning();
    const [s] = await t.db
      .insert(clientStores)
      .values({ clientId: c!.id, name: '别家门店', code: 'X1' })
      .returning();
    foreignStore = s!.id;
  });

  const get = (path: string, token = f.admin) => call(t.app, 'GET', path, { token });
  // rows written by hand below announce themselves, as any writer outside the app must (lib/read-cache.ts)
  const forget = () => t.app.invalidate({ clients: [ids.software] });
  const names = (list: Array<{ name: string }>) => list.map((d) => d.name);

  it('GET /v3/client-store/get-tax-equipment lists the store’s devices with limits, quota and stock', async () => {
    const res = await get(
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`,
    );
    expect(res.json.code).toBe(0);
    expect(names(res.json.data)).toEqual([
      '数电账户（电子发票服务平台）',
      '税务UKey（总部）',
      '金税盘（主盘）',
    ]);
    const [digital, ukey, golden] = res.json.data;
    expect(digital).toMatchObject({
      device_id: ids.digital,
      kind: 'digital',
      kind_name: '数电账户',
      channel: 'GP900000',
      is_main: true,
      online: true,
      locked: false,
      invoice_types: [
        { code: '81', name: INVOICE_TYPES['81'] },
        { code: '82', name: INVOICE_TYPES['82'] },
      ],
      per_invoice_limit: '1000000.00',
      monthly_quota: '10000000.00',
      quota_used: '0.00',
      stock: {},
    });
    expect(ukey).toMatchObject({
      kind_name: '税务UKey',
      per_invoice_limit: '99999.99',
      monthly_quota: null,
      stock: { '026': 1000, '004': 250, '007': 500, '028': 1000 },
    });
    expect(ukey.invoice_types.map((x: { code: string }) => x.code)).toEqual(['004', '007', '026', '028']);
    expect(golden).toMatchObject({ kind: 'golden_disc', is_main: true, extension_no: 0 });
  });

  it('carries the store’s default invoice kinds that each device issues', async () => {
    await t.db.execute(sql`
      insert into store_settings (store_id, client_id, default_invoice_types)
      values (${ids.hq}, ${ids.software}, '{81,026}')
      on conflict (store_id, client_id) do update set default_invoice_types = excluded.default_invoice_types`);
    await forget();
    try {
      const res = await get(
        `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`,
      );
      const [digital, ukey, golden] = res.json.data;
      expect(digital.default_invoice_types).toEqual(['81']);
      expect(ukey.default_invoice_types).toEqual(['026']);
      expect(golden.default_invoice_types).toEqual([]);
      const all = await get(`/v3/client-store/get-tax-equipment?${f.scope(ids.software, -1)}`);
      expect(all.json.data[0].default_invoice_types).toEqual([]);
    } finally {
      await t.db.execute(
        sql`update store_settings set default_invoice_types = '{82,81}' where store_id = ${ids.hq}`,
      );
      await forget();
    }
  });

  it('uses the current store when store_id is missing; the branch disc shows at 滨江', async () => {
    const res = await get(`/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.bj)}`);
    expect(names(res.json.data)).toEqual(['数电账户（电子发票服务平台）', '金税盘（分盘1）']);
    expect(res.json.data[1]).toMatchObject({ is_main: false, extension_no: 1 });
    const sh = await get(`/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.sh)}`);
    expect(names(sh.json.data)).toEqual(['数电账户（电子发票服务平台）']);
    // all stores: every device once
    const all = await get(`/v3/client-store/get-tax-equipment?${f.scope(ids.software, -1)}`);
    expect(all.json.data).toHaveLength(4);
  });

  it('filters by invoice_style (1 electronic, 2 paper) and invoice_mode (1 数电, 2 税控)', async () => {
    const base = `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`;
    const paper = await get(`${base}&invoice_style=2`);
    expect(names(paper.json.data)).toEqual(['税务UKey（总部）', '金税盘（主盘）']);
    expect(paper.json.data[0].invoice_types.map((x: { code: string }) => x.code)).toEqual(['004', '007']);
    const electronic = await get(`${base}&invoice_style=1&invoice_mode=2`);
    expect(names(electronic.json.data)).toEqual(['税务UKey（总部）']);
    expect(electronic.json.data[0].invoice_types.map((x: { code: string }) => x.code)).toEqual([
      '026',
      '028',
    ]);
    const digital = await get(`${base}&invoice_mode=1&invoice_style=`);
    expect(names(digital.json.data)).toEqual(['数电账户（电子发票服务平台）']);
  });

  it('shows quota used this month after an issue', async () => {
    const res = await f.issue(payload(ids.digital));
    expect(res.json.code).toBe(0);
    const list = await get(
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&invoice_mode=1`,
    );
    expect(list.json.data[0].quota_used).toBe('1000.00');
  });

  it('refuses another tenant’s store and a store the clerk may not use', async () => {
    const foreign = await get(
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${foreignStore}`,
    );
    expect(foreign.json.code).toBe(INVOICE_CODE.STORE_NOT_FOUND);
    expect(foreign.json.data).toBeNull();
    const clerk = await get(
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.bj}`,
      f.clerk,
    );
    expect(clerk.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    const types = await get(
      `/v3/equipment/client-invoice-type?${f.scope(ids.software, ids.hq)}&store_id=${foreignStore}`,
    );
    expect(types.json.code).toBe(INVOICE_CODE.STORE_NOT_FOUND);
  });

  it('GET /v3/equipment/client-invoice-type gives the kinds the business can issue', async () => {
    const soft = await get(`/v3/equipment/client-invoice-type?${f.scope(ids.software, -1)}`);
    expect(soft.json.data.map((x: { code: string }) => x.code)).toEqual([
      '81',
      '82',
      '004',
      '007',
      '025',
      '026',
      '028',
    ]);
    const hotel = await get(`/v3/equipment/client-invoice-type?${f.scope(ids.hotel, -1)}`);
    expect(hotel.json.data).toEqual([
      { code: '81', name: INVOICE_TYPES['81'] },
      { code: '82', name: INVOICE_TYPES['82'] },
      { code: '026', name: INVOICE_TYPES['026'] },
    ]);
    const sh = await get(`/v3/equipment/client-invoice-type?${f.scope(ids.software, -1)}&store_id=${ids.sh}`);
    expect(sh.json.data.map((x: { code: string }) => x.code)).toEqual(['81', '82']);
  });

  it('GET /v3/invoice-detail/get-invoice-type lists every kind', async () => {
    const res = await get(`/v3/invoice-detail/get-invoice-type?${f.scope(ids.software, -1)}`);
    expect(res.json.data).toEqual(Object.entries(INVOICE_TYPES).map(([code, name]) => ({ code, name })));
  });

  it('GET /v3/invoice-record/specific-business lists 03 04 06 09 with their fields', async () => {
    const res = await get(`/v3/invoice-record/specific-business?${f.scope(ids.software, ids.hq)}`);
    expect(res.json.data.map((d: { code: string }) => d.code)).toEqual(['03', '04', '06', '09']);
    const rent = res.json.data.find((d: { code: string }) => d.code === '06');
    expect(rent).toMatchObject({
      block: 'real_static_rent',
      repeat: 'per_line',
      tax_class_prefixes: ['3040502'],
    });
    expect(
      rent.fields
        .find((x: { key: string }) => x.key === 'area_unit')
        .options.map((o: { value: string }) => o.value),
    ).toContain('平方米');
    const building = res.json.data.find((d: { code: string }) => d.code === '03');
    expect(building).toMatchObject({
      single_line: true,
      hidden_line_columns: ['spec', 'unit', 'quantity', 'price'],
    });
  });

  it('needs a session and a business', async () => {
    expect((await call(t.app, 'GET', '/v3/invoice-detail/get-invoice-type')).json.code).toBe(401);
    const noClient = await get('/v3/invoice-detail/get-invoice-type');
    expect(noClient.json.code).toBe(CODE.SWITCH_STORE);
    const foreign = await get(
      `/v3/equipment/client-invoice-type?client_id=${(await t.db.select().from(clients).where(eq(clients.name, '别家公司')))[0]!.id}`,
    );
    expect(foreign.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
  });

  it('the all-stores view of a clerk lists the devices bound to her stores only, however many she has', async () => {
    const allStores = async (app = t.app, token = f.clerk) =>
      names(
        (
          await call(app, 'GET', `/v3/client-store/get-tax-equipment?${f.scope(ids.software, -1)}`, {
            token,
          })
        ).json.data,
      );
    // she works at 总部 only: not the branch disc, which is bound to 滨江 alone
    expect(await allStores()).toEqual(['数电账户（电子发票服务平台）', '税务UKey（总部）', '金税盘（主盘）']);
    // given 滨江 as well (another process: a fresh access cache), both stores' devices
    const scope = sql`
      from employee_scopes s join employees e on e.id = s.employee_id join users u on u.id = e.user_id
      where u.account = ${DEMO.clerk.account} and s.client_id = ${ids.software}`;
    await t.db.execute(
      sql`insert into employee_scopes (employee_id, client_id, store_id) select s.employee_id, s.client_id, ${ids.bj} ${scope} and s.store_id = ${ids.hq}`,
    );
    try {
      const other = await buildTestApp({ reuse: t });
      expect(await allStores(other.app, await login(other.app, DEMO.clerk.account))).toEqual([
        '数电账户（电子发票服务平台）',
        '税务UKey（总部）',
        '金税盘（主盘）',
        '金税盘（分盘1）',
      ]);
    } finally {
      await t.db.execute(
        sql`delete from employee_scopes where (employee_id, client_id, store_id) in (select s.employee_id, s.client_id, s.store_id ${scope} and s.store_id = ${ids.bj})`,
      );
    }
  });

  it('lists each kind once in the form’s order, without kinds the app does not know', async () => {
    await t.db.execute(
      sql`update tax_devices set invoice_types = '{028,026,999,004,026,007}' where id = ${ids.ukey}`,
    );
    await forget();
    try {
      const res = await get(
        `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`,
      );
      const ukey = res.json.data.find((d: { device_id: number }) => d.device_id === ids.ukey);
      expect(ukey.invoice_types.map((x: { code: string }) => x.code)).toEqual(['004', '007', '026', '028']);
    } finally {
      await t.db.execute(
        sql`update tax_devices set invoice_types = '{004,007,026,028}' where id = ${ids.ukey}`,
      );
      await forget();
    }
  });

  it('a store with no settings yet offers no default kinds', async () => {
    const [store] = await t.db
      .insert(clientStores)
      .values({ clientId: ids.software, name: '新开门店', code: 'NEW1' })
      .returning();
    await t.db.execute(
      sql`insert into device_stores (device_id, store_id, client_id)
        select id, ${store!.id}, client_id from tax_devices where id = ${ids.digital}`,
    );
    const res = await get(
      `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${store!.id}`,
    );
    try {
      expect(res.json.code, res.json.message).toBe(0);
      expect(res.json.data).toHaveLength(1);
      expect(res.json.data[0]).toMatchObject({ device_id: ids.digital, default_invoice_types: [] });
    } finally {
      await t.db.execute(sql`delete from device_stores where store_id = ${store!.id}`);
      await t.db.delete(clientStores).where(eq(clientStores.id, store!.id));
    }
  });

  it('a device is the main one only with no parent and extension 0', async () => {
    const hq = `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&store_id=${ids.hq}`;
    const bj = `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.bj)}&store_id=${ids.bj}`;
    const isMain = async (url: string, id: number) =>
      (await get(url)).json.data.find((d: { device_id: number }) => d.device_id === id).is_main;
    const [branch] = await t.db
      .execute<{ parent_id: number }>(sql`select parent_id from tax_devices where id = ${ids.goldenBranch}`)
      .then((r) => r.rows);
    // extension 1 without a parent; extension 0 under a parent
    await t.db.execute(sql`update tax_devices set parent_id = null where id = ${ids.goldenBranch}`);
    await t.db.execute(
      sql`update tax_devices set parent_id = ${ids.goldenBranch} where id = ${ids.goldenMain}`,
    );
    await forget();
    try {
      expect(await isMain(bj, ids.goldenBranch)).toBe(false);
      expect(await isMain(hq, ids.goldenMain)).toBe(false);
    } finally {
      await t.db.execute(sql`update tax_devices set parent_id = null where id = ${ids.goldenMain}`);
      await t.db.execute(
        sql`update tax_devices set parent_id = ${branch!.parent_id} where id = ${ids.goldenBranch}`,
      );
      await forget();
    }
    expect(await isMain(hq, ids.goldenMain)).toBe(true);
  });

  it('quota used in an earlier month shows as none used this month', async () => {
    const [before] = (
      await t.db.execute<{ quota_used: string; quota_month: string }>(
        sql`select quota_used, quota_month from tax_devices where id = ${ids.digital}`,
      )
    ).rows;
    await t.db.execute(
      sql`update tax_devices set quota_used = 500, quota_month = '2000-01' where id = ${ids.digital}`,
    );
    await forget();
    try {
      const res = await get(
        `/v3/client-store/get-tax-equipment?${f.scope(ids.software, ids.hq)}&invoice_mode=1`,
      );
      expect(res.json.data[0]).toMatchObject({ device_id: ids.digital, quota_used: '0.00' });
    } finally {
      await t.db.execute(
        sql`update tax_devices set quota_used = ${before!.quota_used}, quota_month = ${before!.quota_month} where id = ${ids.digital}`,
      );
      await forget();
    }
  });

  it('refuses a clerk whose role lacks the invoicing urls', async () => {
    // another process (fresh access cache) after the clerk's role lost the single-invoice page
    const [rule] = await t.db.select().from(authorityRules);
    await t.db
      .update(authorityRules)
      .set({ urls: rule!.urls.filter((u) => u !== '/invoice/online') })
      .where(eq(authorityRules.id, rule!.id));
    const other = await buildTestApp({ reuse: t });
    const clerk = await login(other.app, DEMO.clerk.account);
    const scope = f.scope(ids.software, ids.hq);
    const issue = await call(other.app, 'POST', `/v3/online-invoicing/blue?${scope}`, {
      token: clerk,
      body: payload(ids.digital),
    });
    expect(issue.json.code).toBe(CODE.FORBIDDEN);
    for (const url of [
      `/v3/online-invoicing/result?${scope}&serial_no=T0000000000`,
      `/v3/invoice-record/specific-business?${scope}`,
    ]) {
      expect((await call(other.app, 'GET', url, { token: clerk })).json.code).toBe(CODE.FORBIDDEN);
    }
    // pages other than the form still read the kinds (the library filters by kind)
    expect(
      (await call(other.app, 'GET', `/v3/invoice-detail/get-invoice-type?${scope}`, { token: clerk })).json
        .code,
    ).toBe(0);
    await t.db.update(authorityRules).set({ urls: rule!.urls }).where(eq(authorityRules.id, rule!.id));
  });
});
