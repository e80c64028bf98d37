import { dec, RED_CODE } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.ts';
import { type BlueLine, buildRedLines, NOTHING_TAKEN, remainingOf, type Taken, totalsOf } from './lines.ts';

/** A stored blue line: 2 × 530.00 incl. 6% (1000.00 + 60.00) unless told otherwise. */
const blueLine = (o: Partial<BlueLine> = {}): BlueLine => ({
  line_no: 1,
  line_kind: 0,
  tax_class_code: '3040201010000000000',
  short_name: '信息技术服务',
  item_name: '技术服务费',
  full_name: '*信息技术服务*技术服务费',
  spec: '',
  unit: '次',
  quantity: '2',
  unit_price: '500.00000000',
  unit_price_with_tax: '530.00000000',
  amount: '1000.00',
  tax_rate: '0.06',
  tax_amount: '60.00',
  amount_with_tax: '1060.00',
  preferential_code: '',
  zero_rate_flag: '',
  ...o,
});
const noTaken = new Map<number, Taken>();
const partial = (reason: '02' | '03' | '04', lines: Record<string, unknown>[], blue = [blueLine()]) =>
  buildRedLines(blue, noTaken, { reason, full: false, lines: lines as never, untouched: true });

/** The code (and message, when given) a refusal carries. */
function refusedWith(fn: () => unknown, code: number, message?: string) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe(code);
    if (message !== undefined) expect((e as AppError).message).toBe(message);
    return;
  }
  expect.fail(`expected refusal ${code}`);
}

describe('red lines (lines.ts, domain.md §3.3)', () => {
  it('a full 销货退回 keeps quantity and prices; 销售折让 drops them; a line with nothing left is skipped', () => {
    const service = blueLine({ line_no: 2, quantity: null, unit_price: null, unit_price_with_tax: null });
    const taken = new Map<number, Taken>([
      [3, { quantity: dec(0), amount: dec('100.00'), tax: dec('6.00'), withTax: dec('106.00') }],
    ]);
    const gone = blueLine({
      line_no: 3,
      amount: '100.00',
      tax_amount: '6.00',
      amount_with_tax: '106.00',
      quantity: null,
    });
    const full02 = buildRedLines([blueLine(), service, gone], taken, {
      reason: '02',
      full: true,
      lines: [],
      untouched: false,
    });
    expect(full02.map((l) => l.blue_line_no)).toEqual([1, 2]);
    expect(full02[0]).toMatchObject({
      quantity: '-2',
      unit_price: '500',
      unit_price_with_tax: '530',
      amount: '-1000.00',
      tax_amount: '-60.00',
      amount_with_tax: '-1060.00',
    });
    expect(full02[1]).toMatchObject({ quantity: null, unit_price: null, unit_price_with_tax: null });
    // a quantity without a stored price keeps the quantity and leaves the prices empty
    const unpriced = blueLine({ unit_price: null, unit_price_with_tax: null });
    const [r] = buildRedLines([unpriced], noTaken, { reason: '02', full: true, lines: [], untouched: true });
    expect(r).toMatchObject({ quantity: '-2', unit_price: null, unit_price_with_tax: null });
    const halfPriced = blueLine({ unit_price_with_tax: null });
    const [h] = buildRedLines([halfPriced], noTaken, {
      reason: '02',
      full: true,
      lines: [],
      untouched: true,
    });
    expect(h).toMatchObject({ unit_price: '500', unit_price_with_tax: null });

    const full04 = buildRedLines([blueLine()], noTaken, {
      reason: '04',
      full: true,
      lines: [],
      untouched: true,
    });
    expect(full04[0]).toMatchObject({
      quantity: null,
      unit_price: null,
      unit_price_with_tax: null,
      amount: '-1000.00',
    });
    expect(totalsOf([...full02, ...full04])).toEqual({
      amount: '-3000.00',
      tax: '-180.00',
      withTax: '-3180.00',
    });

    refusedWith(
      () => buildRedLines([gone], taken, { reason: '04', full: true, lines: [], untouched: false }),
      RED_CODE.BLUE_FULLY_REDDENED,
    );
  });

  it('a line whose amount is used up but whose tax is not is still reversed (both must be zero to skip)', () => {
    const l = blueLine({ quantity: null, unit_price: null, unit_price_with_tax: null });
    const taken = new Map<number, Taken>([
      [1, { quantity: dec(0), amount: dec('1000.00'), tax: dec('59.99'), withTax: dec('1059.99') }],
    ]);
    const out = buildRedLines([l], taken, { reason: '04', full: true, lines: [], untouched: false });
    expect(out[0]).toMatchObject({ amount: '0.00', tax_amount: '-0.01', amount_with_tax: '-0.01' });
  });

  it('开票有误 only as a full reversal of an untouched invoice', () => {
    for (const opts of [
      { full: false, untouched: true },
      { full: true, untouched: false },
    ]) {
      refusedWith(
        () => buildRedLines([blueLine()], noTaken, { reason: '01', lines: [], ...opts }),
        RED_CODE.REASON_FULL_ONLY,
      );
    }
    expect(
      buildRedLines([blueLine()], noTaken, { reason: '01', full: true, lines: [], untouched: true }),
    ).toHaveLength(1);
  });

  it('a partial red of an invoice with a discount line is refused, whichever line it names', () => {
    const discounted = [
      blueLine({ line_kind: 2 }),
      blueLine({
        line_no: 2,
        line_kind: 1,
        amount: '-100.00',
        tax_amount: '-6.00',
        amount_with_tax: '-106.00',
      }),
      blueLine({ line_no: 3 }),
    ];
    refusedWith(
      () => partial('04', [{ blue_line_no: 3, amount_with_tax: '1.00' }], discounted),
      RED_CODE.PARTIAL_WITH_DISCOUNT,
    );
    expect(partial('04', [{ blue_line_no: 1, amount_with_tax: '1.00' }])).toHaveLength(1);
  });

  it('empty, null and missing entries count as not entered', () => {
    // 04 takes no quantity: an empty or null one is no quantity at all
    for (const quantity of ['', null, undefined]) {
      expect(partial('04', [{ blue_line_no: 1, quantity, amount_with_tax: '106.00' }])[0]).toMatchObject({
        quantity: null,
        // an amount-only reversal carries no price
        unit_price: null,
        unit_price_with_tax: null,
        amount_with_tax: '-106.00',
      });
    }
    // 02 takes no amount: an empty or null one is no amount at all
    for (const amount_with_tax of ['', null, undefined]) {
      expect(partial('02', [{ blue_line_no: 1, quantity: '1', amount_with_tax }])[0]).toMatchObject({
        quantity: '-1',
        amount_with_tax: '-530.00',
      });
    }
    // 03 needs its amount: a quantity alone, or an empty amount, is 请填写红冲金额
    for (const amount_with_tax of ['', null, undefined]) {
      refusedWith(
        () => partial('03', [{ blue_line_no: 1, quantity: '1', amount_with_tax }]),
        RED_CODE.NO_LINES,
        '请填写红冲金额',
      );
    }
  });

  it('销货退回 needs a quantity, on a line that has a quantity and a price', () => {
    const msg = '销货退回须按数量红冲，且蓝字明细须有数量和单价';
    refusedWith(() => partial('02', [{ blue_line_no: 1, quantity: '' }]), RED_CODE.LINE_NOT_EDITABLE, msg);
    const noQty = blueLine({ quantity: null });
    refusedWith(
      () => partial('02', [{ blue_line_no: 1, quantity: '1' }], [noQty]),
      RED_CODE.LINE_NOT_EDITABLE,
      msg,
    );
    const noPrice = blueLine({ unit_price_with_tax: null });
    refusedWith(
      () => partial('02', [{ blue_line_no: 1, quantity: '1' }], [noPrice]),
      RED_CODE.LINE_NOT_EDITABLE,
      msg,
    );
  });

  it('服务中止 with a quantity: more than the line has left is refused even when the amount fits', () => {
    refusedWith(
      () => partial('03', [{ blue_line_no: 1, quantity: '3', amount_with_tax: '1.00' }]),
      RED_CODE.LINE_OVER_REMAINING,
      '第1行红冲超过剩余可红冲：剩余价税合计 1060.00 元、数量 2',
    );
    expect(partial('03', [{ blue_line_no: 1, quantity: '2', amount_with_tax: '1.00' }])[0]).toMatchObject({
      quantity: '-2',
      unit_price: '500',
    });
  });

  it('服务中止 with a quantity on a line without one: no quantity limit to check', () => {
    const service = blueLine({ quantity: null, unit_price: null, unit_price_with_tax: null });
    expect(
      partial('03', [{ blue_line_no: 1, quantity: '5', amount_with_tax: '10.60' }], [service])[0],
    ).toMatchObject({
      quantity: '-5',
      amount_with_tax: '-10.60',
    });
  });

  it('over what a line without quantity has left: the message names only the amount', () => {
    const service = blueLine({ quantity: null, unit_price: null, unit_price_with_tax: null });
    refusedWith(
      () => partial('04', [{ blue_line_no: 1, amount_with_tax: '1060.01' }], [service]),
      RED_CODE.LINE_OVER_REMAINING,
      '第1行红冲超过剩余可红冲：剩余价税合计 1060.00 元',
    );
  });

  it('the rest of a line is exactly what it has left (no cent stranded by rounding)', () => {
    const taken = new Map<number, Taken>([
      [1, { quantity: dec('1'), amount: dec('500.01'), tax: dec('29.99'), withTax: dec('530.00') }],
    ]);
    const rest = buildRedLines([blueLine()], taken, {
      reason: '02',
      full: false,
      lines: [{ blue_line_no: 1, quantity: '1' }] as never,
      untouched: false,
    });
    expect(rest[0]).toMatchObject({
      quantity: '-1',
      amount: '-499.99',
      tax_amount: '-30.01',
      amount_with_tax: '-530.00',
    });
    expect(remainingOf(blueLine(), undefined)).toEqual(remainingOf(blueLine(), NOTHING_TAKEN()));
  });
});
