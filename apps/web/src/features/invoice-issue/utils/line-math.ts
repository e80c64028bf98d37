import {
  computeInvoiceTaxByTotal,
  computeLine,
  computeTotals,
  dec,
  fixed,
  invoiceTaxError,
  TAX_TOTAL_TOLERANCE,
  toChineseCapital,
  trimmed,
} from '@kaipiao/shared';
import type { DraftLine } from './types.ts';

// The form's numbers, always from the shared money functions (domain.md §2): the preview, the
// payload and the server agree to the cent because they run the same code.

export type LineNumbers = {
  quantity: string | null;
  /** tax-exclusive unit price (8 dp) */
  unitPrice: string | null;
  unitPriceWithTax: string | null;
  /** 金额 (tax-exclusive) */
  amount: string;
  taxAmount: string;
  amountWithTax: string;
};

const filled = (v: string) => v.trim() !== '';

/** A plain number as typed ("12", "0.5", "-3.2"), nothing else. */
export function isNumeric(value: string): boolean {
  return /^-?(\d+(\.\d*)?|\.\d+)$/.test(value.trim());
}

/** The discount amount (positive, current price mode) of a discount line given its discounted line. */
export function discountAmount(
  discount: DraftLine['discount'],
  parent: LineNumbers | null,
  inclusive: boolean,
) {
  if (!discount || !parent || !isNumeric(discount.value)) return null;
  if (discount.mode === 'amount') return fixed(discount.value);
  const base = inclusive ? parent.amountWithTax : parent.amount;
  return fixed(dec(base).times(dec(discount.value)).dividedBy(100));
}

/**
 * A line's amounts, or null while it is incomplete or not a number. Discount lines need their
 * discounted line's numbers (`parent`).
 */
export function computeDraftLine(
  line: DraftLine,
  inclusive: boolean,
  parent: LineNumbers | null = null,
): LineNumbers | null {
  if (!isNumeric(line.tax_rate)) return null;
  try {
    if (line.line_kind === 1) {
      const off = discountAmount(line.discount, parent, inclusive);
      if (off === null) return null;
      const r = computeLine({
        priceIncludesTax: inclusive,
        taxRate: line.tax_rate,
        amount: fixed(dec(off).negated()),
        lineKind: 1,
      });
      return { ...r, quantity: null, unitPrice: null, unitPriceWithTax: null };
    }
    const quantity = filled(line.quantity) ? line.quantity.trim() : null;
    if (quantity !== null && !isNumeric(quantity)) return null;
    if (line.driver === 'price') {
      if (quantity === null || !isNumeric(line.price)) return null;
      return computeLine({
        priceIncludesTax: inclusive,
        taxRate: line.tax_rate,
        quantity,
        price: line.price.trim(),
      });
    }
    if (!isNumeric(line.amount)) return null;
    if (quantity !== null && dec(quantity).isZero()) return null;
    return computeLine({
      priceIncludesTax: inclusive,
      taxRate: line.tax_rate,
      quantity,
      amount: line.amount.trim(),
    });
  } catch {
    return null;
  }
}

/**
 * Every line's numbers, discount lines computed against the line they follow. When every line
 * computes and per-line rounding would break the 1.27 rule, the tax is computed on the total and
 * spread over the lines, as the shared computeInvoice does (domain.md §2.3).
 */
export function computeAll(lines: readonly DraftLine[], inclusive: boolean): (LineNumbers | null)[] {
  const out: (LineNumbers | null)[] = [];
  lines.forEach((line, i) => {
    const parent = line.line_kind === 1 && i > 0 ? out[i - 1] : null;
    out.push(computeDraftLine(line, inclusive, parent));
  });
  if (!out.length || out.some((n) => n === null)) return out;
  const taxed = (out as LineNumbers[]).map((n, i) => ({
    ...n,
    taxRate: lines[i].tax_rate,
    lineKind: lines[i].line_kind,
  }));
  if (invoiceTaxError(taxed).abs().lte(TAX_TOTAL_TOLERANCE)) return out;
  return computeInvoiceTaxByTotal(taxed, { priceIncludesTax: inclusive }).map(
    ({ taxRate: _r, lineKind: _k, ...n }) => n,
  );
}

export type Totals = { totalAmount: string; totalTax: string; totalWithTax: string; capital: string };

/** 合计金额, 合计税额, 价税合计 and its 大写 over the lines that compute (incomplete ones count 0). */
export function totalsOf(numbers: readonly (LineNumbers | null)[]): Totals {
  const t = computeTotals(numbers.filter((n): n is LineNumbers => n !== null));
  let capital = '';
  try {
    capital = toChineseCapital(t.totalWithTax);
  } catch {
    capital = '';
  }
  return { ...t, capital };
}

/** What the price cell shows: as typed when it drives, else derived in the current mode. */
export function shownPrice(line: DraftLine, n: LineNumbers | null, inclusive: boolean): string {
  if (line.line_kind === 1) return '';
  if (line.driver === 'price') return line.price;
  const p = inclusive ? n?.unitPriceWithTax : n?.unitPrice;
  return p ? trimmed(p) : '';
}

/** What the amount cell shows: as typed when it drives, else derived in the current mode. */
export function shownAmount(line: DraftLine, n: LineNumbers | null, inclusive: boolean): string {
  if (line.line_kind !== 1 && line.driver === 'amount') return line.amount;
  if (!n) return '';
  return inclusive ? n.amountWithTax : n.amount;
}

/**
 * Re-expresses a line in the other price mode: prices and amounts become what they compute to, so
 * the clerk sees 不含税 figures after switching off 含税 (and back).
 */
export function convertLine(line: DraftLine, n: LineNumbers | null, toInclusive: boolean): DraftLine {
  if (line.line_kind === 1) {
    if (line.discount?.mode !== 'amount' || !n) return line;
    const value = toInclusive ? n.amountWithTax : n.amount;
    return { ...line, discount: { mode: 'amount', value: fixed(dec(value).negated()) } };
  }
  if (!n) return line;
  const price = toInclusive ? n.unitPriceWithTax : n.unitPrice;
  return {
    ...line,
    price: price ? trimmed(price) : line.price,
    amount: toInclusive ? n.amountWithTax : n.amount,
  };
}
