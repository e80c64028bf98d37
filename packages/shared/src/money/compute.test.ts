import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvoiceAmounts } from './check.ts';
import {
  type ComputedLine,
  computeInvoice,
  computeInvoiceTaxByTotal,
  computeLine,
  computeTotals,
  distributeDiscount,
  invoiceTaxError,
  makeDiscountLine,
  taxFromExclusive,
  taxFromInclusive,
} from './compute.ts';
import { Dec } from './decimal.ts';
import { TAX_RATES } from './rates.ts';

const RUNS = { numRuns: 300 };

/** Builds the check input of a blue invoice from computed lines. */
function invoiceOf(
  lines: (ComputedLine & { taxRate: string; lineKind?: 0 | 1 | 2 })[],
  direction: 'blue' | 'red' = 'blue',
) {
  return {
    direction,
    lines: lines.map((l) => ({ ...l, lineKind: l.lineKind ?? 0 })),
    ...computeTotals(lines),
  };
}

describe('computeLine — domain.md §2.3 worked examples (tax-inclusive entry)', () => {
  const rows = [
    { withTax: '106.00', rate: '0.06', amount: '100.00', tax: '6.00', error: '0' },
    { withTax: '100.00', rate: '0.13', amount: '88.50', tax: '11.50', error: '0.005' },
    { withTax: '10.00', rate: '0.01', amount: '9.90', tax: '0.10', error: '0.001' },
    { withTax: '99.99', rate: '0.06', amount: '94.33', tax: '5.66', error: '0.0002' },
    { withTax: '1000.00', rate: '0.03', amount: '970.87', tax: '29.13', error: '0.0039' },
    { withTax: '1000.00', rate: '0.01', amount: '990.10', tax: '9.90', error: '0.001' },
    { withTax: '1.00', rate: '0.13', amount: '0.88', tax: '0.12', error: '0.0056' },
  ];
  it.each(rows)(
    '含税 $withTax at $rate → 金额 $amount, 税额 $tax',
    ({ withTax, rate, amount, tax, error }) => {
      const line = computeLine({ priceIncludesTax: true, taxRate: rate, amount: withTax });
      expect(line).toEqual({
        quantity: null,
        unitPrice: null,
        unitPriceWithTax: null,
        amount,
        taxAmount: tax,
        amountWithTax: withTax,
      });
      // line error |金额×税率−税额| as the table prints it (4 decimals)
      expect(new Dec(amount).times(rate).minus(tax).abs().toDecimalPlaces(4).toString()).toBe(error);
      // method B (net first) gives the same split for these rows
      expect(new Dec(withTax).div(new Dec(rate).plus(1)).toDecimalPlaces(2).toFixed(2)).toBe(amount);
    },
  );

  it('unit price example: 3 × 含税 33.33 at 6% → 金额 94.33, 税额 5.66, 不含税单价 31.44333333', () => {
    expect(computeLine({ priceIncludesTax: true, taxRate: '0.06', quantity: '3', price: '33.33' })).toEqual({
      quantity: '3',
      unitPrice: '31.44333333',
      unitPriceWithTax: '33.33',
      amount: '94.33',
      taxAmount: '5.66',
      amountWithTax: '99.99',
    });
  });

  it('the [FPA] sample: 10.00 at 1% → hjje 9.90, hjse 0.10, jshj 10.00', () => {
    const line = computeLine({ priceIncludesTax: true, taxRate: '0.01', amount: '10' });
    expect(computeTotals([line])).toEqual({ totalAmount: '9.90', totalTax: '0.10', totalWithTax: '10.00' });
  });
});

describe('computeLine — entry modes', () => {
  it('tax-exclusive quantity × price: the entered price stays, tax on the amount', () => {
    expect(
      computeLine({ priceIncludesTax: false, taxRate: '0.13', quantity: '2.5', price: '39.99' }),
    ).toEqual({
      quantity: '2.5',
      unitPrice: '39.99',
      unitPriceWithTax: '45.192',
      amount: '99.98',
      taxAmount: '13.00',
      amountWithTax: '112.98',
    });
  });

  it('quantity × price wins over an entered amount', () => {
    const line = computeLine({
      priceIncludesTax: false,
      taxRate: '0.06',
      quantity: '2',
      price: '50',
      amount: '999',
    });
    expect(line.amount).toBe('100.00');
  });

  it('amount and quantity → price = amount / quantity with 8 decimals', () => {
    const line = computeLine({ priceIncludesTax: false, taxRate: '0.06', quantity: '3', amount: '100' });
    expect(line).toMatchObject({
      quantity: '3',
      unitPrice: '33.33333333',
      amount: '100.00',
      taxAmount: '6.00',
    });
    expect(line.unitPriceWithTax).toBe('35.33333333');
  });

  it('amount and price → quantity = amount / price', () => {
    const line = computeLine({ priceIncludesTax: true, taxRate: '0.13', price: '11.3', amount: '113' });
    expect(line).toMatchObject({
      quantity: '10',
      unitPriceWithTax: '11.3',
      unitPrice: '10',
      amount: '100.00',
    });
  });

  it('rounds the product half-up to cents and accepts 8-decimal quantities and prices', () => {
    // 0.125 × 1 = 0.125 → 0.13 (half-up), not banker's 0.12
    const line = computeLine({ priceIncludesTax: false, taxRate: '0', quantity: '1', price: '0.125' });
    expect(line.amount).toBe('0.13');
    const tiny = computeLine({
      priceIncludesTax: false,
      taxRate: '0.06',
      quantity: '0.00000001',
      price: '100000000',
    });
    expect(tiny).toMatchObject({
      quantity: '0.00000001',
      unitPrice: '100000000',
      amount: '1.00',
      taxAmount: '0.06',
    });
  });

  it('1.5% and 0.5% rates', () => {
    expect(computeLine({ priceIncludesTax: true, taxRate: '0.015', amount: '1015' })).toMatchObject({
      amount: '1000.00',
      taxAmount: '15.00',
    });
    expect(computeLine({ priceIncludesTax: true, taxRate: '0.005', amount: '201000' })).toMatchObject({
      amount: '200000.00',
      taxAmount: '1000.00',
    });
  });

  it('0% lines carry no tax', () => {
    expect(computeLine({ priceIncludesTax: true, taxRate: '0', amount: '88.8' })).toMatchObject({
      amount: '88.80',
      taxAmount: '0.00',
      amountWithTax: '88.80',
    });
  });

  it('discount lines: negative, no quantity or price, tax rounded half away from zero', () => {
    expect(
      computeLine({
        priceIncludesTax: true,
        taxRate: '0.13',
        amount: '-1.00',
        quantity: '1',
        price: '1',
        lineKind: 1,
      }),
    ).toEqual({
      quantity: null,
      unitPrice: null,
      unitPriceWithTax: null,
      amount: '-0.88',
      taxAmount: '-0.12',
      amountWithTax: '-1.00',
    });
  });

  it('red lines: the quantity takes the sign of the amount, the price stays positive', () => {
    expect(
      computeLine({ priceIncludesTax: false, taxRate: '0.06', quantity: '2', amount: '-100' }),
    ).toMatchObject({
      quantity: '-2',
      unitPrice: '50',
      amount: '-100.00',
      taxAmount: '-6.00',
    });
  });

  it('red lines: negative quantity with a positive price', () => {
    expect(
      computeLine({ priceIncludesTax: true, taxRate: '0.06', quantity: '-3', price: '33.33' }),
    ).toMatchObject({
      quantity: '-3',
      unitPrice: '31.44333333',
      amount: '-94.33',
      taxAmount: '-5.66',
      amountWithTax: '-99.99',
    });
  });

  it('refuses what cannot make a line, in Chinese', () => {
    expect(() => computeLine({ priceIncludesTax: true, taxRate: '0.06' })).toThrow(
      '请输入金额，或同时输入数量和单价',
    );
    expect(() =>
      computeLine({ priceIncludesTax: true, taxRate: '0.06', quantity: '0', amount: '1' }),
    ).toThrow('数量不能为0');
    expect(() => computeLine({ priceIncludesTax: true, taxRate: '6%', amount: '1' })).toThrow(
      '税率格式不正确',
    );
    expect(() => computeLine({ priceIncludesTax: true, taxRate: '1.2', amount: '1' })).toThrow('税率不正确');
    expect(() => computeLine({ priceIncludesTax: true, taxRate: '0.06', amount: '1e3' })).toThrow(
      '金额格式不正确',
    );
    expect(() => computeLine({ priceIncludesTax: true, taxRate: '0.06', lineKind: 1 })).toThrow(
      '请输入折扣金额',
    );
  });
});

describe('computeTotals', () => {
  it('sums lines and keeps 合计金额 + 合计税额 = 价税合计', () => {
    const lines = [
      computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '100' }),
      computeLine({ priceIncludesTax: true, taxRate: '0.06', amount: '99.99' }),
      computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '-10', lineKind: 1 }),
    ];
    expect(computeTotals(lines)).toEqual({
      totalAmount: '173.98',
      totalTax: '16.01',
      totalWithTax: '189.99',
    });
    expect(computeTotals([])).toEqual({ totalAmount: '0.00', totalTax: '0.00', totalWithTax: '0.00' });
  });
});

// ---------------------------------------------------------------------------------------------
// properties

const rateArb = fc.constantFrom(...TAX_RATES.map((r) => r.value));
/** 2-dp amounts from 0.01 to 1e8 */
const centsArb = fc.integer({ min: 1, max: 10_000_000_000 }).map((c) => new Dec(c).div(100).toFixed(2));
/** decimals with up to `dp` places in [lo, hi] */
const decArb = (lo: number, hi: number, dp: number) =>
  fc.integer({ min: lo * 10 ** dp, max: hi * 10 ** dp }).map((n) => new Dec(n).div(10 ** dp).toFixed());

const lineInputArb = fc.oneof(
  fc.record({ priceIncludesTax: fc.boolean(), taxRate: rateArb, amount: centsArb }),
  fc.record({
    priceIncludesTax: fc.boolean(),
    taxRate: rateArb,
    quantity: decArb(1, 10_000, 4),
    price: decArb(0, 10_000, 8),
  }),
  fc.record({
    priceIncludesTax: fc.boolean(),
    taxRate: rateArb,
    quantity: decArb(1, 100_000, 3),
    amount: centsArb,
  }),
);

describe('computeLine properties', () => {
  it('any computed line passes checkInvoiceAmounts as a one-line blue invoice', () => {
    fc.assert(
      fc.property(lineInputArb, (input) => {
        const line = computeLine(input);
        fc.pre(new Dec(line.amount).greaterThan(0)); // q × p may round to 0.00
        const issues = checkInvoiceAmounts(invoiceOf([{ ...line, taxRate: input.taxRate }]));
        expect(issues).toEqual([]);
        expect(new Dec(line.amount).plus(line.taxAmount).toFixed(2)).toBe(line.amountWithTax);
        if (input.priceIncludesTax && 'amount' in input && !('price' in input)) {
          expect(line.amountWithTax).toBe(input.amount);
        }
      }),
      RUNS,
    );
  });

  it('many random lines: totals identity holds and the invoice passes (spreading tax when needed)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(lineInputArb, { minLength: 1, maxLength: 30 }),
        (includes, inputs) => {
          const { lines, totals } = computeInvoice(inputs.map((l) => ({ ...l, priceIncludesTax: includes })));
          fc.pre(lines.every((l) => new Dec(l.amount).greaterThan(0)));
          expect(new Dec(totals.totalAmount).plus(totals.totalTax).toFixed(2)).toBe(totals.totalWithTax);
          expect(checkInvoiceAmounts({ direction: 'blue', lines, ...totals })).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('red copies of blue lines (negated) pass as a red invoice', () => {
    fc.assert(
      fc.property(fc.array(lineInputArb, { minLength: 1, maxLength: 10 }), (inputs) => {
        const lines = inputs.map((l) => {
          const neg = (v?: string) => (v === undefined ? undefined : new Dec(v).negated().toFixed());
          const red = 'price' in l ? { ...l, quantity: neg(l.quantity) } : { ...l, amount: neg(l.amount) };
          return { ...computeLine(red), taxRate: l.taxRate, lineKind: 0 as const };
        });
        fc.pre(lines.every((l) => new Dec(l.amount).lessThan(0)));
        expect(checkInvoiceAmounts(invoiceOf(lines, 'red'))).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('exclusive → inclusive round trip is exact; inclusive → exclusive moves the tax by at most one cent', () => {
    fc.assert(
      fc.property(rateArb, centsArb, (taxRate, amount) => {
        const ex = computeLine({ priceIncludesTax: false, taxRate, amount });
        const back = computeLine({ priceIncludesTax: true, taxRate, amount: ex.amountWithTax });
        expect(back).toEqual(ex);

        const inc = computeLine({ priceIncludesTax: true, taxRate, amount });
        const ex2 = computeLine({ priceIncludesTax: false, taxRate, amount: inc.amount });
        expect(ex2.amount).toBe(inc.amount);
        expect(new Dec(ex2.taxAmount).minus(inc.taxAmount).abs().lessThanOrEqualTo('0.01')).toBe(true);
        // and entering the inclusive result's 价税合计 again reproduces it
        expect(computeLine({ priceIncludesTax: true, taxRate, amount: inc.amountWithTax })).toEqual(inc);
      }),
      RUNS,
    );
  });

  it('quantity × derived price reproduces the amount within 0.01', () => {
    fc.assert(
      fc.property(
        rateArb,
        fc.boolean(),
        decArb(1, 100_000, 8),
        centsArb,
        (taxRate, includes, quantity, amount) => {
          const line = computeLine({ priceIncludesTax: includes, taxRate, quantity, amount });
          const q = new Dec(line.quantity as string);
          expect(
            q
              .times(line.unitPrice as string)
              .minus(line.amount)
              .abs()
              .lessThanOrEqualTo('0.01'),
          ).toBe(true);
          expect(
            q
              .times(line.unitPriceWithTax as string)
              .minus(line.amountWithTax)
              .abs()
              .lessThanOrEqualTo('0.01'),
          ).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// the 1.27 accumulation trap (domain.md §2.3)

function onesAt13(n: number) {
  return Array.from({ length: n }, () => ({
    ...computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '1.00' }),
    taxRate: '0.13',
    lineKind: 0 as const,
  }));
}

describe('1.27 accumulation trap', () => {
  it('200 lines of ¥1.00 at 13%: Σ金额 176.00, Σ税额 24.00, error −1.12 (still allowed)', () => {
    const lines = onesAt13(200);
    expect(computeTotals(lines)).toEqual({
      totalAmount: '176.00',
      totalTax: '24.00',
      totalWithTax: '200.00',
    });
    expect(invoiceTaxError(lines).toFixed(2)).toBe('-1.12');
    expect(checkInvoiceAmounts(invoiceOf(lines))).toEqual([]);
  });

  it('226 lines still pass, 227 lines break the rule and the check says so', () => {
    expect(checkInvoiceAmounts(invoiceOf(onesAt13(226)))).toEqual([]);
    expect(checkInvoiceAmounts(invoiceOf(onesAt13(227)))).toEqual([
      {
        field: 'invoice_info.total_tax',
        message: '税额累计误差超过1.27，请合并相同项目或按合计金额计算税额',
      },
    ]);
  });

  it('computeInvoiceTaxByTotal fixes 227 lines: tax on the total, cents spread, 价税合计 per line kept', () => {
    const fixed = computeInvoiceTaxByTotal(onesAt13(227), { priceIncludesTax: true });
    const totals = computeTotals(fixed);
    // 227 / 1.13 × 0.13 = 26.115… → 26.12
    expect(totals).toEqual({ totalAmount: '200.88', totalTax: '26.12', totalWithTax: '227.00' });
    expect(fixed.every((l) => l.amountWithTax === '1.00')).toBe(true);
    expect(fixed.filter((l) => l.taxAmount === '0.11')).toHaveLength(112);
    expect(checkInvoiceAmounts({ direction: 'blue', lines: fixed, ...totals })).toEqual([]);
    expect(invoiceTaxError(fixed).abs().lessThanOrEqualTo('0.01')).toBe(true);
  });

  it('computeInvoice spreads only when the rule would break', () => {
    const few = computeInvoice(
      Array.from({ length: 226 }, () => ({ priceIncludesTax: true, taxRate: '0.13', amount: '1' })),
    );
    expect(few.spread).toBe(false);
    expect(few.totals.totalTax).toBe('27.12');
    const many = computeInvoice(
      Array.from({ length: 1000 }, () => ({ priceIncludesTax: true, taxRate: '0.13', amount: '1' })),
    );
    expect(many.spread).toBe(true);
    expect(checkInvoiceAmounts({ direction: 'blue', lines: many.lines, ...many.totals })).toEqual([]);
  });

  it('tax-exclusive lines: 金额 kept, 价税合计 absorbs the cent', () => {
    const lines = Array.from({ length: 300 }, () => ({
      ...computeLine({ priceIncludesTax: false, taxRate: '0.13', amount: '0.88' }),
      taxRate: '0.13',
    }));
    expect(checkInvoiceAmounts(invoiceOf(lines))).toHaveLength(1);
    const fixed = computeInvoiceTaxByTotal(lines, { priceIncludesTax: false });
    expect(fixed.every((l) => l.amount === '0.88')).toBe(true);
    expect(computeTotals(fixed)).toEqual({
      totalAmount: '264.00',
      totalTax: '34.32',
      totalWithTax: '298.32',
    });
    expect(checkInvoiceAmounts(invoiceOf(fixed))).toEqual([]);
  });

  it('property: spreading keeps each line within 0.06 and the invoice within 1.27, per rate', () => {
    const small = fc.integer({ min: 1, max: 500 }).map((c) => new Dec(c).div(100).toFixed(2));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(
          fc.record({ taxRate: rateArb, amount: small, quantity: fc.constantFrom(undefined, '1', '3') }),
          {
            minLength: 200,
            maxLength: 400,
          },
        ),
        (includes, inputs) => {
          const lines = inputs.map((l) => ({
            ...computeLine({ ...l, priceIncludesTax: includes }),
            taxRate: l.taxRate,
          }));
          const fixed = computeInvoiceTaxByTotal(lines, { priceIncludesTax: includes });
          fc.pre(fixed.every((l) => new Dec(l.amount).greaterThan(0)));
          expect(checkInvoiceAmounts(invoiceOf(fixed))).toEqual([]);
          expect(invoiceTaxError(fixed).abs().lessThanOrEqualTo('0.06')).toBe(true);
          fixed.forEach((l, i) => {
            // only 税额 (and the side that absorbs it) moves, by cents
            expect(new Dec(l.taxAmount).minus(lines[i].taxAmount).abs().lessThanOrEqualTo('0.02')).toBe(true);
            if (includes) expect(l.amountWithTax).toBe(lines[i].amountWithTax);
            else expect(l.amount).toBe(lines[i].amount);
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// discounts (domain.md §2.4)

describe('discount lines', () => {
  const goods = (amount: string, taxRate = '0.13', name = '商品') => ({
    ...computeLine({ priceIncludesTax: true, taxRate, amount }),
    taxRate,
    name,
    spec: 'A-1',
    unit: '件',
    lineKind: 0 as const,
  });

  it('makeDiscountLine copies the line, empties spec/unit/quantity/price, negative amounts', () => {
    const line = { ...goods('100'), quantity: '2', unitPrice: '44.25', unitPriceWithTax: '50' };
    expect(makeDiscountLine(line, '10', { priceIncludesTax: true })).toEqual({
      name: '商品',
      spec: '',
      unit: '',
      taxRate: '0.13',
      lineKind: 1,
      quantity: null,
      unitPrice: null,
      unitPriceWithTax: null,
      amount: '-8.85',
      taxAmount: '-1.15',
      amountWithTax: '-10.00',
    });
    expect(() => makeDiscountLine(line, '100.01', { priceIncludesTax: true })).toThrow(
      '折扣金额不能大于被折扣行金额',
    );
    expect(() => makeDiscountLine(line, '0', { priceIncludesTax: true })).toThrow('折扣金额须大于0');
  });

  it('distributeDiscount: proportional shares, last line takes the remainder, pairs in order', () => {
    const lines = [goods('100'), goods('200', '0.06'), goods('33.33', '0.09')];
    const out = distributeDiscount(lines, '50', { priceIncludesTax: true });
    expect(out.map((l) => [l.lineKind, l.amountWithTax, l.taxRate])).toEqual([
      [2, '100.00', '0.13'],
      [1, '-15.00', '0.13'], // 50 × 100/333.33 = 15.0001…
      [2, '200.00', '0.06'],
      [1, '-30.00', '0.06'], // 30.0003…
      [2, '33.33', '0.09'],
      [1, '-5.00', '0.09'], // remainder
    ]);
    expect(checkInvoiceAmounts(invoiceOf(out))).toEqual([]);
  });

  it('distributeDiscount: the whole order can be discounted, tax-exclusive entry too', () => {
    const lines = [goods('0.01'), goods('0.01'), goods('0.01')].map((l) => ({ ...l, taxRate: '0.06' }));
    const out = distributeDiscount(lines, '0.03', { priceIncludesTax: false });
    expect(out.filter((l) => l.lineKind === 1).map((l) => l.amount)).toEqual(['-0.01', '-0.01', '-0.01']);
    expect(() => distributeDiscount(lines, '0.04', { priceIncludesTax: false })).toThrow(
      '折扣金额不能大于可折扣的项目金额合计',
    );
  });

  it('distributeDiscount leaves already discounted pairs alone', () => {
    const first = { ...goods('100'), lineKind: 2 as const };
    const lines = [first, makeDiscountLine(first, '10', { priceIncludesTax: true }), goods('50')];
    const out = distributeDiscount(lines, '5', { priceIncludesTax: true });
    expect(out.map((l) => [l.lineKind, l.amountWithTax])).toEqual([
      [2, '100.00'],
      [1, '-10.00'],
      [2, '50.00'],
      [1, '-5.00'],
    ]);
  });

  it('property: Σ discount = the order discount, each ≤ its line, the invoice passes', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.record({ taxRate: rateArb, amount: centsArb }), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0.0001, max: 1, noNaN: true }),
        (includes, inputs, fraction) => {
          const lines = inputs.map((l) => ({
            ...computeLine({ ...l, priceIncludesTax: includes }),
            taxRate: l.taxRate,
          }));
          const base = (l: ComputedLine) => new Dec(includes ? l.amountWithTax : l.amount);
          const sum = lines.reduce((a, l) => a.plus(base(l)), new Dec(0));
          const discount = sum.times(fraction.toFixed(4)).toDecimalPlaces(2, Dec.ROUND_DOWN);
          fc.pre(discount.greaterThan(0) && discount.lessThan(sum));
          const out = distributeDiscount(lines, discount, { priceIncludesTax: includes });
          const discounts = out.filter((l) => l.lineKind === 1);
          expect(
            discounts
              .reduce((a, l) => a.plus(base(l)), new Dec(0))
              .negated()
              .toFixed(2),
          ).toBe(discount.toFixed(2));
          out.forEach((l, i) => {
            if (l.lineKind === 1) {
              expect(out[i - 1].lineKind).toBe(2);
              expect(
                base(l)
                  .abs()
                  .lessThanOrEqualTo(base(out[i - 1])),
              ).toBe(true);
            }
          });
          const totals = computeTotals(out);
          if (new Dec(totals.totalAmount).greaterThan(0))
            expect(checkInvoiceAmounts(invoiceOf(out))).toEqual([]);
        },
      ),
      RUNS,
    );
  });
});

describe('computeLine — blanks, errors and derived values', () => {
  it('null, empty and blank quantity or price count as not given', () => {
    for (const blank of [null, '', '  ', undefined]) {
      expect(
        computeLine({
          priceIncludesTax: true,
          taxRate: '0.13',
          amount: '113',
          quantity: blank,
          price: blank,
        }),
        String(blank),
      ).toEqual({
        quantity: null,
        unitPrice: null,
        unitPriceWithTax: null,
        amount: '100.00',
        taxAmount: '13.00',
        amountWithTax: '113.00',
      });
    }
  });

  it('names the field that cannot be read', () => {
    expect(() =>
      computeLine({ priceIncludesTax: true, taxRate: '0.13', quantity: '2件', price: '5' }),
    ).toThrow('数量格式不正确');
    expect(() =>
      computeLine({ priceIncludesTax: true, taxRate: '0.13', quantity: '2', price: '¥5' }),
    ).toThrow('单价格式不正确');
    expect(() => taxFromInclusive('113', '13%')).toThrow('税率格式不正确');
    expect(() => taxFromExclusive('100', '13%')).toThrow('税率格式不正确');
    expect(() => computeTotals([{ amount: '100.00', taxAmount: '13.0O' }])).toThrow('税额格式不正确');
    expect(() => invoiceTaxError([{ amount: '100.00', taxAmount: '13.00', taxRate: 'x' }])).toThrow(
      '税率格式不正确',
    );
    expect(() => invoiceTaxError([{ amount: '100.00', taxAmount: 'x', taxRate: '0.13' }])).toThrow(
      '税额格式不正确',
    );
  });

  it('a tax-inclusive entered price stays the tax-inclusive unit price even when the product rounds', () => {
    // 3 × 0.333 = 0.999 → 价税合计 1.00; the price as entered is kept, not 1.00 / 3
    expect(
      computeLine({ priceIncludesTax: true, taxRate: '0.13', quantity: '3', price: '0.333' }),
    ).toMatchObject({
      unitPriceWithTax: '0.333',
      amountWithTax: '1.00',
    });
  });

  it('a quantity that rounds to 0 is dropped, with the unit prices', () => {
    expect(
      computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: '0.01', price: '100000000000' }),
    ).toEqual({
      quantity: null,
      unitPrice: null,
      unitPriceWithTax: null,
      amount: '0.01',
      taxAmount: '0.00',
      amountWithTax: '0.01',
    });
  });
});

describe('computeInvoiceTaxByTotal — which line takes the cent', () => {
  const at13 = (amount: string, lineKind: 0 | 1 | 2 = 0) => ({
    ...computeLine({
      priceIncludesTax: true,
      taxRate: '0.13',
      amount,
      lineKind: lineKind === 1 ? 1 : undefined,
    }),
    taxRate: '0.13',
    lineKind,
  });

  it('two lines of ¥1.00: tax on the total is 0.23, the first line gives up the cent', () => {
    const out = computeInvoiceTaxByTotal([at13('1.00'), at13('1.00')], { priceIncludesTax: true });
    expect(out.map((l) => [l.amount, l.taxAmount, l.amountWithTax])).toEqual([
      ['0.89', '0.11', '1.00'],
      ['0.88', '0.12', '1.00'],
    ]);
  });

  it('normal lines before discounted lines before discount lines, whatever their rounding', () => {
    // the discounted line's own rounding is further off, but a normal line takes the cent first
    const out = computeInvoiceTaxByTotal([at13('0.05', 2), at13('-0.04', 1), at13('0.5')], {
      priceIncludesTax: true,
    });
    expect(out.map((l) => l.taxAmount)).toEqual(['0.01', '0.00', '0.05']);
    expect(out.map((l) => l.amountWithTax)).toEqual(['0.05', '-0.04', '0.50']);
  });

  it('a group that needs no cent is returned as given', () => {
    const loose = {
      amount: '100',
      taxAmount: '13',
      amountWithTax: '113',
      taxRate: '0.13',
      quantity: '1',
      unitPrice: '100',
      unitPriceWithTax: '113',
    };
    expect(computeInvoiceTaxByTotal([loose], { priceIncludesTax: false })).toEqual([loose]);
  });

  it('0% lines are left as they are, even with a tax on them', () => {
    const zero = {
      amount: '100.00',
      taxAmount: '0.05',
      amountWithTax: '100.05',
      taxRate: '0',
      quantity: null,
      unitPrice: null,
      unitPriceWithTax: null,
    };
    expect(computeInvoiceTaxByTotal([zero], { priceIncludesTax: true })).toEqual([zero]);
  });

  it('tax-exclusive with quantities: the unit price stays, the tax-inclusive unit price follows the cent', () => {
    const lines = Array.from({ length: 3 }, () => ({
      ...computeLine({ priceIncludesTax: false, taxRate: '0.13', quantity: '2', price: '0.44' }),
      taxRate: '0.13',
    }));
    // each 0.88 × 13% = 0.1144 → 0.11; on the total 0.3432 → 0.34: one more cent on the first line
    const out = computeInvoiceTaxByTotal(lines, { priceIncludesTax: false });
    expect(out.map((l) => [l.amount, l.taxAmount, l.amountWithTax, l.unitPrice, l.unitPriceWithTax])).toEqual(
      [
        ['0.88', '0.12', '1.00', '0.44', '0.5'],
        ['0.88', '0.11', '0.99', '0.44', '0.495'],
        ['0.88', '0.11', '0.99', '0.44', '0.495'],
      ],
    );
  });

  it('names what it cannot read', () => {
    const l = at13('1.00');
    expect(() => computeInvoiceTaxByTotal([{ ...l, taxRate: 'x' }], { priceIncludesTax: true })).toThrow(
      '税率格式不正确',
    );
    expect(() => computeInvoiceTaxByTotal([{ ...l, taxAmount: 'x' }], { priceIncludesTax: true })).toThrow(
      '税额格式不正确',
    );
    expect(() =>
      computeInvoiceTaxByTotal([l, { ...at13('1.00'), quantity: '1件' }], { priceIncludesTax: true }),
    ).toThrow('数量格式不正确');
  });
});

describe('computeInvoice — line kinds and the entry mode of a spread', () => {
  it('lines without a kind are normal lines; kinds given are kept', () => {
    const out = computeInvoice([
      { priceIncludesTax: true, taxRate: '0.13', amount: '100', lineKind: 2 as const },
      { priceIncludesTax: true, taxRate: '0.13', amount: '-10', lineKind: 1 as const },
      { priceIncludesTax: true, taxRate: '0.06', amount: '50' },
    ]);
    expect(out.lines.map((l) => l.lineKind)).toEqual([2, 1, 0]);
  });

  it('spreads tax-inclusive lines as tax-inclusive: every 价税合计 stays', () => {
    const many = computeInvoice(
      Array.from({ length: 300 }, () => ({ priceIncludesTax: true, taxRate: '0.13', amount: '1' })),
    );
    expect(many.spread).toBe(true);
    expect(many.lines.every((l) => l.amountWithTax === '1.00')).toBe(true);
    expect(many.totals.totalWithTax).toBe('300.00');
  });
});

describe('discount lines — edges', () => {
  const plain = (amountWithTax: string) => ({
    ...computeLine({ priceIncludesTax: true, taxRate: '0.13', amount: amountWithTax }),
    taxRate: '0.13',
  });

  it('makeDiscountLine adds no spec or unit the line did not have, and clears a price it had', () => {
    const noSpec = makeDiscountLine(plain('100'), '10', { priceIncludesTax: true });
    expect('spec' in noSpec || 'unit' in noSpec || 'price' in noSpec).toBe(false);
    const withPrice = makeDiscountLine({ ...plain('100'), price: '100' }, '10', { priceIncludesTax: true });
    expect(withPrice.price).toBeNull();
    expect(() => makeDiscountLine(plain('100'), '十', { priceIncludesTax: true })).toThrow(
      '折扣金额格式不正确',
    );
  });

  it('distributeDiscount refuses a discount of 0 or below, or unreadable', () => {
    const lines = [plain('100')];
    expect(() => distributeDiscount(lines, '0', { priceIncludesTax: true })).toThrow('折扣金额须大于0');
    expect(() => distributeDiscount(lines, '-5', { priceIncludesTax: true })).toThrow('折扣金额须大于0');
    expect(() => distributeDiscount(lines, '0.004', { priceIncludesTax: true })).toThrow('折扣金额须大于0');
    expect(() => distributeDiscount(lines, 'x', { priceIncludesTax: true })).toThrow('折扣金额格式不正确');
  });

  it('a last line too small for its remainder passes the excess back to the first line with room', () => {
    // shares 0.22, 0.01, 0.01 leave 0.02 for a 0.01 line: the extra cent goes to the 0.30 line
    const out = distributeDiscount([plain('0.30'), plain('0.02'), plain('0.02'), plain('0.01')], '0.26', {
      priceIncludesTax: true,
    });
    expect(out.filter((l) => l.lineKind === 1).map((l) => l.amountWithTax)).toEqual([
      '-0.23',
      '-0.01',
      '-0.01',
      '-0.01',
    ]);
    expect(checkInvoiceAmounts(invoiceOf(out))).toEqual([]);
  });
});
