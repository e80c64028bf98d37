import { RED_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, line } from '../../../test/fixtures/invoices.ts';
import { type RedKit, redKit, refusal } from '../../../test/fixtures/red-info.ts';
import { buildTestApp } from '../../../test/helper.ts';

/** A goods line (classification 1…): 13% 键盘. */
const goods = (amountWithTax: string, quantity: string | null = null) =>
  line(amountWithTax, {
    quantity,
    tax_rate: '0.13',
    tax_class_code: '1090511030000000000',
    short_name: '计算机',
    name: '键盘',
    unit: quantity ? '个' : '',
  });

/**
 * How much a red form may take (domain.md §3.3; lines.ts, service.ts): per line what is left after
 * earlier reds and reserving forms, per invoice what is left in total — exactly the rest is
 * accepted, one cent more is not — and what each reason lets the clerk enter.
 */
describe('red amounts and the reasons’ rules', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let k: RedKit;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    k = redKit(t, f);
  });

  const apply = (invoiceId: number, reason: string, lines: Record<string, unknown>[]) =>
    k.red('apply', { invoice_id: invoiceId, reason, full: false, lines });
  const amountOf = (n: number, amount: string) => ({ blue_line_no: n, amount_with_tax: amount });

  /**
   * A red invoice of the blue made without a form (older history), rounded per invoice: its line
   * gives back `lineWithTax` but the invoice `withTax`, so line and invoice remainders differ.
   */
  const formlessRed = async (
    blueId: number,
    v: {
      withTax: string;
      amount: string;
      tax: string;
      lineWithTax: string;
      lineAmount: string;
      lineTax: string;
    },
  ) => {
    await t.db.execute(sql`
      with r as (
        insert into invoices (client_id, store_id, device_id, serial_no, request_hash, invoice_type, direction,
          status, issued_at, buyer_name, buyer_tax_code, seller_name, seller_tax_code, total_amount, total_tax,
          total_with_tax, original_invoice_id)
        select client_id, store_id, device_id, ${`HIST-${blueId}`}, 'history', invoice_type, 'red', 'issued',
          now(), buyer_name, buyer_tax_code, seller_name, seller_tax_code, ${`-${v.amount}`}::numeric,
          ${`-${v.tax}`}::numeric, ${`-${v.withTax}`}::numeric, id
        from invoices where id = ${blueId}
        returning id, client_id)
      insert into invoice_lines (invoice_id, line_no, client_id, line_kind, tax_class_code, short_name, item_name,
        full_name, amount, tax_rate, tax_amount, amount_with_tax)
      select r.id, 1, r.client_id, 0, l.tax_class_code, l.short_name, l.item_name, l.full_name,
        ${`-${v.lineAmount}`}::numeric, l.tax_rate, ${`-${v.lineTax}`}::numeric, ${`-${v.lineWithTax}`}::numeric
      from r, invoice_lines l where l.invoice_id = ${blueId} and l.line_no = 1`);
    await t.db.execute(sql`update invoices set red_status = 'partial' where id = ${blueId}`);
  };

  it('a line takes exactly what it has left, never one cent more (the message names the rest)', async () => {
    const id = await k.blue({ lines: [line('1060.00', { quantity: '2' }), line('300.00')] });
    expect((await apply(id, '04', [amountOf(2, '100.00')])).json.data.red_invoice.status).toBe('issued');

    const before = await k.snapshot(id);
    const over = await apply(id, '04', [amountOf(2, '200.01')]);
    expect(over.json).toMatchObject({
      code: RED_CODE.LINE_OVER_REMAINING,
      message: '第2行红冲超过剩余可红冲：剩余价税合计 200.00 元',
    });
    // with another line in the same form, still refused as a whole
    const mixed = await apply(id, '04', [amountOf(1, '1.00'), amountOf(2, '200.01')]);
    expect(mixed.json.code).toBe(RED_CODE.LINE_OVER_REMAINING);
    const line1 = await apply(id, '04', [amountOf(1, '1060.01')]);
    expect(line1.json.message).toBe('第1行红冲超过剩余可红冲：剩余价税合计 1060.00 元、数量 2');
    expect(await k.snapshot(id)).toEqual(before);

    const exact = await apply(id, '04', [amountOf(2, '200.00')]);
    expect(exact.json.data).toMatchObject({ state: '01', total_with_tax: '-200.00' });
    const info = await k.red('blue-info', { invoice_id: id });
    expect(info.json.data.lines.map((l: { remaining_with_tax: string }) => l.remaining_with_tax)).toEqual([
      '1060.00',
      '0.00',
    ]);
    expect(info.json.data.remaining_with_tax).toBe('1060.00');
    expect((await apply(id, '04', [amountOf(2, '0.01')])).json.code).toBe(RED_CODE.LINE_OVER_REMAINING);
  });

  it('the rest of a line is taken as it is, so no cent is stranded by rounding', async () => {
    // 1000.03 = 943.42 + 56.61; after 100.03 (94.37 + 5.66) the rest is 849.05 + 50.95, whereas
    // 900.00 computed afresh would be 849.06 + 50.94 — more than the line's amount has left
    const id = await k.blue({ lines: [line('1000.03')] });
    const first = await apply(id, '04', [amountOf(1, '100.03')]);
    expect(first.json.data.lines[0]).toMatchObject({ amount: '-94.37', tax_amount: '-5.66' });
    const rest = await apply(id, '04', [amountOf(1, '900.00')]);
    expect(rest.json.data, rest.json.message).toMatchObject({ total_amount: '-849.05', total_tax: '-50.95' });
    expect(await k.blueRow(id)).toMatchObject({ red_status: 'full' });
  });

  it('the whole invoice: exactly its remainder is accepted, one cent more is refused', async () => {
    // a blue whose total was rounded per invoice (合计金额 within 0.01 of its lines): the line has
    // 1060.00 to give, the invoice only 1059.99
    const id = await k.blue({ info: { total_amount: '999.99', total_price_with_tax: '1059.99' } });
    const info = await k.red('blue-info', { invoice_id: id });
    expect(info.json.data).toMatchObject({ remaining_with_tax: '1059.99' });
    expect(info.json.data.lines[0].remaining_with_tax).toBe('1060.00');

    const before = await k.snapshot(id);
    const over = await apply(id, '04', [amountOf(1, '1060.00')]);
    expect(over.json).toMatchObject({
      code: RED_CODE.OVER_REMAINING,
      message: '红冲金额超过蓝字发票的可红冲余额（剩余价税合计 1059.99 元）',
    });
    expect(await k.snapshot(id)).toEqual(before);

    const exact = await apply(id, '04', [amountOf(1, '1059.99')]);
    expect(exact.json.data).toMatchObject({ total_with_tax: '-1059.99', red_invoice: { status: 'issued' } });
    expect(await k.blueRow(id)).toMatchObject({ red_status: 'full' });
  });

  it('issuing re-checks the invoice’s remainder under its lock: exactly the rest issues, a cent more does not', async () => {
    // a 信息表 for 960.00 waits to be issued; meanwhile an older red of 100.00 / 100.01 turns up
    const sheet = async (history: string) => {
      const id = await k.blue({ invoiceType: '004' }, f.ids.ukey);
      const form = await apply(id, '04', [amountOf(1, '960.00')]);
      expect(form.json.data.state).toBe('approved');
      await formlessRed(id, {
        withTax: history,
        amount: '94.34',
        tax: '5.66',
        lineWithTax: '0.00',
        lineAmount: '0.00',
        lineTax: '0.00',
      });
      return { id, formId: form.json.data.form_id as number };
    };
    const fits = await sheet('100.00');
    const ok = await k.red('issue', { form_id: fits.formId });
    expect(ok.json.data.red_invoice).toMatchObject({ status: 'issued' });
    expect(await k.blueRow(fits.id)).toMatchObject({ red_status: 'full' });

    const over = await sheet('100.01');
    const before = await k.snapshot(over.id);
    expect((await k.red('issue', { form_id: over.formId })).json).toMatchObject({
      code: RED_CODE.OVER_REMAINING,
      message: '红冲金额超过蓝字发票的可红冲余额',
    });
    expect(await k.snapshot(over.id)).toEqual(before);

    // the same check when a failed red is tried again
    const retry = await k.blue({ invoiceType: '004' }, f.ids.ukey);
    const form = await apply(retry, '04', [amountOf(1, '960.00')]);
    await f.dev('control', { device_id: f.ids.ukey, fault: 'error', fault_count: 1 });
    const failed = await k.red('issue', { form_id: form.json.data.form_id });
    expect(failed.json.data.red_invoice).toMatchObject({ status: 'failed' });
    await formlessRed(retry, {
      withTax: '100.01',
      amount: '94.34',
      tax: '5.66',
      lineWithTax: '0.00',
      lineAmount: '0.00',
      lineTax: '0.00',
    });
    const beforeRetry = await k.snapshot(retry);
    expect((await k.red('issue', { form_id: form.json.data.form_id })).json.code).toBe(
      RED_CODE.OVER_REMAINING,
    );
    expect(await k.snapshot(retry)).toEqual(beforeRetry);
  });

  it('销货退回 by quantity at the blue unit price; the last unit takes the cent the others left', async () => {
    // 3 × 33.33333333 = 100.00
    const id = await k.blue({ lines: [goods('100.00', '3')] });
    const one = { blue_line_no: 1, quantity: '1' };
    const first = await apply(id, '02', [one]);
    expect(first.json.data.lines[0]).toMatchObject({ quantity: '-1', amount_with_tax: '-33.33' });
    const over = await apply(id, '02', [{ blue_line_no: 1, quantity: '2.00000001' }]);
    expect(over.json).toMatchObject({
      code: RED_CODE.LINE_OVER_REMAINING,
      message: '第1行红冲超过剩余可红冲：剩余价税合计 66.67 元、数量 2',
    });
    expect((await apply(id, '02', [one])).json.data.total_with_tax).toBe('-33.33');
    const last = await apply(id, '02', [one]);
    expect(last.json.data).toMatchObject({ total_with_tax: '-33.34' });
    expect(last.json.data.lines[0]).toMatchObject({ quantity: '-1', unit_price_with_tax: '33.33333333' });
    expect(await k.blueRow(id)).toMatchObject({ red_status: 'full' });
    expect((await apply(id, '02', [one])).json).toMatchObject(refusal(RED_CODE.BLUE_FULLY_REDDENED));
  });

  it('each reason lets the clerk enter only what it allows', async () => {
    // mixed invoice (goods and service): all four reasons are open
    const id = await k.blue({
      lines: [goods('339.00', '3'), line('1060.00', { quantity: '2' }), goods('113.00')],
    });
    const info = await k.red('blue-info', { invoice_id: id });
    expect(info.json.data).toMatchObject({ reasons: ['01', '02', '03', '04'], has_discount: false });
    const before = await k.snapshot(id);
    const cases: [string, Record<string, unknown>[], number, string?][] = [
      // 销货退回: quantity only, and only on a line that has a quantity and a unit price
      ['02', [amountOf(1, '113.00')], RED_CODE.LINE_NOT_EDITABLE],
      ['02', [{ blue_line_no: 1, quantity: '1', amount_with_tax: '113.00' }], RED_CODE.LINE_NOT_EDITABLE],
      [
        '02',
        [{ blue_line_no: 3, quantity: '1' }],
        RED_CODE.LINE_NOT_EDITABLE,
        '销货退回须按数量红冲，且蓝字明细须有数量和单价',
      ],
      ['02', [{ blue_line_no: 1, quantity: '0' }], RED_CODE.BAD_LINE, '红冲数量和金额须大于0'],
      // 销售折让: amount only
      ['04', [{ blue_line_no: 1, quantity: '1', amount_with_tax: '1.00' }], RED_CODE.LINE_NOT_EDITABLE],
      ['04', [{ blue_line_no: 2, quantity: '1' }], RED_CODE.LINE_NOT_EDITABLE],
      ['04', [amountOf(2, '0.00')], RED_CODE.BAD_LINE, '红冲数量和金额须大于0'],
      // 服务中止: an amount is required, a quantity may come with it but not beyond what is left
      ['03', [{ blue_line_no: 2, quantity: '1' }], RED_CODE.NO_LINES, '请填写红冲金额'],
      [
        '03',
        [{ blue_line_no: 2, quantity: '0', amount_with_tax: '1.00' }],
        RED_CODE.BAD_LINE,
        '红冲数量和金额须大于0',
      ],
      [
        '03',
        [{ blue_line_no: 1, quantity: '3.5', amount_with_tax: '1.00' }],
        RED_CODE.LINE_OVER_REMAINING,
        '第1行红冲超过剩余可红冲：剩余价税合计 339.00 元、数量 3',
      ],
      // 开票有误: full only
      ['01', [amountOf(2, '1060.00')], RED_CODE.REASON_FULL_ONLY],
      // the same blue line twice, a line that does not exist, no line at all
      ['04', [amountOf(2, '1.00'), amountOf(2, '1.00')], RED_CODE.BAD_LINE],
      ['04', [amountOf(4, '1.00')], RED_CODE.BAD_LINE],
      ['04', [], RED_CODE.NO_LINES, '请至少填写一行红冲明细'],
    ];
    for (const [reason, lines, code, message] of cases) {
      const res = await apply(id, reason, lines);
      expect(res.json, `${reason} ${JSON.stringify(lines)}`).toMatchObject(
        message ? { code, message } : refusal(code),
      );
    }
    expect(await k.snapshot(id)).toEqual(before);

    // what each accepts
    const ret = await apply(id, '02', [{ blue_line_no: 1, quantity: '1' }]);
    expect(ret.json.data.lines).toEqual([
      expect.objectContaining({ quantity: '-1', unit_price_with_tax: '113', amount_with_tax: '-113.00' }),
    ]);
    const stop = await apply(id, '03', [{ blue_line_no: 2, quantity: '1', amount_with_tax: '530.00' }]);
    expect(stop.json.data.lines).toEqual([
      expect.objectContaining({ quantity: '-1', unit_price: '500', amount: '-500.00', tax_amount: '-30.00' }),
    ]);
    const allowance = await apply(id, '04', [amountOf(3, '13.00')]);
    expect(allowance.json.data.lines).toEqual([
      expect.objectContaining({ quantity: null, unit_price: null, amount: '-11.50', tax_amount: '-1.50' }),
    ]);
  });

  it('full reversals: 销售折让 carries no quantity or price, the other reasons keep them', async () => {
    const a = await k.blue();
    const allowance = await k.red('apply', { invoice_id: a, reason: '04', full: true });
    expect(allowance.json.data.lines).toEqual([
      expect.objectContaining({
        quantity: null,
        unit_price: null,
        unit_price_with_tax: null,
        amount_with_tax: '-1060.00',
      }),
    ]);
    const b = await k.blue();
    const stop = await k.red('apply', { invoice_id: b, reason: '03', full: true });
    expect(stop.json.data.lines).toEqual([
      expect.objectContaining({
        quantity: '-2',
        unit_price: '500',
        unit_price_with_tax: '530',
        amount_with_tax: '-1060.00',
      }),
    ]);
  });

  it('an invoice with a discount line can only be reversed in full, its discount line with it', async () => {
    const id = await k.blue({
      lines: [line('1060.00', { quantity: '2', line_kind: 2 }), line('-106.00', { line_kind: 1 })],
    });
    const info = await k.red('blue-info', { invoice_id: id });
    expect(info.json.data).toMatchObject({ has_discount: true, remaining_with_tax: '954.00' });
    const before = await k.snapshot(id);
    for (const reason of ['03', '04']) {
      expect((await apply(id, reason, [amountOf(1, '10.00')])).json).toMatchObject(
        refusal(RED_CODE.PARTIAL_WITH_DISCOUNT),
      );
    }
    expect(await k.snapshot(id)).toEqual(before);
    const full = await k.red('apply', { invoice_id: id, reason: '04', full: true });
    expect(full.json.data).toMatchObject({ total_with_tax: '-954.00', red_invoice: { status: 'issued' } });
    expect(full.json.data.lines.map((l: { amount_with_tax: string }) => l.amount_with_tax)).toEqual([
      '-1060.00',
      '106.00',
    ]);
    expect(await k.blueRow(id)).toMatchObject({ red_status: 'full' });
  });
});
