import { DEVICE_CODE, SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { filingClock } from './filing.ts';

describe('devices, tax accounts, stock and filing', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const q = (clientId = f.ids.software, sid = -1) => `client_id=${clientId}&sid=${sid}`;
  const get = (path: string, opts: { clientId?: number; token?: string; query?: string } = {}) =>
    call(t.app, 'GET', `${path}?${q(opts.clientId)}${opts.query ? `&${opts.query}` : ''}`, {
      token: opts.token ?? f.admin,
    });
  const post = (path: string, body: unknown, opts: { clientId?: number; token?: string } = {}) =>
    call(t.app, 'POST', `${path}?${q(opts.clientId)}`, { token: opts.token ?? f.admin, body });
  const stockOf = async (deviceId: number, type: string) =>
    (await get('/v3/equipment/detail', { query: `id=${deviceId}` })).json.data.stock[type] ?? 0;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });

  it('lists every device with kind, main/branch, state, limit, stock and quota', async () => {
    const res = await get('/v3/client/client-equ-list');
    expect(res.json.code).toBe(0);
    const byId = new Map(res.json.data.map((d: { device_id: number }) => [d.device_id, d]));
    expect(byId.get(f.ids.goldenMain)).toMatchObject({
      is_main: true,
      kind_name: '金税盘', // 托管 only once handed over (trusteeship module)
      stock: { '007': 500 },
    });
    expect(byId.get(f.ids.goldenBranch)).toMatchObject({ is_main: false, parent_id: f.ids.goldenMain });
    expect(byId.get(f.ids.digital)).toMatchObject({ kind: 'digital', monthly_quota: '10000000.00' });
    const groups = (await get('/v3/equipment/group-by-channel')).json.data;
    expect(groups.map((g: { channel: string }) => g.channel)).toContain('AISINO');
    // fresh fixture: discs created this month have no filing due, so nothing is locked
    const check = (await get('/v3/equipment/check-tax')).json.data;
    const golden = check.devices.find((c: { device_id: number }) => c.device_id === f.ids.goldenMain);
    expect(golden).toMatchObject({ locked: false, need_auth: false, message: '正常' });
    // the 数电 account's bureau session is down in the real-name module: authorisation needed
    expect(check.devices.find((c: { device_id: number }) => c.device_id === f.ids.digital)).toMatchObject({
      need_auth: true,
      message: '税局登录已失效，请重新登录并实名认证',
    });
    expect(check.check_auth).toBe(1);
  });

  it('refuses another business’s device, store and account ids', async () => {
    expect((await get('/v3/equipment/detail', { query: `id=${f.ids.hotelDisc}` })).json.code).toBe(
      DEVICE_CODE.DEVICE_NOT_FOUND,
    );
    const move = await post('/v3/invoice-manage/distribute', {
      device_id: f.ids.goldenMain,
      target_device_id: f.ids.hotelDisc,
      invoice_type: '007',
      count: 1,
    });
    expect(move.json.code).toBe(DEVICE_CODE.DEVICE_NOT_FOUND);
    const apply = await post('/v3/invoice-manage/apply', {
      device_id: f.ids.hotelDisc,
      invoice_type: '026',
      count: 5,
    });
    expect(apply.json.code).toBe(DEVICE_CODE.DEVICE_NOT_FOUND);
    expect((await post('/v3/client-store/tax-equipment-list', { store_id: f.ids.bs })).json.code).toBe(
      DEVICE_CODE.STORE_NOT_FOUND,
    );
    const hotelAcct = await t.db.execute<{ id: number }>(
      sql`select id from tax_accounts where client_id = ${f.ids.hotel} limit 1`,
    );
    const edit = await post('/v3/tax-account/save', {
      id: hotelAcct.rows[0]!.id,
      account: 'x',
      phone: '13800000000',
      identity: '03',
      person_name: '某某',
      channel: 'GP900000',
    });
    expect(edit.json.code).toBe(DEVICE_CODE.ACCOUNT_NOT_FOUND);
    // a clerk scoped to HQ does not see the branch disc bound to 滨江
    const clerkView = await get('/v3/equipment/detail', {
      token: f.clerk,
      query: `id=${f.ids.goldenBranch}`,
    });
    expect(clerkView.json).toMatchObject({ code: SESSION_CODE.STORE_NOT_PERMITTED, data: null });
  });

  it('white list: the account page and its calls only for a business with a white-listed account', async () => {
    const soft = await get('/v3/tax-account/white-list-tax-account');
    expect(soft.json.data.white_listed).toBe(true);
    expect((await get('/v3/tax-account/list')).json.code).toBe(0);
    const hotel = await get('/v3/tax-account/white-list-tax-account', { clientId: f.ids.hotel });
    expect(hotel.json.data).toEqual({ white_listed: false, accounts: [] });
    expect((await get('/v3/tax-account/list', { clientId: f.ids.hotel })).json.code).toBe(403);
    const add = await post(
      '/v3/tax-account/save',
      {
        account: 'h1',
        password: 'p',
        phone: '13800000000',
        identity: '03',
        person_name: '某某',
        channel: 'GP900000',
      },
      { clientId: f.ids.hotel },
    );
    expect(add.json.code).toBe(403);
    const menu = (await get('/v3/authority/menu-list', { clientId: f.ids.hotel })).json.data;
    const entry = (Array.isArray(menu) ? menu : (menu.list ?? [])).find(
      (m: { url: string }) => m.url === '/device-project/account',
    );
    if (entry) expect(entry.is_auth).toBe(0);
  });

  it('stores the password encrypted and never returns it from any account endpoint', async () => {
    const secret = 'Sup3r$ecret-税局';
    const add = await post('/v3/tax-account/save', {
      account: '91330106MA2KC7LM1A-test',
      password: secret,
      phone: '17612342696',
      identity: '09',
      person_name: '测试',
      channel: 'GP900003',
      device_id: f.ids.digital,
    });
    expect(add.json.code).toBe(0);
    const id = add.json.data.id;
    const row = await t.db.execute<{ password_enc: string }>(
      sql`select password_enc from tax_accounts where id = ${id}`,
    );
    const enc = row.rows[0]!.password_enc;
    expect(enc.startsWith('v1.')).toBe(true);
    expect(enc).not.toContain(secret);
    const edit = await post('/v3/tax-account/save', {
      id,
      account: '91330106MA2KC7LM1A-test',
      password: '',
      phone: '',
      identity: '09',
      person_name: '测试二',
      channel: 'GP900003',
      device_id: f.ids.digital,
    });
    expect(edit.json.code).toBe(0);
    // the empty password on edit kept the stored one
    const again = await t.db.execute<{ password_enc: string }>(
      sql`select password_enc from tax_accounts where id = ${id}`,
    );
    expect(again.rows[0]!.password_enc).toBe(enc);
    const responses = [
      add,
      edit,
      await get('/v3/tax-account/list'),
      await get('/v3/tax-account/white-list-tax-account'),
      await get('/v3/equipment/session-health'),
      await get('/v3/equipment/check-tax'),
      await post('/v3/tax-account/disable', { id }),
    ];
    for (const r of responses) {
      const raw = JSON.stringify(r.json);
      expect(raw).not.toContain(secret);
      expect(raw).not.toContain(enc);
      expect(raw).not.toContain(enc.split('.')[3]!);
      expect(raw).not.toMatch(/password_enc|passwordEnc/);
    }
    const list = (await get('/v3/tax-account/list')).json.data;
    expect(list.find((a: { id: number }) => a.id === id)).toMatchObject({
      phone: '176****2696',
      has_password: true,
    });
  });

  it('health board: every active account × clerk with state and time left', async () => {
    const rows = (await get('/v3/equipment/session-health')).json.data;
    const zhang = rows.filter((r: { person_name: string }) => r.person_name === '张丽');
    expect(zhang.length).toBeGreaterThanOrEqual(2);
    expect(zhang[0]).toMatchObject({ login_state: 'online', real_name_state: 'verified' });
    expect(zhang[0].seconds_left).toBeGreaterThan(3600);
    const li = rows.find((r: { person_name: string }) => r.person_name === '李强');
    expect(li).toMatchObject({ login_state: 'offline', seconds_left: 0 });
  });

  it('applies for stock on a main disc only', async () => {
    const before = await stockOf(f.ids.goldenMain, '007');
    const res = await post('/v3/invoice-manage/apply', {
      device_id: f.ids.goldenMain,
      invoice_type: '007',
      count: 50,
    });
    expect(res.json.code).toBe(0);
    expect(await stockOf(f.ids.goldenMain, '007')).toBe(before + 50);
    const branch = await post('/v3/invoice-manage/apply', {
      device_id: f.ids.goldenBranch,
      invoice_type: '007',
      count: 5,
    });
    expect(branch.json.code).toBe(DEVICE_CODE.NOT_MAIN_DISC);
    const digital = await post('/v3/invoice-manage/apply', {
      device_id: f.ids.digital,
      invoice_type: '82',
      count: 5,
    });
    expect(digital.json.code).toBe(DEVICE_CODE.NOT_STOCK_DEVICE);
    const many = await post('/v3/invoice-manage/apply', {
      device_id: f.ids.goldenMain,
      invoice_type: '007',
      count: 5000,
    });
    expect(many.json.code).toBe(DEVICE_CODE.APPLY_LIMIT);
  });

  it('20 concurrent distributions never make stock negative; return brings it back', async () => {
    const mainBefore = await stockOf(f.ids.goldenMain, '025');
    const branchBefore = await stockOf(f.ids.goldenBranch, '025');
    const each = Math.floor(mainBefore / 15); // 20 × each > stock: some must be refused
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/v3/invoice-manage/distribute', {
          device_id: f.ids.goldenMain,
          target_device_id: f.ids.goldenBranch,
          invoice_type: '025',
          count: each,
        }),
      ),
    );
    const okCount = results.filter((r) => r.json.code === 0).length;
    const refused = results.filter((r) => r.json.code === DEVICE_CODE.STOCK_NOT_ENOUGH).length;
    expect(okCount + refused).toBe(20);
    expect(okCount).toBe(Math.floor(mainBefore / each));
    const mainAfter = await stockOf(f.ids.goldenMain, '025');
    const branchAfter = await stockOf(f.ids.goldenBranch, '025');
    expect(mainAfter).toBe(mainBefore - okCount * each);
    expect(mainAfter).toBeGreaterThanOrEqual(0);
    expect(branchAfter).toBe(branchBefore + okCount * each);
    // no range anywhere has a negative remainder, and no number is held twice
    const bad = await t.db.execute(sql`select 1 from channel_number_ranges where end_no < next_no - 1`);
    expect(bad.rows).toHaveLength(0);
    const overlap = await t.db.execute(sql`select 1 from channel_number_ranges a join channel_number_ranges b
      on a.invoice_code = b.invoice_code and a.id < b.id and a.next_no <= a.end_no and b.next_no <= b.end_no
      and a.next_no <= b.end_no and b.next_no <= a.end_no`);
    expect(overlap.rows).toHaveLength(0);
    const back = await post('/v3/invoice-manage/return', {
      device_id: f.ids.goldenBranch,
      target_device_id: f.ids.goldenMain,
      invoice_type: '025',
      count: each,
    });
    expect(back.json.code).toBe(0);
    expect(await stockOf(f.ids.goldenMain, '025')).toBe(mainAfter + each);
    const tooMuch = await post('/v3/invoice-manage/return', {
      device_id: f.ids.goldenBranch,
      target_device_id: f.ids.goldenMain,
      invoice_type: '025',
      count: 99_999,
    });
    expect(tooMuch.json.code).toBe(DEVICE_CODE.STOCK_NOT_ENOUGH);
    const wrongWay = await post('/v3/invoice-manage/distribute', {
      device_id: f.ids.goldenBranch,
      target_device_id: f.ids.goldenMain,
      invoice_type: '025',
      count: 1,
    });
    expect(wrongWay.json.code).toBe(DEVICE_CODE.NOT_MAIN_DISC);
    const moves = (await get('/v3/invoice-manage/movements')).json.data;
    expect(moves.some((m: { kind: string }) => m.kind === 'return')).toBe(true);
  });

  it('filing: 抄税/清卡 only in the 1st–15th window, copy before clear, digital accounts excluded', async () => {
    const clock = filingClock(new Date());
    const list = (await get('/v3/report-summary/list')).json.data;
    const branch = list.find((x: { device_id: number }) => x.device_id === f.ids.goldenBranch);
    expect(branch.period).toBe(clock.period);
    expect(list.some((x: { device_id: number }) => x.device_id === f.ids.digital)).toBe(false);
    const digital = await post('/v3/report-summary/copy', { device_id: f.ids.digital });
    expect(digital.json.code).toBe(DEVICE_CODE.FILING_NOT_APPLICABLE);
    const clear = await post('/v3/report-summary/clear', { device_id: f.ids.goldenBranch });
    const copy = await post('/v3/report-summary/copy', { device_id: f.ids.goldenBranch });
    if (clock.inWindow) {
      expect(clear.json.code).toBe(DEVICE_CODE.FILING_NOT_COPIED);
      expect(copy.json.code).toBe(0);
      expect((await post('/v3/report-summary/copy', { device_id: f.ids.goldenBranch })).json.code).toBe(
        DEVICE_CODE.FILING_ALREADY_COPIED,
      );
    } else {
      // created this month: nothing to file for the previous one, so no lock and no late filing
      expect(clear.json.code).toBe(DEVICE_CODE.FILING_OUT_OF_WINDOW);
      expect(copy.json.code).toBe(DEVICE_CODE.FILING_OUT_OF_WINDOW);
      expect(branch).toMatchObject({ lock_due: false, locked: false });
    }
  });

  it('stores: create with devices and default kinds, edit, disable; duplicate code refused', async () => {
    const body = {
      name: '西溪门店',
      code: 'XX',
      default_invoice_types: ['82'],
      device_ids: [f.ids.digital],
      remark: '',
    };
    const created = await post('/v3/client-store/save', body);
    expect(created.json.code).toBe(0);
    const id = created.json.data.id;
    // the creator may act for the new store at once (cached access reloaded)
    const asStore = await call(t.app, 'GET', `/v3/client/client-equ-list?${q(f.ids.software, id)}`, {
      token: f.admin,
    });
    expect(asStore.json.code).toBe(0);
    expect((await post('/v3/client-store/save', body)).json.code).toBe(DEVICE_CODE.STORE_CODE_TAKEN);
    const edited = await post('/v3/client-store/save', {
      ...body,
      client_store_id: id,
      name: '西溪门店（改）',
    });
    expect(edited.json.code).toBe(0);
    expect(
      (await post('/v3/client-store/set-status', { client_store_id: id, status: 'disabled' })).json.code,
    ).toBe(0);
    const all = (await get('/v3/client/get-all-store-list')).json.data;
    expect(all.find((s: { client_store_id: number }) => s.client_store_id === id)).toMatchObject({
      name: '西溪门店（改）',
      status: 'disabled',
      default_invoice_types: ['82'],
      devices: [{ device_id: f.ids.digital }],
    });
    const foreign = await post('/v3/client-store/save', {
      ...body,
      code: 'YY',
      device_ids: [f.ids.hotelDisc],
    });
    expect(foreign.json.code).toBe(DEVICE_CODE.DEVICE_NOT_FOUND);
  });
});
