import { CODE, SESSION_CODE } from '@kaipiao/shared';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { invoiceFiles } from '../../db/schema/index.ts';
import { INVALIDATE_CHANNEL } from '../../plugins/invalidation.ts';

describe('invoice library', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let clerk: string;
  let f: Fixture;

  const list = async (token: string, clientId: number, sid: number, body: Record<string, unknown> = {}) =>
    call(t.app, 'POST', `/v3/invoice-record/list?client_id=${clientId}&sid=${sid}`, { token, body });
  const keys = (res: { json: { data: { list: { invoice_id: number }[] } } }) => {
    const byId = new Map(Object.entries(f.ids).map(([k, v]) => [v, k]));
    return res.json.data.list.map((r) => byId.get(r.invoice_id));
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    clerk = await login(t.app, DEMO.clerk.account);
    f = await insertFixtures(t.db);
  });

  it('lists every invoice of the business in the all-stores view, newest first (issue or submit time)', async () => {
    const res = await list(admin, f.software, -1);
    expect(res.json.code).toBe(0);
    expect(keys(res)).toEqual(['E', 'C', 'B', 'A', 'G', 'F', 'D']);
    expect(res.json.data).toMatchObject({ total: 7, total_capped: false, page: 1, page_size: 10 });
    const b = res.json.data.list.find((r: { invoice_id: number }) => r.invoice_id === f.ids.B);
    expect(b).toMatchObject({
      invoice_type: '81',
      invoice_type_name: '电子发票（增值税专用发票）',
      status_key: 'full_red',
      status_name: '全额红冲',
      buyer_name: '上海云帆信息技术有限公司',
      total_amount: '2000.00',
      total_tax: '120.00',
      total_with_tax: '2120.00',
      store_name: '滨江研发中心',
      direction: 'blue',
    });
    const e = res.json.data.list.find((r: { invoice_id: number }) => r.invoice_id === f.ids.E);
    expect(e).toMatchObject({
      status_key: 'failed',
      status_name: '开具失败',
      invoice_no: null,
      issued_at: null,
    });
  });

  it('the list and the detail are POSTs that only read: they forget no read cache (no NOTIFY); a write does', async () => {
    const listener = new pg.Client(t.url);
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`listen ${INVALIDATE_CHANNEL}`);
    try {
      expect((await list(clerk, f.software, f.stores.HQ, { buyer_name: '有限' })).json.code).toBe(0);
      const detail = await call(
        t.app,
        'POST',
        `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
        {
          token: admin,
          body: { invoice_id: f.ids.A },
        },
      );
      expect(detail.json.code).toBe(0);
      await new Promise((r) => setTimeout(r, 300));
      expect(heard).toEqual([]);
      // a POST that writes (closing the tax-rate tip) is heard by the other processes
      await call(t.app, 'POST', `/v3/system/clone-tax-rate-tips?client_id=${f.software}&sid=-1`, {
        token: admin,
        body: {},
      });
      for (let i = 0; i < 20 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      await listener.end();
    }
  });

  it('pages with 10/20/30 rows and refuses other sizes', async () => {
    const p2 = await list(admin, f.software, -1, { page: 2, page_size: 10 });
    expect(p2.json.data.list).toEqual([]);
    expect(p2.json.data.total).toBe(7);
    // page 2 of 3 per page is not allowed; compare two pages of the allowed minimum instead
    const bad = await list(admin, f.software, -1, { page_size: 3 });
    expect(bad.json.code).toBe(CODE.VALIDATION);
    expect(bad.json.data.errors[0]).toMatchObject({
      field: 'page_size',
      message: '每页条数只能是10、20或30',
    });
    const all = await list(admin, f.software, -1, { page_size: 30 });
    expect(all.json.data.list).toHaveLength(7);
  });

  it('finds buyers by a name fragment (bigram index and one-character fallback) and by tax code', async () => {
    expect(keys(await list(admin, f.software, -1, { buyer_name: '星河' }))).toEqual(['A', 'D']);
    expect(keys(await list(admin, f.software, -1, { buyer_name: '河' }))).toEqual(['A', 'D']);
    expect(keys(await list(admin, f.software, -1, { buyer_name: '星河网络科技' }))).toEqual(['A']);
    expect(keys(await list(admin, f.software, -1, { buyer_name: '河星' }))).toEqual([]);
    expect(keys(await list(admin, f.software, -1, { buyer_name: '100%_' }))).toEqual([]);
    expect(keys(await list(admin, f.software, -1, { buyer_tax_code: '91310115ma1yunfan2' }))).toEqual([
      'C',
      'B',
    ]);
  });

  it('filters by number suffix, kind, status, direction, amount range and date range', async () => {
    const a = f.numbers.A!;
    expect(keys(await list(admin, f.software, -1, { invoice_no: a.slice(-6) }))).toEqual(['A']);
    expect(keys(await list(admin, f.software, -1, { invoice_no: a }))).toEqual(['A']);
    expect(keys(await list(admin, f.software, -1, { invoice_types: ['81'] }))).toEqual(['C', 'B']);
    expect(keys(await list(admin, f.software, -1, { invoice_types: ['81', '026'] }))).toEqual([
      'C',
      'B',
      'G',
      'F',
    ]);
    expect(keys(await list(admin, f.software, -1, { statuses: ['failed'] }))).toEqual(['E']);
    expect(keys(await list(admin, f.software, -1, { statuses: ['full_red'] }))).toEqual(['B']);
    expect(keys(await list(admin, f.software, -1, { statuses: ['partial_red', 'full_red'] }))).toEqual([
      'B',
      'F',
    ]);
    expect(keys(await list(admin, f.software, -1, { statuses: ['normal'] }))).toEqual(['C', 'A', 'G', 'D']);
    expect(keys(await list(admin, f.software, -1, { direction: 'red' }))).toEqual(['C', 'G']);
    expect(keys(await list(admin, f.software, -1, { amount_min: '1000' }))).toEqual(['B', 'A']);
    expect(keys(await list(admin, f.software, -1, { amount_max: '0' }))).toEqual(['C', 'G']);
    expect(
      keys(await list(admin, f.software, -1, { date_from: '2026-11-10', date_to: '2026-11-11' })),
    ).toEqual(['B', 'A']);
    // a range of one day (from = to) is not reversed: that day's invoices
    expect(
      keys(await list(admin, f.software, -1, { date_from: '2026-11-11', date_to: '2026-11-11' })),
    ).toEqual(['B']);
    const bad = await list(admin, f.software, -1, { date_from: '2026-11-11', date_to: '2026-11-10' });
    expect(bad.json.code).toBe(16002);
    const badNo = await list(admin, f.software, -1, { invoice_no: '12ab' });
    expect(badNo.json.code).toBe(CODE.VALIDATION);
  });

  it('keeps to the selected store, and to the permitted stores in the summary view', async () => {
    expect(keys(await list(admin, f.software, f.stores.BJ))).toEqual(['C', 'B']);
    expect(keys(await list(admin, f.software, -1, { store_ids: [f.stores.SH, f.stores.BJ] }))).toEqual([
      'C',
      'B',
      'D',
    ]);
    // the clerk may see only 文三路总部
    const mine = await list(clerk, f.software, -1);
    expect(keys(mine)).toEqual(['E', 'A', 'G', 'F']);
    expect(mine.json.data.total).toBe(4);
    expect(keys(await list(clerk, f.software, -1, { store_ids: [f.stores.BJ] }))).toEqual([]);
    expect((await list(clerk, f.software, f.stores.BJ)).json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
  });

  it('shows a business only its own invoices and refuses a business the user does not belong to', async () => {
    expect(keys(await list(admin, f.hotel, -1))).toEqual(['H']);
    expect(keys(await list(admin, f.hotel, -1, { buyer_name: '星河' }))).toEqual(['H']);
    const other = await list(clerk, f.hotel, -1);
    expect(other.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    expect(other.json.data).toBeNull();
  });

  it('opens the detail with lines, events with who, files and the red remainder', async () => {
    await t.db.insert(invoiceFiles).values({
      invoiceId: f.ids.B!,
      clientId: f.software,
      kind: 'pdf',
      fileName: 'b.pdf',
      content: Buffer.from('%PDF-1.7'),
      size: 8,
    });
    const res = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      {
        token: admin,
        body: { invoice_id: f.ids.B },
      },
    );
    expect(res.json.code).toBe(0);
    const d = res.json.data;
    expect(d.invoice).toMatchObject({
      invoice_id: f.ids.B,
      seller_name: DEMO.software.name,
      buyer_tax_code: '91310115MA1YUNFAN2',
      created_by_name: DEMO.admin.nickname,
      status_key: 'full_red',
    });
    expect(d.lines).toEqual([
      expect.objectContaining({
        line_no: 1,
        full_name: '*信息技术服务*软件开发服务',
        amount: '2000.00',
        tax_rate_label: '6%',
        tax_amount: '120.00',
        amount_with_tax: '2120.00',
      }),
    ]);
    expect(
      d.events.map((e: { kind: string; kind_name: string; user_name: string }) => [e.kind_name, e.user_name]),
    ).toEqual([
      ['提交开票', DEMO.admin.nickname],
      ['开具成功', '系统'],
    ]);
    expect(d.files).toEqual([
      expect.objectContaining({ kind: 'pdf', ready: true, file_name: 'b.pdf', size: 8 }),
      expect.objectContaining({ kind: 'xml', ready: false, size: null }),
    ]);
    expect(d.red).toMatchObject({
      red_invoices: [expect.objectContaining({ invoice_id: f.ids.C, total_with_tax: '-2120.00' })],
      reddened_with_tax: '-2120.00',
      remaining_amount: '0.00',
      remaining_tax: '0.00',
      remaining_with_tax: '0.00',
    });
    expect(d.original).toBeNull();

    const partial = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      {
        token: admin,
        body: { invoice_id: f.ids.F },
      },
    );
    expect(partial.json.data.red).toMatchObject({ remaining_amount: '50.00', remaining_with_tax: '53.00' });

    const red = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      {
        token: admin,
        body: { invoice_id: f.ids.C },
      },
    );
    expect(red.json.data.original).toMatchObject({ invoice_id: f.ids.B, total_with_tax: '2120.00' });
    expect(red.json.data.red).toBeNull();

    const failed = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      {
        token: admin,
        body: { invoice_id: f.ids.E },
      },
    );
    expect(failed.json.data.files).toEqual([]);
    expect(failed.json.data.invoice).toMatchObject({ error_code: '13110', status_name: '开具失败' });
  });

  it("answers 10004 with no data for another tenant's invoice and for a store outside the clerk's scope", async () => {
    const foreign = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      { token: admin, body: { invoice_id: f.ids.H } },
    );
    expect(foreign.json).toMatchObject({ code: CODE.NOT_FOUND, data: null });
    const outside = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      { token: clerk, body: { invoice_id: f.ids.B } },
    );
    expect(outside.json).toMatchObject({ code: SESSION_CODE.STORE_NOT_PERMITTED, data: null });
    const own = await call(
      t.app,
      'POST',
      `/v3/invoice-detail/get-invoice-detail?client_id=${f.software}&sid=-1`,
      {
        token: clerk,
        body: { invoice_id: f.ids.A },
      },
    );
    expect(own.json.code).toBe(0);
  });

  it('as registered: the list and the detail check their input (10001 naming the field)', async () => {
    // an app of its own, built in the test: route options are read while the app is built
    const own = await buildTestApp({ reuse: t });
    const post = (route: string, body: unknown) =>
      call(own.app, 'POST', `/v3/${route}?client_id=${f.software}&sid=-1`, { token: admin, body });
    const bad = await post('invoice-record/list', { page_size: 3 });
    expect(bad.json.code).toBe(CODE.VALIDATION);
    expect(bad.json.data.errors[0]).toMatchObject({
      field: 'page_size',
      message: '每页条数只能是10、20或30',
    });
    const detail = await post('invoice-detail/get-invoice-detail', { invoice_id: 'abc' });
    expect(detail.json.code).toBe(CODE.VALIDATION);
    expect(detail.json.data.errors.map((e: { field: string }) => e.field)).toEqual(['invoice_id']);
    expect((await post('invoice-record/list', { page_size: 10 })).json.data.total).toBe(7);
  });

  it('requires a session and the library menu', async () => {
    const anon = await call(t.app, 'POST', `/v3/invoice-record/list?client_id=${f.software}&sid=-1`, {
      body: {},
    });
    expect(anon.json.code).toBe(CODE.UNAUTHORIZED);
    const noClient = await call(t.app, 'POST', '/v3/invoice-record/list', { token: admin, body: {} });
    expect(noClient.json.code).toBe(CODE.SWITCH_STORE);
  });
});
