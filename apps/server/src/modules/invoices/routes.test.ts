import {
  beijingParts,
  CODE,
  INVOICE_CODE,
  invoiceQrText,
  MONEY_MSG,
  SESSION_CODE,
  SMALL_SCALE_3_PERCENT_REASONS,
} from '@kaipiao/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { xsdErrors } from '../../../test/fixtures/documents.ts';
import {
  BUYER_TAX_CODE,
  type Fixture,
  invoicingFixture,
  line,
  payload,
} from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { allocateInvoiceNumbers, makeCheckCode } from '../../channels/numbers.ts';
import { invoiceEvents, invoiceLines, invoices } from '../../db/schema/index.ts';
import { loadInvoiceDoc } from '../documents/model.ts';
import { renderInvoiceXml } from '../documents/xml.ts';
import type { InvoiceIssuedHook } from './hooks.ts';

describe('POST /v3/online-invoicing/blue', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let ids: Fixture['ids'];
  const clock = testClock();

  beforeAll(async () => {
    t = await buildTestApp({ clock });
    f = await invoicingFixture(t.app, t.db);
    ids = f.ids;
  });

  afterEach(async () => {
    for (const id of [ids.digital, ids.ukey, ids.goldenMain, ids.hotelDigital]) {
      await f.dev('reset', { device_id: id });
      await f.dev('device', { device_id: id, online: true, locked: false, quota_used: '0' });
    }
  });

  const rowOf = async (serialNo: string) =>
    t.db.select().from(invoices).where(eq(invoices.serialNo, serialNo));
  const eventsOf = async (id: number) =>
    (
      await t.db
        .select()
        .from(invoiceEvents)
        .where(eq(invoiceEvents.invoiceId, id))
        .orderBy(asc(invoiceEvents.id))
    ).map((e) => e.kind);

  it('issues a 数电 invoice with a 20-digit number; the seller comes from the business, not the request', async () => {
    const body = payload(ids.digital, {
      extra: { seller: { name: '假冒公司', tax_code: '91110000000000000X' } },
      lines: [
        line('1060.00', { quantity: '2' }),
        line('300.00', {
          tax_rate: '0.13',
          name: '服务器',
          tax_class_code: '1090511030000000000',
          short_name: '计算机',
        }),
      ],
    });
    const res = await f.issue(body);
    expect(res.json.code).toBe(0);
    const r = res.json.data;
    expect(r).toMatchObject({
      serial_no: body.serial_no,
      status: 'issued',
      invoice_type: '82',
      invoice_code: '',
    });
    const yy = String(beijingParts().year % 100).padStart(2, '0');
    expect(r.invoice_no).toMatch(new RegExp(`^${yy}332\\d{15}$`));
    expect(r.total_price_with_tax).toBe('1360.00');
    expect(Number.isNaN(Date.parse(r.issued_at))).toBe(false);

    const [row] = await rowOf(body.serial_no);
    expect(row).toMatchObject({
      sellerName: '杭州云栈软件科技有限公司',
      sellerTaxCode: '91330106MA2KC7LM1A',
      sellerBankAccount: '571908765410001',
      buyerTaxCode: BUYER_TAX_CODE,
      storeId: ids.hq,
      status: 'issued',
      totalAmount: body.invoice_info.total_amount,
    });
    expect(row!.qrString).toMatch(new RegExp(`^01,32,,${r.invoice_no},1360\\.00,\\d{8},,[0-9A-F]{4}$`));
    // the SQL that records the issue builds the same QR text as the shared rule (§六, CRC over the
    // seven fields and their comma)
    expect(row!.qrString).toBe(
      invoiceQrText({
        invoiceType: '82',
        invoiceNo: r.invoice_no,
        totalAmount: body.invoice_info.total_amount,
        totalWithTax: '1360.00',
        issueDate: row!.issuedAt!,
      }),
    );
    // the seeding helper continues the same per-device sequence
    const [next] = await allocateInvoiceNumbers(t.db, {
      deviceId: ids.digital,
      invoiceType: '82',
      count: 1,
      issuedAt: new Date(),
    });
    expect(BigInt(next!.invoiceNo) - BigInt(r.invoice_no)).toBe(1n);
    const lines = await t.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, r.invoice_id));
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.lineNo === 1)).toMatchObject({
      fullName: '*信息技术服务*软件开发服务',
      quantity: '2.00000000',
      unitPrice: '500.00000000',
      unitPriceWithTax: '530.00000000',
      amount: '1000.00',
      taxAmount: '60.00',
    });
    expect(await eventsOf(r.invoice_id)).toEqual(['created', 'issued']);
  });

  it('issues an older kind with a 12-digit code, an 8-digit number and a check code', async () => {
    const res = await f.issue(payload(ids.ukey, { invoiceType: '026' }));
    expect(res.json.code).toBe(0);
    expect(res.json.data.invoice_code).toMatch(/^\d{12}$/);
    expect(res.json.data.invoice_no).toMatch(/^\d{8}$/);
    const [row] = await rowOf(res.json.data.serial_no);
    expect(row!.checkCode).toMatch(/^\d{20}$/);
    expect(row!.checkCode).toBe(makeCheckCode('026', res.json.data.invoice_code, res.json.data.invoice_no));
    expect(row!.qrString).toBe(
      invoiceQrText({
        invoiceType: '026',
        invoiceCode: res.json.data.invoice_code,
        invoiceNo: res.json.data.invoice_no,
        checkCode: row!.checkCode,
        totalAmount: '1000.00',
        totalWithTax: res.json.data.total_price_with_tax,
        issueDate: row!.issuedAt!,
      }),
    );
    // old kinds: 合计金额, the 校验码, and a comma after the CRC (原规范)
    expect(row!.qrString).toMatch(
      new RegExp(
        `^01,10,${res.json.data.invoice_code},${res.json.data.invoice_no},1000\\.00,\\d{8},${row!.checkCode},[0-9A-F]{4},$`,
      ),
    );
  });

  it('refuses amounts outside the tolerances with the field named', async () => {
    const bad = payload(ids.digital);
    bad.goods_info[0]!.tax_amount = '60.10';
    bad.goods_info[0]!.amount = '999.90';
    const res = await f.issue(bad);
    expect(res.json.code).toBe(CODE.VALIDATION);
    const fields = res.json.data.errors.map((e: { field: string }) => e.field);
    expect(fields).toContain('goods_info.0.tax_amount');
    expect(
      res.json.data.errors.find((e: { field: string }) => e.field === 'goods_info.0.tax_amount').message,
    ).toMatch(/误差/);
    expect(await rowOf(bad.serial_no)).toHaveLength(0);

    const totals = payload(ids.digital, { info: { total_price_with_tax: '1060.01' } });
    const t2 = await f.issue(totals);
    expect(t2.json.code).toBe(CODE.VALIDATION);
    expect(t2.json.data.errors.map((e: { field: string }) => e.field)).toContain(
      'invoice_info.total_price_with_tax',
    );
  });

  it('refuses a quantity × price that does not give the amount', async () => {
    const bad = payload(ids.digital);
    bad.goods_info[0]!.price = '600';
    const res = await f.issue(bad);
    expect(res.json.code).toBe(CODE.VALIDATION);
    expect(res.json.data.errors.map((e: { field: string }) => e.field)).toContain('goods_info.0.amount');
  });

  it('reports schema errors as 10001 with the payload path', async () => {
    const bad = payload(ids.digital);
    bad.goods_info[0]!.tax_class_code = '123';
    const res = await f.issue(bad);
    expect(res.json.code).toBe(CODE.VALIDATION);
    expect(res.json.data.errors[0].field).toBe('goods_info.0.tax_class_code');
  });

  it('requires a valid buyer tax code on 专票 kinds', async () => {
    const none = await f.issue(
      payload(ids.digital, { invoiceType: '81', buyer: { tax_code: '', title_type: 1 } }),
    );
    expect(none.json.code).toBe(CODE.VALIDATION);
    expect(none.json.data.errors).toContainEqual({
      field: 'buyer.tax_code',
      message: '开具专用发票须填写购买方纳税人识别号',
    });
    const badSum = await f.issue(
      payload(ids.digital, { invoiceType: '81', buyer: { tax_code: '91330100MA2B3C4D5X' } }),
    );
    expect(badSum.json.code).toBe(CODE.VALIDATION);
    expect(badSum.json.data.errors[0].field).toBe('buyer.tax_code');
    const self = await f.issue(payload(ids.digital, { buyer: { tax_code: '91330106MA2KC7LM1A' } }));
    expect(self.json.data.errors?.[0]?.field).toBe('buyer.tax_code');
    const ok = await f.issue(payload(ids.digital, { invoiceType: '81' }));
    expect(ok.json.code).toBe(0);
  });

  it('refuses a rate the taxpayer may not use (small-scale hotel at 6%)', async () => {
    const res = await f.issue(payload(ids.hotelDigital), { clientId: ids.hotel, sid: ids.bs });
    expect(res.json.code).toBe(CODE.VALIDATION);
    expect(res.json.data.errors).toContainEqual({
      field: 'goods_info.0.tax_rate',
      message: '第1行税率不适用于小规模纳税人',
    });
  });

  describe('small-scale 3% while the 1% reduction runs: the reason (slsm, domain.md §2.6)', () => {
    // the app's clock stands on either side of the reduction's end (2027-12-31, Beijing)
    const LAST_SECOND = '2027-12-31T15:59:59Z'; // 23:59:59 on 2027-12-31 in Beijing: 1% still runs
    const FIRST_SECOND_AFTER = '2027-12-31T16:00:00Z'; // 00:00 on 2028-01-01 in Beijing: 3% again
    afterEach(() => clock.release());
    const lodging = (rate: string) =>
      line('103.00', {
        tax_rate: rate,
        tax_class_code: '3070402000000000000',
        short_name: '住宿服务',
        name: '住宿费',
      });
    const asHotel = (body: unknown) => f.issue(body, { clientId: ids.hotel, sid: ids.bs });
    const stored = async (serialNo: string) => (await rowOf(serialNo))[0]?.specificBusiness ?? null;
    const detailOf = async (invoiceId: number) =>
      (
        await call(t.app, 'POST', `/v3/invoice-detail/get-invoice-detail?client_id=${ids.hotel}&sid=-1`, {
          token: f.admin,
          body: { invoice_id: invoiceId },
        })
      ).json;

    it('refuses a small-scale seller at 3% without a reason, the field named and nothing issued', async () => {
      clock.set(LAST_SECOND);
      const body = payload(ids.hotelDigital, { lines: [lodging('0.01'), lodging('0.03')] });
      const res = await asHotel(body);
      expect(res.json.code).toBe(CODE.VALIDATION);
      expect(res.json.message).toBe(MONEY_MSG.SMALL_SCALE_REASON_REQUIRED);
      expect(res.json.data.errors).toEqual([
        { field: 'small_scale_reason', message: '小规模纳税人开具3%征收率发票，请选择开具原因' },
      ]);
      expect(await rowOf(body.serial_no)).toHaveLength(0);
      // the refusal kept nothing: the same serial with a reason issues
      const again = await asHotel({ ...body, small_scale_reason: '1' });
      expect(again.json.code, JSON.stringify(again.json)).toBe(0);
      expect(await stored(body.serial_no)).toEqual({ small_scale_reason: '1' });
    });

    it('issues with reason 2 and keeps it in specific_business and the XML data file', async () => {
      clock.set(LAST_SECOND);
      const body = payload(ids.hotelDigital, {
        lines: [lodging('0.03')],
        extra: { small_scale_reason: '2', hotel_stay: { room_no: '1208', guest_name: '张三' } },
      });
      const res = await asHotel(body);
      expect(res.json.code, JSON.stringify(res.json)).toBe(0);
      expect(res.json.data.status).toBe('issued');
      expect(await stored(body.serial_no)).toMatchObject({
        hotel_stay: { room_no: '1208', guest_name: '张三' },
        small_scale_reason: '2',
      });
      const doc = await loadInvoiceDoc(t.db, ids.hotel, res.json.data.invoice_id);
      expect(doc?.smallScaleReason).toBe('2');
      // §四 has no element for it (issue 23): the XML says 小规模纳税人 and validates, the reason stays in the detail
      const xml = renderInvoiceXml(doc!);
      expect(xml).not.toContain('Slsm');
      expect(xml).toMatch(
        /<TaxpayerType>\s*<LabelCode>2<\/LabelCode>\s*<LabelName>小规模纳税人<\/LabelName>/,
      );
      expect(await xsdErrors(xml)).toEqual([]);
      // the invoice detail says why, in words
      const detail = await detailOf(res.json.data.invoice_id);
      expect(detail.code).toBe(0);
      expect(detail.data.invoice.small_scale_reason).toBe(SMALL_SCALE_3_PERCENT_REASONS['2']);
      // the same request again answers the same invoice (the reason is part of the request)
      const again = await asHotel(body);
      expect(again.json.data.invoice_id).toBe(res.json.data.invoice_id);
      const other = await asHotel({ ...body, small_scale_reason: '1' });
      expect(other.json.code).toBe(INVOICE_CODE.SERIAL_CONFLICT);
    });

    it('asks no reason of the same seller at 1%, and ignores one sent anyway', async () => {
      clock.set(LAST_SECOND);
      const plain = payload(ids.hotelDigital, { lines: [lodging('0.01')] });
      const res = await asHotel(plain);
      expect(res.json.code, JSON.stringify(res.json)).toBe(0);
      expect(await stored(plain.serial_no)).toBeNull();
      const withReason = payload(ids.hotelDigital, {
        lines: [lodging('0.01')],
        extra: { small_scale_reason: '2' },
      });
      expect((await asHotel(withReason)).json.code).toBe(0);
      expect(await stored(withReason.serial_no)).toBeNull();
    });

    it('once the reduction has ended: 3% needs no reason (one sent is ignored) and 1% is refused', async () => {
      clock.set(FIRST_SECOND_AFTER);
      const plain = payload(ids.hotelDigital, { lines: [lodging('0.03')] });
      const res = await asHotel(plain);
      expect(res.json.code, JSON.stringify(res.json)).toBe(0);
      expect(res.json.data.status).toBe('issued');
      expect(await stored(plain.serial_no)).toBeNull();

      const withReason = payload(ids.hotelDigital, {
        lines: [lodging('0.03')],
        extra: { small_scale_reason: '2' },
      });
      const sent = await asHotel(withReason);
      expect(sent.json.code, JSON.stringify(sent.json)).toBe(0);
      expect(await stored(withReason.serial_no)).toBeNull();
      const doc = await loadInvoiceDoc(t.db, ids.hotel, sent.json.data.invoice_id);
      expect(doc?.smallScaleReason ?? null).toBeNull();
      expect(renderInvoiceXml(doc!)).not.toContain('Slsm');
      expect((await detailOf(sent.json.data.invoice_id)).data.invoice.small_scale_reason).toBeNull();

      const onePercent = payload(ids.hotelDigital, { lines: [lodging('0.03'), lodging('0.01')] });
      const refused = await asHotel(onePercent);
      expect(refused.json.code).toBe(CODE.VALIDATION);
      expect(refused.json.data.errors).toEqual([
        { field: 'goods_info.1.tax_rate', message: '第2行税率不适用于小规模纳税人' },
      ]);
      expect(await rowOf(onePercent.serial_no)).toHaveLength(0);
    });

    it('asks no reason of a general taxpayer at 3%, and ignores one sent anyway', async () => {
      clock.set(LAST_SECOND);
      const plain = payload(ids.digital, { lines: [line('103.00', { tax_rate: '0.03' })] });
      const res = await f.issue(plain);
      expect(res.json.code, JSON.stringify(res.json)).toBe(0);
      expect(await stored(plain.serial_no)).toBeNull();
      const withReason = payload(ids.digital, {
        lines: [line('103.00', { tax_rate: '0.03' })],
        extra: { small_scale_reason: '2' },
      });
      expect((await f.issue(withReason)).json.code).toBe(0);
      expect(await stored(withReason.serial_no)).toBeNull();
    });
  });

  it('limits paper invoices to 8 lines and checks the remark length', async () => {
    const lines = Array.from({ length: 9 }, () => line('10.00'));
    const res = await f.issue(payload(ids.goldenMain, { invoiceType: '007', lines }));
    expect(res.json.code).toBe(CODE.VALIDATION);
    expect(res.json.data.errors).toContainEqual({
      field: 'goods_info',
      message: '纸质发票最多8行项目明细，请拆分开具',
    });
    const remark = await f.issue(payload(ids.digital, { info: { remark: '备'.repeat(451) } }));
    expect(remark.json.code).toBe(CODE.VALIDATION);
    expect(remark.json.data.errors[0].field).toBe('invoice_info.remark');
  });

  it('refuses a device over its per-invoice limit, with no invoice made', async () => {
    // UKey: limit 99,999.99 tax-exclusive
    const body = payload(ids.ukey, { invoiceType: '026', lines: [line('106000.00')] });
    const res = await f.issue(body);
    expect(res.json.code).toBe(INVOICE_CODE.OVER_INVOICE_LIMIT);
    expect(res.json.message).toContain('99999.99');
    expect(await rowOf(body.serial_no)).toHaveLength(0);
  });

  it('refuses an invoice over the month’s remaining quota', async () => {
    await f.dev('device', { device_id: ids.digital, quota_used: '9999500.00' });
    const body = payload(ids.digital);
    const res = await f.issue(body);
    expect(res.json.code).toBe(INVOICE_CODE.QUOTA_EXCEEDED);
    expect(res.json.message).toContain('500.00');
    expect(await rowOf(body.serial_no)).toHaveLength(0);
    // what is left still goes through, and is used up
    const small = await f.issue(payload(ids.digital, { lines: [line('530.00')] }));
    expect(small.json.code).toBe(0);
    const state = await call(t.app, 'GET', `/v3/dev/channel/state?device_id=${ids.digital}`);
    expect(state.json.data.quota_used).toBe('10000000.00');
  });

  it('refuses offline and locked devices, unsupported kinds, unbound and foreign devices', async () => {
    await f.dev('device', { device_id: ids.digital, online: false });
    expect((await f.issue(payload(ids.digital))).json.code).toBe(INVOICE_CODE.DEVICE_OFFLINE);
    await f.dev('device', { device_id: ids.digital, online: true, locked: true });
    expect((await f.issue(payload(ids.digital))).json.code).toBe(INVOICE_CODE.DEVICE_LOCKED);
    await f.dev('device', { device_id: ids.digital, locked: false });
    expect((await f.issue(payload(ids.digital, { invoiceType: '026' }))).json.code).toBe(
      INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED,
    );
    // the branch disc is bound to 滨江, not HQ
    expect((await f.issue(payload(ids.goldenBranch, { invoiceType: '007' }))).json.code).toBe(
      INVOICE_CODE.DEVICE_NOT_BOUND,
    );
    expect(
      (await f.issue(payload(ids.goldenBranch, { invoiceType: '007' }), { sid: ids.bj })).json.code,
    ).toBe(0);
    // the hotel's device from the software company
    expect((await f.issue(payload(ids.hotelDigital))).json.code).toBe(INVOICE_CODE.DEVICE_NOT_FOUND);
  });

  it('refuses when the stock of a kind is used up', async () => {
    const state = await call(t.app, 'GET', `/v3/dev/channel/state?device_id=${ids.goldenMain}`);
    const left = state.json.data.stock['004'] as number;
    // use the disc's 004 stock up directly
    await t.db.execute(
      sql`update channel_number_ranges set next_no = end_no + 1 where device_id = ${ids.goldenMain} and invoice_type = '004'`,
    );
    expect(left).toBeGreaterThan(0);
    const res = await f.issue(payload(ids.goldenMain, { invoiceType: '004' }));
    expect(res.json.code).toBe(INVOICE_CODE.STOCK_EXHAUSTED);
    await f.dev('stock', { device_id: ids.goldenMain, invoice_type: '004', count: 10 });
    expect((await f.issue(payload(ids.goldenMain, { invoiceType: '004' }))).json.code).toBe(0);
  });

  it('channel failure, then a retry with the same serial makes one invoice on the same row', async () => {
    await f.dev('control', {
      device_id: ids.digital,
      fault: 'error',
      fault_code: 'E1003',
      fault_message: '纳税人状态异常',
      fault_count: 1,
    });
    const body = payload(ids.digital);
    const first = await f.issue(body);
    expect(first.json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    expect(first.json.message).toBe('开票失败，税局返回：纳税人状态异常（E1003）');
    expect(first.json.data).toMatchObject({
      status: 'failed',
      invoice_no: null,
      error_message: '纳税人状态异常',
    });

    const again = await f.issue(body);
    expect(again.json.code).toBe(0);
    expect(again.json.data).toMatchObject({ status: 'issued', invoice_id: first.json.data.invoice_id });
    const rows = await rowOf(body.serial_no);
    expect(rows).toHaveLength(1);
    expect(await eventsOf(rows[0]!.id)).toEqual(['created', 'failed', 'issuing', 'issued']);

    // and once more: the first result, no new number
    const third = await f.issue(body);
    expect(third.json.data).toEqual(again.json.data);
  });

  it('refuses the same serial with another payload', async () => {
    const body = payload(ids.digital);
    expect((await f.issue(body)).json.code).toBe(0);
    const other = { ...body, buyer: { ...body.buyer, name: '另一家公司' } };
    const res = await f.issue(other);
    expect(res.json.code).toBe(INVOICE_CODE.SERIAL_CONFLICT);
    expect(res.json.message).toContain('流水号已被其他开票请求使用');
    // send_email does not change the invoice: same request
    expect((await f.issue({ ...body, send_email: true })).json.code).toBe(0);
  });

  it('a double click makes one invoice: the second answers the first', async () => {
    await f.dev('control', { device_id: ids.digital, latency_ms: 300 });
    const body = payload(ids.digital);
    const [a, b] = await Promise.all([f.issue(body), f.issue(body)]);
    const statuses = [a.json.data.status, b.json.data.status].sort();
    expect(statuses).toEqual(['issued', 'issuing']);
    expect(a.json.data.invoice_id).toBe(b.json.data.invoice_id);
    expect(await rowOf(body.serial_no)).toHaveLength(1);
  });

  it('an "unknown" answer stays unknown until reconciliation finds the invoice issued', async () => {
    await f.dev('control', {
      device_id: ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 3600,
    });
    const body = payload(ids.digital);
    const first = await f.issue(body);
    expect(first.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    expect(first.json.data).toMatchObject({ status: 'unknown', invoice_no: null });
    // a retry with the same serial does not issue again
    expect((await f.issue(body)).json.data).toMatchObject({ status: 'unknown' });

    const scope = f.scope(ids.software, ids.hq);
    const early = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
      token: f.admin,
      body: {},
    });
    expect(early.json.data).toMatchObject({ checked: 1, pending: 1, issued: 0, failed: 0 });

    // the bureau's hour passes: the invoice shows there now
    await t.db.execute(
      sql`update channel_sandbox_issues set visible_at = now() where serial_no = ${body.serial_no}`,
    );
    const late = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
      token: f.admin,
      body: {},
    });
    expect(late.json.data).toMatchObject({ checked: 1, issued: 1 });
    expect(late.json.data.results[0]).toMatchObject({ serial_no: body.serial_no, status: 'issued' });
    expect(late.json.data.results[0].invoice_no).toMatch(/^\d{20}$/);

    const result = await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?${scope}&serial_no=${body.serial_no}`,
      {
        token: f.admin,
      },
    );
    expect(result.json.data).toEqual(late.json.data.results[0]);
    expect(await eventsOf(first.json.data.invoice_id)).toEqual(['created', 'unknown', 'reconciled']);
    // the number the channel handed out is the one recorded: the next invoice follows it
    const next = await f.issue(payload(ids.digital));
    expect(BigInt(next.json.data.invoice_no) - BigInt(result.json.data.invoice_no)).toBe(1n);
  });

  it('a time-out that never reached the bureau reconciles to failed, and the serial can be retried', async () => {
    await f.dev('control', { device_id: ids.digital, fault: 'timeout', timeout_ms: 50, fault_count: 1 });
    const body = payload(ids.digital);
    const first = await f.issue(body);
    expect(first.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    const scope = f.scope(ids.software, ids.hq);
    const rec = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${scope}`, {
      token: f.admin,
      body: { serial_no: body.serial_no },
    });
    expect(rec.json.data).toMatchObject({ checked: 1, failed: 1 });
    expect(rec.json.data.results[0].status).toBe('failed');
    const retry = await f.issue(body);
    expect(retry.json.code).toBe(0);
    expect(retry.json.data).toMatchObject({ status: 'issued', invoice_id: first.json.data.invoice_id });
  });

  it('GET /v3/online-invoicing/result answers by serial, within the tenant', async () => {
    const body = payload(ids.digital);
    const issued = await f.issue(body);
    const ok = await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?${f.scope(ids.software, -1)}&serial_no=${body.serial_no}`,
      { token: f.admin },
    );
    expect(ok.json.data).toEqual(issued.json.data);
    const missing = await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?${f.scope(ids.software, -1)}&serial_no=NOPE12345678`,
      { token: f.admin },
    );
    expect(missing.json.code).toBe(INVOICE_CODE.SERIAL_NOT_FOUND);
    // the hotel does not see the software company's serial
    const other = await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?${f.scope(ids.hotel, -1)}&serial_no=${body.serial_no}`,
      { token: f.admin },
    );
    expect(other.json.code).toBe(INVOICE_CODE.SERIAL_NOT_FOUND);
  });

  it('refuses the all-stores view with 10688 and another tenant’s store', async () => {
    const res = await f.issue(payload(ids.digital), { sid: -1 });
    expect(res.json.code).toBe(CODE.SWITCH_STORE);
    const foreign = await f.issue(payload(ids.digital), { sid: ids.bs });
    expect(foreign.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
  });

  it('lets the clerk issue at her store only', async () => {
    const ok = await f.issue(payload(ids.digital), { token: f.clerk });
    expect(ok.json.code).toBe(0);
    const other = await f.issue(payload(ids.digital), { token: f.clerk, sid: ids.bj });
    expect(other.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    const hotel = await f.issue(payload(ids.hotelDigital), {
      token: f.clerk,
      clientId: ids.hotel,
      sid: ids.bs,
    });
    expect(hotel.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
  });

  it('stores the hotel stay fields with the invoice (hotel menu url)', async () => {
    const body = payload(ids.hotelDigital, {
      lines: [
        line('1010.00', {
          tax_rate: '0.01',
          tax_class_code: '3070402000000000000',
          short_name: '住宿服务',
          name: '住宿费',
        }),
      ],
      extra: {
        hotel_stay: { room_no: '1208', guest_name: '张三', check_in: '2026-03-01', check_out: '2026-03-03' },
      },
    });
    const res = await f.issue(body, { clientId: ids.hotel, sid: ids.lj });
    expect(res.json.code).toBe(0);
    const [row] = await rowOf(body.serial_no);
    expect(row!.specificBusiness).toEqual({
      hotel_stay: { room_no: '1208', guest_name: '张三', check_in: '2026-03-01', check_out: '2026-03-03' },
    });
    expect(row!.sellerName).toBe('杭州西湖畔酒店管理有限公司');
  });

  it('runs the issued hooks after the commit; a failing hook does not fail the issue', async () => {
    const seen: Array<{ id: number; sendEmail: boolean }> = [];
    const good: InvoiceIssuedHook = async (_app, invoiceId, opts) => {
      seen.push({ id: invoiceId, sendEmail: opts.sendEmail });
    };
    const bad: InvoiceIssuedHook = async () => {
      throw new Error('renderer down');
    };
    t.app.invoiceHooks.add(good);
    t.app.invoiceHooks.add(bad);
    try {
      const res = await f.issue({ ...payload(ids.digital), send_email: true });
      expect(res.json.code).toBe(0);
      await t.app.invoiceHooks.drain();
      expect(seen).toEqual([{ id: res.json.data.invoice_id, sendEmail: true }]);
      // no e-mail address: no e-mail
      const quiet = await f.issue({ ...payload(ids.digital, { buyer: { email: '' } }), send_email: true });
      await t.app.invoiceHooks.drain();
      expect(seen[1]).toEqual({ id: quiet.json.data.invoice_id, sendEmail: false });
    } finally {
      t.app.invoiceHooks.delete(good);
      t.app.invoiceHooks.delete(bad);
    }
  });

  it('counts a use of the buyer’s saved title once the invoice is issued (autocomplete order)', async () => {
    const name = '杭州西溪数据服务有限公司';
    await t.db.execute(sql`
      insert into buyer_titles (client_id, title_type, name, tax_code)
      values (${ids.software}, 2, ${name}, ${BUYER_TAX_CODE})
      on conflict (client_id, name) do update set use_count = 0`);
    const uses = async () =>
      (
        await t.db.execute<{ use_count: number }>(
          sql`select use_count from buyer_titles where client_id = ${ids.software} and name = ${name}`,
        )
      ).rows[0]!.use_count;
    expect((await f.issue(payload(ids.digital))).json.code).toBe(0);
    expect((await f.issue(payload(ids.digital))).json.code).toBe(0);
    await t.app.invoiceHooks.drain();
    expect(await uses()).toBe(2);
    // a refused invoice counts nothing; nor does a buyer without a saved title
    const over = await f.issue(payload(ids.digital, { info: { total_price_with_tax: '1.00' } }));
    expect(over.json.code).not.toBe(0);
    const other = await f.issue(payload(ids.digital, { buyer: { name: '未保存的购买方有限公司' } }));
    expect(other.json.code).toBe(0);
    await t.app.invoiceHooks.drain();
    expect(await uses()).toBe(2);
  });
});

describe('special businesses (domain.md §4)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });
  const errorsOf = async (body: unknown) => {
    const res = await f.issue(body);
    return res.json.code === 0 ? [] : (res.json.data?.errors ?? [{ field: '', message: res.json.message }]);
  };
  const building = (over: Record<string, unknown> = {}) => ({
    place: '浙江省-杭州市-西湖区',
    project_name: '云栈园区二期',
    cross_city: 'N',
    ...over,
  });
  const build = line('10900.00', {
    tax_rate: '0.09',
    tax_class_code: '3050100000000000000',
    short_name: '建筑服务',
    name: '工程服务',
  });

  it('03 建筑服务: exactly one line and the block; cross-region number only when cross-city', async () => {
    const ok = payload(f.ids.digital, {
      lines: [build],
      info: { specific_business_code: '03' },
      extra: { building_service: building() },
    });
    expect(await errorsOf(ok)).toEqual([]);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.serialNo, ok.serial_no));
    expect(row!.specificBusinessCode).toBe('03');
    expect(row!.specificBusiness).toMatchObject({ building_service: { place: '浙江省-杭州市-西湖区' } });

    const two = payload(f.ids.digital, {
      lines: [build, build],
      info: { specific_business_code: '03' },
      extra: { building_service: building() },
    });
    expect((await errorsOf(two)).map((e: { field: string }) => e.field)).toContain('goods_info');
    const missing = payload(f.ids.digital, { lines: [build], info: { specific_business_code: '03' } });
    expect((await errorsOf(missing)).map((e: { field: string }) => e.field)).toContain('building_service');
    const cross = payload(f.ids.digital, {
      lines: [build],
      info: { specific_business_code: '03' },
      extra: { building_service: building({ cross_city: 'Y' }) },
    });
    expect((await errorsOf(cross)).map((e: { field: string }) => e.field)).toContain(
      'building_service.cross_region_no',
    );
    const wrongCode = payload(f.ids.digital, {
      lines: [line('1060.00')],
      info: { specific_business_code: '03' },
      extra: { building_service: building() },
    });
    expect((await errorsOf(wrongCode)).map((e: { field: string }) => e.field)).toContain(
      'goods_info.0.tax_class_code',
    );
  });

  it('04 货物运输服务 needs the transport list', async () => {
    const freight = line('1090.00', {
      tax_rate: '0.09',
      tax_class_code: '3010102020100000000',
      short_name: '运输服务',
      name: '国内道路货物运输服务',
    });
    const none = payload(f.ids.digital, { lines: [freight], info: { specific_business_code: '04' } });
    expect((await errorsOf(none)).map((e: { field: string }) => e.field)).toContain('goods_transport');
    const ok = payload(f.ids.digital, {
      lines: [freight],
      info: { specific_business_code: '04' },
      extra: {
        goods_transport: [
          {
            vehicle_type: '公路运输',
            vehicle_no: '浙A12345',
            origin: '杭州',
            destination: '上海',
            goods_name: '服务器',
          },
        ],
      },
    });
    expect(await errorsOf(ok)).toEqual([]);
  });

  it('06 不动产经营租赁: one block per line, area unit, street-level address, lease period', async () => {
    const rent = line('10900.00', {
      tax_rate: '0.09',
      tax_class_code: '3040502020400000000',
      short_name: '经营租赁',
      name: '商铺租金',
      quantity: '120',
      unit: '平方米',
    });
    const block = (over: Record<string, unknown> = {}) => ({
      province: '浙江省',
      city: '杭州市',
      detail_address: '西湖区文三路90号',
      lease_period: '2026-01-01 2026-12-31',
      cross_city: 'N',
      certificate_no: '浙(2020)杭州市不动产权第0012345号',
      area_unit: '平方米',
      ...over,
    });
    const ok = payload(f.ids.digital, {
      lines: [rent],
      info: { specific_business_code: '06' },
      extra: { real_static_rent: [block()] },
    });
    expect(await errorsOf(ok)).toEqual([]);

    const bad = payload(f.ids.digital, {
      lines: [rent, rent],
      info: { specific_business_code: '06' },
      extra: {
        real_static_rent: [
          block({ detail_address: '西湖区某大厦', area_unit: '间', lease_period: '2026/01/01-2026/12/31' }),
        ],
      },
    });
    const fields = (await errorsOf(bad)).map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'real_static_rent',
        'real_static_rent.0.detail_address',
        'real_static_rent.0.area_unit',
        'real_static_rent.0.lease_period',
      ]),
    );
  });

  it('09 旅客运输服务: a traveller list; no planes or trains; boats need a class', async () => {
    const trip = line('1090.00', {
      tax_rate: '0.09',
      tax_class_code: '3010101020100000000',
      short_name: '运输服务',
      name: '客运服务',
    });
    const traveller = (over: Record<string, unknown> = {}) => ({
      traveller: '张三',
      id_type: '227',
      id_no: 'E12345678',
      travel_date: '2026-03-01',
      origin: '杭州',
      destination: '舟山',
      vehicle_type: '3',
      ...over,
    });
    const ok = payload(f.ids.digital, {
      lines: [trip],
      info: { specific_business_code: '09' },
      extra: { passenger_transport: [traveller()] },
    });
    expect(await errorsOf(ok)).toEqual([]);
    const bad = payload(f.ids.digital, {
      lines: [trip],
      info: { specific_business_code: '09' },
      extra: { passenger_transport: [traveller({ vehicle_type: '1' }), traveller({ vehicle_type: '7' })] },
    });
    expect((await errorsOf(bad)).map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['passenger_transport.0.vehicle_type', 'passenger_transport.1.seat_class']),
    );
  });
});
