import { checkInvoiceAmounts, computeLine, dec } from '@kaipiao/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseKind, parsePolicy, parseRate } from './build.ts';
import { type BatchLine, splitInvoice } from './split.ts';

function line(
  row: number,
  input: { quantity?: string | null; price?: string | null; amount?: string | null; rate?: string },
  includes = true,
): BatchLine {
  const rate = input.rate ?? '0.06';
  const computed = computeLine({
    priceIncludesTax: includes,
    taxRate: rate,
    quantity: input.quantity ?? null,
    price: input.price ?? null,
    amount: input.amount ?? null,
  });
  return {
    row,
    name: '服务',
    taxClassCode: '3040201010000000000',
    shortName: '信息技术服务',
    spec: '',
    unit: '',
    quantity: computed.quantity,
    price: input.price ?? null,
    taxRate: rate,
    zeroRateFlag: '',
    preferentialCode: '',
    computed,
  };
}

const entered = (l: BatchLine, includes: boolean) =>
  dec(includes ? l.computed.amountWithTax : l.computed.amount);

describe('splitInvoice (domain.md §7.1 per-invoice limit, line limits)', () => {
  it('leaves an invoice within both limits alone', () => {
    const r = splitInvoice([line(2, { amount: '106' })], {
      perInvoiceLimit: '1000',
      maxLines: 8,
      priceIncludesTax: true,
    });
    expect(r).toMatchObject({ ok: true, reasons: [] });
    if (r.ok) expect(r.parts).toHaveLength(1);
  });

  it('cuts a line by whole quantities at the same unit price', () => {
    const r = splitInvoice([line(2, { quantity: '5', price: '500' })], {
      perInvoiceLimit: '1000',
      maxLines: 8,
      priceIncludesTax: true,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.parts.map((p) => p.lines[0]!.quantity)).toEqual(['2', '2', '1']);
    expect(r.parts.map((p) => p.lines[0]!.computed.unitPriceWithTax)).toEqual(['500', '500', '500']);
    expect(r.parts.map((p) => p.lines[0]!.price)).toEqual(['500', '500', '500']);
    expect(r.reasons).toEqual(['amount']);
  });

  it('keeps a line within the limit as it is (a fractional quantity, its price) beside one that is cut', () => {
    const small = line(2, { quantity: '2.5', price: '100' });
    const r = splitInvoice([small, line(3, { amount: '1590' })], {
      perInvoiceLimit: '1000',
      maxLines: 8,
      priceIncludesTax: true,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.parts[0]!.lines[0]).toBe(small);
    expect(r.parts.flatMap((p) => p.lines.map((l) => [l.row, l.quantity, l.price]))).toEqual([
      [2, '2.5', '100'],
      [3, null, null],
      [3, null, null],
    ]);
  });

  it('cuts a line into exactly 1000 pieces, the most it may take', () => {
    const r = splitInvoice([line(4, { amount: '1000' }, false)], {
      perInvoiceLimit: '1',
      maxLines: 2000,
      priceIncludesTax: false,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.parts).toHaveLength(1000);
    expect(r.parts.every((p) => p.totals.totalAmount === '1.00')).toBe(true);
  });

  it('packs lines by the line limit', () => {
    const lines = Array.from({ length: 17 }, (_, i) => line(i + 2, { amount: '10' }));
    const r = splitInvoice(lines, { perInvoiceLimit: '99999', maxLines: 8, priceIncludesTax: true });
    expect(r.ok && r.parts.map((p) => p.lines.length)).toEqual([8, 8, 1]);
    expect(r.ok && r.reasons).toEqual(['lines']);
  });

  it('refuses a line that would need more than 1000 pieces', () => {
    const r = splitInvoice([line(7, { amount: '100000' })], {
      perInvoiceLimit: '1',
      maxLines: 8,
      priceIncludesTax: true,
    });
    expect(r).toMatchObject({ ok: false, row: 7 });
  });

  it('property: every part fits both limits, passes the bureau checks, and the parts add up', () => {
    const money = fc.integer({ min: 1, max: 5_000_000 }).map((c) => (c / 100).toFixed(2));
    const lineArb = fc.oneof(
      fc.record({ amount: money, rate: fc.constantFrom('0.13', '0.09', '0.06', '0.03', '0.01', '0') }),
      fc.record({
        quantity: fc.integer({ min: 1, max: 50 }).map(String),
        price: fc.integer({ min: 1, max: 100_000 }).map((c) => (c / 100).toFixed(2)),
        rate: fc.constantFrom('0.13', '0.06'),
      }),
      fc.record({
        quantity: fc.integer({ min: 1, max: 999 }).map((q) => (q / 10).toString()),
        amount: money,
        rate: fc.constantFrom('0.13', '0.06'),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 100, max: 2_000_000 }).map((c) => (c / 100).toFixed(2)),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        (inputs, limit, maxLines, includes) => {
          const lines = inputs.map((x, i) => line(i + 2, x, includes));
          const r = splitInvoice(lines, { perInvoiceLimit: limit, maxLines, priceIncludesTax: includes });
          if (!r.ok) {
            // refused for one of its lines, and only a line that had to be cut (over the limit)
            const refused = lines.find((l) => l.row === r.row);
            expect(refused, r.message).toBeDefined();
            expect(dec(refused!.computed.amount).greaterThan(limit)).toBe(true);
            return;
          }
          let sum = dec(0);
          for (const part of r.parts) {
            expect(part.lines.length).toBeLessThanOrEqual(maxLines);
            expect(dec(part.totals.totalAmount).lessThanOrEqualTo(limit)).toBe(true);
            const issues = checkInvoiceAmounts({
              direction: 'blue',
              lines: part.lines.map((l) => ({
                lineKind: 0,
                quantity: l.computed.quantity,
                unitPrice: l.computed.unitPrice,
                amount: l.computed.amount,
                taxRate: l.taxRate,
                taxAmount: l.computed.taxAmount,
                amountWithTax: l.computed.amountWithTax,
              })),
              totalAmount: part.totals.totalAmount,
              totalTax: part.totals.totalTax,
              totalWithTax: part.totals.totalWithTax,
            });
            expect(issues).toEqual([]);
            for (const l of part.lines) sum = sum.plus(entered(l, includes));
          }
          // what the clerk entered is what gets invoiced, to the cent
          const want = lines.reduce((s, l) => s.plus(entered(l, includes)), dec(0));
          expect(sum.toFixed(2)).toBe(want.toFixed(2));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('cell parsers', () => {
  it('reads rates as the template lists them, as numbers and as text', () => {
    expect(parseRate('13%')).toMatchObject({ rate: '0.13', zeroRateFlag: '' });
    expect(parseRate('0.06')).toMatchObject({ rate: '0.06' });
    expect(parseRate('6')).toMatchObject({ rate: '0.06' });
    expect(parseRate('1.5%')).toMatchObject({ rate: '0.015' });
    expect(parseRate('0%')).toMatchObject({ rate: '0', zeroRateFlag: '3' });
    expect(parseRate('免税')).toEqual({ rate: '0', zeroRateFlag: '1', preferentialCode: '03' });
    expect(parseRate('不征税')).toEqual({ rate: '0', zeroRateFlag: '2', preferentialCode: '04' });
    expect(parseRate('7%')).toBeNull();
    expect(parseRate('abc')).toBeNull();
  });

  it('reads kinds and policies by label, code or name', () => {
    expect(parseKind('数电普票')).toBe('82'); // glossary-allow: an earlier template's label, still read
    expect(parseKind('81')).toBe('81');
    expect(parseKind('电子发票（普通发票）')).toBe('82');
    expect(parseKind('增值税专用发票(004)')).toBe('004');
    expect(parseKind('发票')).toBeNull();
    expect(parsePolicy('01-简易征收')).toBe('01');
    expect(parsePolicy('3')).toBe('03');
    expect(parsePolicy('简易征收')).toBe('01');
    expect(parsePolicy('99')).toBeNull();
  });
});
