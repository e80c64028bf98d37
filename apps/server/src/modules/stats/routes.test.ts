import { beijingDay, CODE, invoiceQrText, SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertCopies, insertFixtures, SOFTWARE_TOTALS } from '../../../test/fixtures/query.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { BEIJING_TZ } from '../../lib/beijing-sql.ts';
import { seedDemoHistory } from '../../seed/demo-history.ts';

describe('invoice statistics', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let clerk: string;
  let f: Fixture;

  const stat = (token: string, clientId: number, sid: number, body: Record<string, unknown>) =>
    call(t.app, 'POST', `/v3/invoice-stat/summary?client_id=${clientId}&sid=${sid}`, { token, body });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    clerk = await login(t.app, DEMO.clerk.account);
    f = await insertFixtures(t.db);
  });

  it('sums issued invoices by month, kind, rate, store and direction; red invoices net out', async () => {
    const res = await stat(admin, f.software, -1, {
      date_from: '2026-10-01',
      date_to: '2026-11-30',
      granularity: 'month',
    });
    expect(res.json.code).toBe(0);
    const d = res.json.data;
    expect(d.totals).toEqual({
      count: SOFTWARE_TOTALS.count,
      total_amount: SOFTWARE_TOTALS.amount,
      total_tax: SOFTWARE_TOTALS.tax,
      total_with_tax: SOFTWARE_TOTALS.withTax,
    });
    expect(d.blue).toEqual({
      count: 4,
      total_amount: '3600.00',
      total_tax: '230.00',
      total_with_tax: '3830.00',
    });
    expect(d.red).toEqual({
      count: 2,
      total_amount: '-2050.00',
      total_tax: '-123.00',
      total_with_tax: '-2173.00',
    });
    expect(d.trend).toEqual([
      {
        period: '2026-10',
        count: 1,
        blue_count: 1,
        red_count: 0,
        total_amount: '500.00',
        total_tax: '44.00',
        total_with_tax: '544.00',
      },
      {
        period: '2026-11',
        count: 5,
        blue_count: 3,
        red_count: 2,
        total_amount: '1050.00',
        total_tax: '63.00',
        total_with_tax: '1113.00',
      },
    ]);
    expect(d.by_kind).toEqual([
      expect.objectContaining({ invoice_type: '82', count: 2, total_with_tax: '1604.00' }),
      expect.objectContaining({ invoice_type: '026', count: 2, total_with_tax: '53.00' }),
      expect.objectContaining({
        invoice_type: '81',
        name: '电子发票（增值税专用发票）',
        count: 2,
        total_with_tax: '0.00',
      }),
    ]);
    expect(d.by_rate).toEqual([
      {
        tax_rate: '0.13',
        label: '13%',
        line_count: 1,
        total_amount: '200.00',
        total_tax: '26.00',
        total_with_tax: '226.00',
      },
      {
        tax_rate: '0.06',
        label: '6%',
        line_count: 6,
        total_amount: '1350.00',
        total_tax: '81.00',
        total_with_tax: '1431.00',
      },
    ]);
    expect(d.by_store).toEqual([
      {
        store_id: f.stores.HQ,
        store_name: '文三路总部',
        count: 3,
        total_amount: '1050.00',
        total_tax: '63.00',
        total_with_tax: '1113.00',
      },
      {
        store_id: f.stores.SH,
        store_name: '上海分部',
        count: 1,
        total_amount: '500.00',
        total_tax: '44.00',
        total_with_tax: '544.00',
      },
      {
        store_id: f.stores.BJ,
        store_name: '滨江研发中心',
        count: 2,
        total_amount: '0.00',
        total_tax: '0.00',
        total_with_tax: '0.00',
      },
    ]);
  });

  it('zero-fills every day of the range', async () => {
    const res = await stat(admin, f.software, -1, { date_from: '2026-11-10', date_to: '2026-11-13' });
    expect(
      res.json.data.trend.map((p: { period: string; count: number; total_with_tax: string }) => [
        p.period,
        p.count,
        p.total_with_tax,
      ]),
    ).toEqual([
      ['2026-11-10', 1, '1060.00'],
      ['2026-11-11', 1, '2120.00'],
      ['2026-11-12', 1, '-2120.00'],
      ['2026-11-13', 0, '0.00'],
    ]);
  });

  it('sums only the permitted stores in the all-stores view for the clerk', async () => {
    const res = await stat(clerk, f.software, -1, {
      date_from: '2026-10-01',
      date_to: '2026-11-30',
      granularity: 'month',
    });
    expect(res.json.data.totals).toEqual({
      count: 3,
      total_amount: '1050.00',
      total_tax: '63.00',
      total_with_tax: '1113.00',
    });
    expect(res.json.data.by_store.map((s: { store_id: number }) => s.store_id)).toEqual([f.stores.HQ]);
    const asked = await stat(clerk, f.software, -1, {
      date_from: '2026-10-01',
      date_to: '2026-11-30',
      store_ids: [f.stores.BJ, f.stores.HQ],
    });
    expect(asked.json.data.totals.count).toBe(3);
    const one = await stat(admin, f.software, f.stores.SH, {
      date_from: '2026-10-01',
      date_to: '2026-11-30',
    });
    expect(one.json.data.totals).toMatchObject({ count: 1, total_with_tax: '544.00' });
  });

  it('checks the date range', async () => {
    const bad = await stat(admin, f.software, -1, { date_from: '2026-11-30', date_to: '2026-11-01' });
    expect(bad.json.code).toBe(16002);
    const long = await stat(admin, f.software, -1, { date_from: '2025-01-01', date_to: '2026-11-30' });
    expect(long.json.code).toBe(16003);
    const months = await stat(admin, f.software, -1, {
      date_from: '2025-01-01',
      date_to: '2026-11-30',
      granularity: 'month',
    });
    expect(months.json.data.trend).toHaveLength(23);
    const notADay = await stat(admin, f.software, -1, { date_from: '2026-02-30', date_to: '2026-03-01' });
    expect(notADay.json.code).toBe(16002);
  });
});

describe('home figures and prompts', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let f: Fixture;
  const overview = (token: string, clientId: number, sid = -1) =>
    call(t.app, 'GET', `/v3/home/invoice-overview?client_id=${clientId}&sid=${sid}`, { token });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    f = await insertFixtures(t.db);
  });

  it("gives the small-scale hotel this month's and quarter's ordinary-invoice sales against the thresholds", async () => {
    const res = await overview(admin, f.hotel);
    expect(res.json.code).toBe(0);
    expect(res.json.data.small_scale).toMatchObject({
      applies: true,
      month_sales: '300.00',
      quarter_sales: '300.00',
      month_threshold: '100000.00',
      quarter_threshold: '300000.00',
      partial_scope: false,
      show_notice: true,
    });
    expect(res.json.data.today).toEqual({
      count: 1,
      total_amount: '300.00',
      total_tax: '3.00',
      total_with_tax: '303.00',
    });
    expect(res.json.data.month_label).toMatch(/^\d{4}-\d{2}$/);
    expect(res.json.data.quarter_label).toMatch(/^\d{4}Q[1-4]$/);
    const general = await overview(admin, f.software);
    expect(general.json.data.small_scale).toMatchObject({ applies: false, show_notice: false });
  });

  it('remembers 确定 for the day and 不再提醒 for good, per user and business', async () => {
    const confirm = await call(t.app, 'POST', `/v3/home/small-scale-notice?client_id=${f.hotel}&sid=-1`, {
      token: admin,
      body: { action: 'confirm' },
    });
    expect(confirm.json.code).toBe(0);
    expect((await overview(admin, f.hotel)).json.data.small_scale.show_notice).toBe(false);
    // a new day: the confirmation no longer hides it
    await t.db.execute(sql`update home_prompt_states set confirmed_on = '2000-01-01'`);
    // (a row written by hand announces itself, as any writer outside the app must: lib/read-cache.ts)
    await t.app.invalidate({ clients: [f.hotel] });
    expect((await overview(admin, f.hotel)).json.data.small_scale.show_notice).toBe(true);
    await call(t.app, 'POST', `/v3/home/small-scale-notice?client_id=${f.hotel}&sid=-1`, {
      token: admin,
      body: { action: 'never' },
    });
    await t.db.execute(sql`update home_prompt_states set confirmed_on = '2000-01-01'`);
    expect((await overview(admin, f.hotel)).json.data.small_scale.show_notice).toBe(false);
    // 确定 afterwards does not undo 不再提醒
    await call(t.app, 'POST', `/v3/home/small-scale-notice?client_id=${f.hotel}&sid=-1`, {
      token: admin,
      body: { action: 'confirm' },
    });
    const rows = await t.db.execute<{ never: boolean }>(
      sql`select never from home_prompt_states where prompt = 'small_scale_notice'`,
    );
    expect(rows.rows).toEqual([{ never: true }]);
    const bad = await call(t.app, 'POST', `/v3/home/small-scale-notice?client_id=${f.hotel}&sid=-1`, {
      token: admin,
      body: { action: 'later' },
    });
    expect(bad.json.code).toBe(CODE.VALIDATION);
  });

  it('closes the tax-rate-change tip per business with clone-tax-rate-tips, or everywhere without a business', async () => {
    expect((await overview(admin, f.software)).json.data.tax_rate_tip).toMatchObject({
      show: true,
      title: '税率变更提示',
    });
    expect((await overview(admin, f.hotel)).json.data.tax_rate_tip).toMatchObject({
      show: true,
      title: '征收率变更提示',
    });
    const closed = await call(
      t.app,
      'POST',
      `/v3/system/clone-tax-rate-tips?client_id=${f.software}&sid=-1`,
      {
        token: admin,
        body: {},
      },
    );
    expect(closed.json).toMatchObject({ code: 0, data: null });
    expect((await overview(admin, f.software)).json.data.tax_rate_tip.show).toBe(false);
    expect((await overview(admin, f.hotel)).json.data.tax_rate_tip.show).toBe(true);
    await call(t.app, 'POST', '/v3/system/clone-tax-rate-tips', { token: admin, body: {} });
    expect((await overview(admin, f.hotel)).json.data.tax_rate_tip.show).toBe(false);
    const info = await call(t.app, 'GET', '/v3/user/info', { token: admin });
    if (info.json.code === 0) expect(info.json.data.tax_rate_change_tips).toBe(0);
    const anon = await call(t.app, 'POST', '/v3/system/clone-tax-rate-tips', { body: {} });
    expect(anon.json.code).toBe(CODE.UNAUTHORIZED);
  });
});

describe('home 今日开票: blue, red and net (issue 24)', () => {
  // an app of its own: the invoices below are written straight to the database, before any answer
  // for this business could be cached (the home figures are cached per user, business and stores)
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: string;
  let f: Fixture;
  const overview = (token: string, clientId: number, sid = -1) =>
    call(t.app, 'GET', `/v3/home/invoice-overview?client_id=${clientId}&sid=${sid}`, { token });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await login(t.app, DEMO.admin.account);
    f = await insertFixtures(t.db);
  });

  it('splits 今日开票 into blue, red and net, over the store in view; another business or store is refused', async () => {
    // today in the software business: a blue 1,060.00 and a red -530.00 at 文三路总部, a blue 1,060.00 at 滨江
    const [blueHq, redHq, blueBj] = await insertCopies(t.db, f.ids.A!, 3, { buyer: '今日开票拆分' });
    await t.db.execute(
      sql`update invoices set issued_at = now() where id in (${blueHq}, ${redHq}, ${blueBj})`,
    );
    await t.db.execute(sql`update invoices set direction = 'red', original_invoice_id = ${blueHq},
      total_amount = -500, total_tax = -30, total_with_tax = -530 where id = ${redHq}`);
    await t.db.execute(sql`update invoices set store_id = ${f.stores.BJ} where id = ${blueBj}`);
    const blue = (n: number) => ({
      count: n,
      total_amount: `${1000 * n}.00`,
      total_tax: `${60 * n}.00`,
      total_with_tax: `${1060 * n}.00`,
    });
    const red = { count: 1, total_amount: '-500.00', total_tax: '-30.00', total_with_tax: '-530.00' };

    const hq = (await overview(admin, f.software, f.stores.HQ)).json.data;
    expect(hq.today_blue).toEqual(blue(1));
    expect(hq.today_red).toEqual(red);
    expect(hq.today).toEqual({
      count: 2,
      total_amount: '500.00',
      total_tax: '30.00',
      total_with_tax: '530.00',
    });

    const all = (await overview(admin, f.software)).json.data;
    expect(all.today_blue).toEqual(blue(2));
    expect(all.today_red).toEqual(red);
    expect(all.today.total_with_tax).toBe('1590.00');

    const bj = (await overview(admin, f.software, f.stores.BJ)).json.data;
    expect(bj.today_red).toEqual({
      count: 0,
      total_amount: '0.00',
      total_tax: '0.00',
      total_with_tax: '0.00',
    });

    // the clerk (文三路总部 only): the summary view is HQ's figures; another store or business is refused
    const clerk = await login(t.app, DEMO.clerk.account);
    const mine = (await overview(clerk, f.software)).json.data;
    expect(mine.today_blue).toEqual(blue(1));
    expect(mine.today_red).toEqual(red);
    expect((await overview(clerk, f.software, f.stores.BJ)).json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    expect((await overview(clerk, f.hotel)).json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    // a store of another business under this one's id is refused too
    expect((await overview(admin, f.software, f.stores.BS)).json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
  });
});

describe('demo history', () => {
  it('seeds a year for both businesses once, numbered by the channel allocator, and the stats agree with SQL', async () => {
    const t = await buildTestApp();
    const first = await seedDemoHistory(t.db, DEMO);
    expect(first.software).toBeGreaterThan(3500);
    expect(first.hotel).toBeGreaterThan(2500);
    expect(await seedDemoHistory(t.db, DEMO)).toEqual({ software: 0, hotel: 0 });

    // every seeded QR text is the bureau's (§六: the shared rule), 数电 and old kinds alike
    const qrs = await t.db.execute<{
      invoice_type: string;
      invoice_code: string;
      invoice_no: string;
      check_code: string;
      total_amount: string;
      total_with_tax: string;
      issued_at: string;
      qr_string: string;
    }>(sql`select invoice_type, invoice_code, invoice_no, check_code, total_amount::text, total_with_tax::text,
        issued_at, qr_string from invoices where invoice_no is not null`);
    expect(new Set(qrs.rows.map((r) => r.invoice_type)).size).toBeGreaterThan(2);
    for (const r of qrs.rows) {
      expect(r.qr_string).toBe(
        invoiceQrText({
          invoiceType: r.invoice_type,
          invoiceCode: r.invoice_code,
          invoiceNo: r.invoice_no,
          checkCode: r.check_code,
          totalAmount: r.total_amount,
          totalWithTax: r.total_with_tax,
          issueDate: new Date(r.issued_at),
        }),
      );
    }

    // the 数电 accounts' month quota counts this month's history and leaves room to issue
    const quota = await t.db.execute<{ used: string; quota: string; month_sum: string }>(sql`
      select d.quota_used as used, d.monthly_quota as quota,
             (select coalesce(sum(total_amount), 0) from invoices i
               where i.device_id = d.id and i.status = 'issued'
                 and to_char(i.issued_at at time zone ${BEIJING_TZ}, 'YYYY-MM') = d.quota_month) as month_sum
        from tax_devices d
       where d.monthly_quota is not null and d.quota_used > 0`);
    expect(quota.rows.length).toBeGreaterThan(0);
    for (const q of quota.rows) {
      expect(Number(q.used)).toBeCloseTo(Math.max(Number(q.month_sum), 0), 2);
      expect(Number(q.quota)).toBeGreaterThanOrEqual(Number(q.used) * 2);
    }

    // 数电 numbers are gapless per device and year and the counter stands at the last one
    const gaps = await t.db.execute<{
      device_id: number;
      y: string;
      n: number;
      lo: string;
      hi: string;
      last_seq: number;
    }>(sql`
      select i.device_id, substr(i.invoice_no, 1, 2) as y, count(*)::int as n,
        min(right(i.invoice_no, 15)) as lo, max(right(i.invoice_no, 15)) as hi, c.last_seq
      from invoices i join channel_number_counters c
        on c.device_id = i.device_id and c.series = 'digital' and c.year = 2000 + substr(i.invoice_no, 1, 2)::int
      where i.invoice_type in ('81', '82') and i.invoice_no is not null
      group by 1, 2, c.last_seq`);
    expect(gaps.rows.length).toBeGreaterThan(0);
    for (const g of gaps.rows) {
      expect(Number(g.lo)).toBe(1);
      expect(Number(g.hi)).toBe(g.n);
      expect(Number(g.last_seq)).toBe(g.n);
    }

    // reds net out: each full red equals minus its blue
    const reds = await t.db.execute<{ n: number; bad: number }>(sql`
      select count(*)::int as n, count(*) filter (where b.red_status = 'full' and r.total_with_tax <> -b.total_with_tax)::int as bad
      from invoices r join invoices b on b.id = r.original_invoice_id where r.direction = 'red'`);
    expect(reds.rows[0]!.n).toBeGreaterThan(20);
    expect(reds.rows[0]!.bad).toBe(0);

    const admin = await login(t.app, DEMO.admin.account);
    const clients = (await call(t.app, 'POST', '/v3/user/client-list', { token: admin, body: {} })).json
      .data as {
      client_id: number;
      tax_code: string;
    }[];
    const software = clients.find((c) => c.tax_code === DEMO.software.taxCode)!.client_id;
    const to = beijingDay();
    const from = `${Number(to.slice(0, 4)) - 1}${to.slice(4, 8)}01`;
    const res = await call(t.app, 'POST', `/v3/invoice-stat/summary?client_id=${software}&sid=-1`, {
      token: admin,
      body: { date_from: from, date_to: to, granularity: 'month' },
    });
    const direct = await t.db.execute<{ n: number; s: string }>(sql`
      select count(*)::int as n, sum(total_with_tax)::text as s from invoices
      where client_id = ${software} and status = 'issued'`);
    expect(res.json.data.totals.count).toBe(direct.rows[0]!.n);
    expect(res.json.data.totals.total_with_tax).toBe(direct.rows[0]!.s);
    expect(res.json.data.by_store).toHaveLength(3);
    const library = await call(t.app, 'POST', `/v3/invoice-record/list?client_id=${software}&sid=-1`, {
      token: admin,
      body: { buyer_name: '数澜', page_size: 20 },
    });
    expect(library.json.data.total).toBeGreaterThan(20);
    expect(library.json.data.list.every((r: { buyer_name: string }) => r.buyer_name.includes('数澜'))).toBe(
      true,
    );
  });
});
