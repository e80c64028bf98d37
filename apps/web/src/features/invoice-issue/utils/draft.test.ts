import { describe, expect, it } from 'vitest';
import { type DraftAction, draftReducer, emptyDraft, emptyLine, type Project } from './draft.ts';
import { computeAll, totalsOf } from './line-math.ts';
import type { Draft, DraftLine } from './types.ts';

const SOFTWARE: Project = {
  id: 7,
  name: '软件开发服务',
  tax_class_code: '3040201010000000000',
  short_name: '信息技术服务',
  spec: 'V1',
  unit: '项',
  price: '106.00',
  price_includes_tax: true,
  tax_rate: '0.06',
  preferential_code: '',
  zero_rate_flag: '',
};

const line = (patch: Partial<DraftLine>): DraftLine => ({
  ...emptyLine(),
  tax_class_code: '3040201010000000000',
  short_name: '信息技术服务',
  name: '软件开发服务',
  tax_rate: '0.06',
  ...patch,
});

function run(draft: Draft, ...actions: DraftAction[]) {
  return actions.reduce(draftReducer, draft);
}

function withLines(...lines: DraftLine[]): Draft {
  return { ...emptyDraft(), lines };
}

describe('draftReducer', () => {
  it('fills a line from a goods code and keeps its 含税 price in 含税 mode', () => {
    const d = emptyDraft();
    const next = run(d, { type: 'pickProject', key: d.lines[0].key, project: SOFTWARE });
    expect(next.lines[0]).toMatchObject({
      goods_id: 7,
      name: '软件开发服务',
      short_name: '信息技术服务',
      tax_class_code: '3040201010000000000',
      unit: '项',
      price: '106',
      quantity: '1',
      tax_rate: '0.06',
      driver: 'price',
    });
    expect(totalsOf(computeAll(next.lines, true))).toMatchObject({ totalAmount: '100.00', totalTax: '6.00' });
  });

  it('re-expresses a goods code price without tax in 不含税 mode', () => {
    const d = { ...emptyDraft(), price_includes_tax: false };
    const next = run(d, { type: 'pickProject', key: d.lines[0].key, project: SOFTWARE });
    expect(next.lines[0].price).toBe('100');
  });

  it('typing an amount makes the price derived, typing a price makes the amount derived', () => {
    const d = withLines(line({ quantity: '3' }));
    const key = d.lines[0].key;
    const byAmount = run(d, { type: 'updateLine', key, patch: { amount: '99.99' } });
    expect(byAmount.lines[0].driver).toBe('amount');
    expect(computeAll(byAmount.lines, true)[0]).toMatchObject({
      amount: '94.33',
      taxAmount: '5.66',
      unitPriceWithTax: '33.33',
    });
    const byPrice = run(byAmount, { type: 'updateLine', key, patch: { price: '10' } });
    expect(byPrice.lines[0].driver).toBe('price');
    expect(computeAll(byPrice.lines, true)[0]).toMatchObject({ amountWithTax: '30.00' });
  });

  it('adds a discount line right after its line, with its name, code and rate, by amount', () => {
    const d = withLines(
      line({ quantity: '1', price: '106' }),
      line({ name: '维护', quantity: '1', price: '53' }),
    );
    const next = run(d, {
      type: 'setDiscount',
      key: d.lines[0].key,
      discount: { mode: 'amount', value: '10.6' },
    });
    expect(next.lines.map((l) => l.line_kind)).toEqual([2, 1, 0]);
    expect(next.lines[1]).toMatchObject({
      name: '软件开发服务',
      tax_class_code: '3040201010000000000',
      tax_rate: '0.06',
    });
    const n = computeAll(next.lines, true);
    expect(n[1]).toMatchObject({
      amountWithTax: '-10.60',
      amount: '-10.00',
      taxAmount: '-0.60',
      quantity: null,
    });
    expect(totalsOf(n)).toMatchObject({ totalWithTax: '148.40', capital: '壹佰肆拾捌圆肆角' });
  });

  it('computes a percentage discount from its line and follows the line when it changes', () => {
    const d = withLines(line({ quantity: '2', price: '50' }));
    const key = d.lines[0].key;
    const next = run(d, { type: 'setDiscount', key, discount: { mode: 'percent', value: '10' } });
    expect(computeAll(next.lines, true)[1]?.amountWithTax).toBe('-10.00');
    const more = run(next, { type: 'updateLine', key, patch: { quantity: '4' } });
    expect(computeAll(more.lines, true)[1]?.amountWithTax).toBe('-20.00');
    const rate = run(more, { type: 'updateLine', key, patch: { tax_rate: '0.13' } });
    expect(rate.lines[1].tax_rate).toBe('0.13');
  });

  it('removing a discounted line removes its discount line; removing the discount restores the line', () => {
    const d = withLines(line({ quantity: '1', price: '10' }), line({ name: 'B', quantity: '1', price: '5' }));
    const disc = run(d, {
      type: 'setDiscount',
      key: d.lines[0].key,
      discount: { mode: 'amount', value: '1' },
    });
    const gone = run(disc, { type: 'removeLine', key: disc.lines[0].key });
    expect(gone.lines.map((l) => [l.name, l.line_kind])).toEqual([['B', 0]]);
    const undo = run(disc, { type: 'removeLine', key: disc.lines[1].key });
    expect(undo.lines.map((l) => l.line_kind)).toEqual([0, 0]);
  });

  it('copies a line (without its discount) after the discount line', () => {
    const d = withLines(line({ quantity: '1', price: '10' }));
    const disc = run(d, {
      type: 'setDiscount',
      key: d.lines[0].key,
      discount: { mode: 'amount', value: '1' },
    });
    const copied = run(disc, { type: 'copyLine', key: disc.lines[0].key });
    expect(copied.lines.map((l) => l.line_kind)).toEqual([2, 1, 0]);
    expect(copied.lines[2]).toMatchObject({
      name: '软件开发服务',
      quantity: '1',
      price: '10',
      discount: null,
    });
    expect(copied.lines[2].key).not.toBe(copied.lines[0].key);
  });

  it('switching 含税 → 不含税 re-expresses every line and keeps the totals', () => {
    const d = withLines(line({ quantity: '3', price: '33.33' }), line({ driver: 'amount', amount: '106' }));
    const before = totalsOf(computeAll(d.lines, true));
    const excl = run(d, { type: 'priceMode', inclusive: false });
    expect(excl.price_includes_tax).toBe(false);
    expect(excl.lines[0].price).toBe('31.44333333');
    expect(excl.lines[1].amount).toBe('100.00');
    const after = totalsOf(computeAll(excl.lines, false));
    expect(after).toEqual(before);
    const back = run(excl, { type: 'priceMode', inclusive: true });
    expect(back.lines[1].amount).toBe('106.00');
    expect(totalsOf(computeAll(back.lines, true))).toEqual(before);
  });

  it('keeps one 06 property block per item line (discount lines excluded)', () => {
    const d = withLines(line({ quantity: '1', price: '10' }));
    const rent = run(d, { type: 'specific', code: '06' });
    expect(rent.rents).toHaveLength(1);
    const two = run(
      rent,
      { type: 'addLine' },
      { type: 'setDiscount', key: rent.lines[0].key, discount: { mode: 'amount', value: '1' } },
    );
    expect(two.lines).toHaveLength(3);
    expect(two.rents).toHaveLength(2);
    const none = run(two, { type: 'specific', code: null });
    expect(none.rents).toHaveLength(0);
  });

  it('03 keeps only the amount of a line (no spec, unit, quantity or price)', () => {
    const d = withLines(line({ spec: 'A', unit: '项', quantity: '2', price: '53' }));
    const next = run(d, { type: 'specific', code: '03' });
    expect(next.lines[0]).toMatchObject({
      spec: '',
      unit: '',
      quantity: '',
      price: '',
      amount: '106.00',
      driver: 'amount',
    });
    expect(totalsOf(computeAll(next.lines, true)).totalWithTax).toBe('106.00');
  });

  it('starts 04 and 09 with one row to fill', () => {
    const d = emptyDraft();
    expect(run(d, { type: 'specific', code: '04' }).transports).toHaveLength(1);
    expect(run(d, { type: 'specific', code: '09' }).passengers).toHaveLength(1);
  });
});
