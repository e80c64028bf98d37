import { TERMS } from '../glossary/terms.ts';
import { Dec, type DecimalInput, dec, fixed, trimmed } from './decimal.ts';

/** 0 正常行, 1 折扣行 (follows its discounted line), 2 被折扣行 (domain.md §2.4). */
export type LineKind = 0 | 1 | 2;

export interface LineInput {
  /** true: `price`/`amount` as entered include tax (含税, hsbz=1) */
  priceIncludesTax: boolean;
  /** "0.06" */
  taxRate: string;
  quantity?: string | null;
  /** unit price as entered (incl. tax when priceIncludesTax) */
  price?: string | null;
  /** amount as entered (incl. tax when priceIncludesTax); ignored when quantity and price are both given */
  amount?: string | null;
  lineKind?: LineKind;
}

export interface ComputedLine {
  quantity: string | null;
  /** tax-exclusive unit price, at most 8 decimals, trailing zeros trimmed */
  unitPrice: string | null;
  /** tax-inclusive unit price, at most 8 decimals, trailing zeros trimmed */
  unitPriceWithTax: string | null;
  /** 金额 (tax-exclusive), 2 decimals */
  amount: string;
  /** 税额, 2 decimals */
  taxAmount: string;
  /** 价税合计 of the line = amount + taxAmount, 2 decimals */
  amountWithTax: string;
}

const blank = (v: string | null | undefined): v is null | undefined | '' =>
  v === null || v === undefined || String(v).trim() === '';

/** Tax of a tax-inclusive amount: round(含税 / (1 + r) × r, 2) (domain.md §2.1). */
export function taxFromInclusive(amountWithTax: DecimalInput, rate: DecimalInput): Dec {
  const r = dec(rate, TERMS.taxRate);
  return dec(amountWithTax).div(r.plus(1)).times(r).toDecimalPlaces(2);
}

/** Tax of a tax-exclusive amount: round(金额 × r, 2). */
export function taxFromExclusive(amount: DecimalInput, rate: DecimalInput): Dec {
  return dec(amount).times(dec(rate, TERMS.taxRate)).toDecimalPlaces(2);
}

/** Builds the line from its tax-exclusive amount and tax (both already 2 dp). */
function finishLine(
  quantity: Dec | null,
  amount: Dec,
  tax: Dec,
  enteredPrice: Dec | null,
  includes: boolean,
) {
  const withTax = amount.plus(tax);
  let unitPrice: string | null = null;
  let unitPriceWithTax: string | null = null;
  if (quantity && !quantity.isZero()) {
    unitPrice = !includes && enteredPrice ? trimmed(enteredPrice) : trimmed(amount.div(quantity));
    unitPriceWithTax = includes && enteredPrice ? trimmed(enteredPrice) : trimmed(withTax.div(quantity));
  }
  return {
    quantity: quantity ? trimmed(quantity) : null,
    unitPrice,
    unitPriceWithTax,
    amount: fixed(amount),
    taxAmount: fixed(tax),
    amountWithTax: fixed(withTax),
  };
}

/**
 * One invoice line (domain.md §2.1). quantity × price gives the amount when both are entered;
 * otherwise price = amount / quantity (8 dp; the quantity takes the sign of the amount, so red lines
 * keep a positive price), or quantity = amount / price. Tax-inclusive entry:
 * 税额 = round(含税/(1+r)×r, 2), 金额 = 含税 − 税额. Tax-exclusive: 金额 = round(entered, 2),
 * 税额 = round(金额×r, 2). Discount lines (lineKind 1) carry no quantity or price and a negative amount.
 * Throws an Error with a Chinese message when the input cannot produce a line.
 */
export function computeLine(input: LineInput): ComputedLine {
  const rate = dec(input.taxRate, TERMS.taxRate);
  if (rate.isNegative() || rate.greaterThanOrEqualTo(1)) throw new Error(`${TERMS.taxRate}不正确`);
  const includes = input.priceIncludesTax;
  let quantity: Dec | null = null;
  let price: Dec | null = null;
  let entered: Dec;

  if (input.lineKind === 1) {
    if (blank(input.amount)) throw new Error(`请输入折扣${TERMS.amount}`);
    entered = dec(input.amount as string).toDecimalPlaces(2);
  } else {
    if (!blank(input.quantity)) quantity = dec(input.quantity as string, TERMS.quantity);
    if (!blank(input.price)) price = dec(input.price as string, TERMS.unitPrice);
    if (quantity?.isZero()) throw new Error(`${TERMS.quantity}不能为0`);
    if (quantity && price) {
      entered = quantity.times(price).toDecimalPlaces(2);
    } else if (!blank(input.amount)) {
      entered = dec(input.amount as string).toDecimalPlaces(2);
      if (!quantity && price && !price.isZero()) quantity = entered.div(price).toDecimalPlaces(8);
      if (quantity?.isZero()) quantity = null;
      // red lines: the quantity carries the sign, the price stays positive
      if (quantity && !price && !entered.isZero() && entered.isNegative() !== quantity.isNegative())
        quantity = quantity.negated();
    } else {
      throw new Error(`请输入${TERMS.amount}，或同时输入${TERMS.quantity}和${TERMS.unitPrice}`);
    }
  }

  if (includes) {
    const tax = taxFromInclusive(entered, rate);
    return finishLine(quantity, entered.minus(tax), tax, price, true);
  }
  return finishLine(quantity, entered, taxFromExclusive(entered, rate), price, false);
}

export interface Totals {
  /** 合计金额 */
  totalAmount: string;
  /** 合计税额 */
  totalTax: string;
  /** 价税合计 = totalAmount + totalTax exactly */
  totalWithTax: string;
}

/** 合计金额 = Σ金额, 合计税额 = Σ税额, 价税合计 = their sum (so the identity holds exactly). */
export function computeTotals(lines: readonly { amount: string; taxAmount: string }[]): Totals {
  let amount = new Dec(0);
  let tax = new Dec(0);
  for (const l of lines) {
    amount = amount.plus(dec(l.amount));
    tax = tax.plus(dec(l.taxAmount, TERMS.taxAmount));
  }
  return { totalAmount: fixed(amount), totalTax: fixed(tax), totalWithTax: fixed(amount.plus(tax)) };
}

/** Σ(金额 × 税率) − Σ税额 over the lines: the 汇总税额 error the bureau caps at 1.27. */
export function invoiceTaxError(
  lines: readonly { amount: string; taxAmount: string; taxRate: string }[],
): Dec {
  let exact = new Dec(0);
  let tax = new Dec(0);
  for (const l of lines) {
    exact = exact.plus(dec(l.amount).times(dec(l.taxRate, TERMS.taxRate)));
    tax = tax.plus(dec(l.taxAmount, TERMS.taxAmount));
  }
  return exact.minus(tax);
}

export type TaxedLine = ComputedLine & { taxRate: string; lineKind?: LineKind | null };

/**
 * Computes tax per rate on the invoice total and spreads the rounding difference over the lines, one
 * cent at a time, onto the lines whose own rounding moved furthest the other way (domain.md §2.3 trap).
 * Tax-inclusive: each line's 价税合计 stays, 金额 absorbs the cent; tax-exclusive: 金额 stays, 价税合计
 * moves. Every line stays within ±0.02 of its exact tax (rule: 0.06), the invoice within ±0.01 per rate.
 */
export function computeInvoiceTaxByTotal<T extends TaxedLine>(
  lines: readonly T[],
  opts: { priceIncludesTax: boolean },
): T[] {
  const out = lines.map((l) => ({ ...l }));
  const groups = new Map<string, number[]>();
  out.forEach((l, i) => {
    const key = dec(l.taxRate, TERMS.taxRate).toFixed();
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  for (const [key, idx] of groups) {
    const rate = new Dec(key);
    if (rate.isZero()) continue;
    const exactOf = (i: number) =>
      opts.priceIncludesTax
        ? dec(out[i].amountWithTax).div(rate.plus(1)).times(rate)
        : dec(out[i].amount).times(rate);
    const exact = idx.map(exactOf);
    const target = exact.reduce((a, b) => a.plus(b), new Dec(0)).toDecimalPlaces(2);
    const taxes = idx.map((i) => dec(out[i].taxAmount, TERMS.taxAmount));
    let diffCents = target
      .minus(taxes.reduce((a, b) => a.plus(b), new Dec(0)))
      .times(100)
      .toNumber();
    if (diffCents === 0) continue;
    // Stryker disable next-line EqualityOperator: diffCents is never 0 here (the line above continues)
    const step = new Dec(diffCents > 0 ? '0.01' : '-0.01');
    // Prefer normal lines, then discounted, then discount lines; within a class, the line whose
    // exact tax lies furthest in the direction we move.
    const klass = idx.map((i) => (out[i].lineKind === 1 ? 2 : out[i].lineKind === 2 ? 1 : 0));
    const gain = idx.map((_, k) => exact[k].minus(taxes[k]).times(step.s));
    const order = idx
      .map((_, k) => k)
      .sort(
        // Stryker disable next-line ArithmeticOperator: for ties a + b > 0 and V8's sort then keeps index order, as a − b does (3000 random key arrays checked)
        (a, b) => klass[a] - klass[b] || gain[b].comparedTo(gain[a]) || a - b,
      );
    for (let n = 0; diffCents !== 0; n++) {
      const k = order[n % order.length];
      taxes[k] = taxes[k].plus(step);
      diffCents -= step.s;
    }
    idx.forEach((i, k) => {
      const line = out[i];
      const qty = line.quantity === null ? null : dec(line.quantity, TERMS.quantity);
      const tax = taxes[k];
      const amount = opts.priceIncludesTax ? dec(line.amountWithTax).minus(tax) : dec(line.amount);
      const withTax = amount.plus(tax);
      line.amount = fixed(amount);
      line.taxAmount = fixed(tax);
      line.amountWithTax = fixed(withTax);
      if (qty && !qty.isZero()) {
        if (opts.priceIncludesTax) line.unitPrice = trimmed(amount.div(qty));
        else line.unitPriceWithTax = trimmed(withTax.div(qty));
      }
    });
  }
  return out;
}

/**
 * Computes all lines and the totals; when the per-line rounding would break the 1.27 rule (many
 * small lines, domain.md §2.3) the tax is computed on the total instead (computeInvoiceTaxByTotal).
 */
export function computeInvoice<T extends LineInput>(
  lines: readonly T[],
): {
  lines: (Omit<T, keyof ComputedLine | 'lineKind'> &
    ComputedLine & { taxRate: string; lineKind: LineKind })[];
  totals: Totals;
  spread: boolean;
} {
  let computed = lines.map((l) => ({ ...l, ...computeLine(l), lineKind: l.lineKind ?? 0 }));
  let spread = false;
  if (invoiceTaxError(computed).abs().greaterThan(TAX_TOTAL_TOLERANCE)) {
    // Stryker disable next-line LogicalOperator,OptionalChaining,BooleanLiteral: lines is non-empty when spreading and priceIncludesTax is a required boolean
    computed = computeInvoiceTaxByTotal(computed, { priceIncludesTax: lines[0]?.priceIncludesTax ?? true });
    spread = true;
  }
  return { lines: computed, totals: computeTotals(computed), spread };
}

/** Bureau tolerances (domain.md §2.2). */
export const LINE_AMOUNT_TOLERANCE = '0.01';
export const LINE_TAX_TOLERANCE = '0.06';
export const TAX_TOTAL_TOLERANCE = '1.27';
export const TOTAL_AMOUNT_TOLERANCE = '0.01';

/** Keys a discount line must leave empty (规格型号/单位/数量/单价, domain.md §2.4). */
const DISCOUNT_EMPTY_KEYS = ['spec', 'unit'] as const;

/**
 * The discount line for one line (domain.md §2.4): same fields as the discounted line, no quantity,
 * price, spec or unit, negative amount. `discount` is positive, in the entry mode's terms (含税 when
 * priceIncludesTax), and may not exceed the line.
 */
export function makeDiscountLine<T extends TaxedLine>(
  line: T,
  discount: DecimalInput,
  opts: { priceIncludesTax: boolean },
): Omit<T, 'lineKind'> & { lineKind: 1 } {
  const d = dec(discount, `折扣${TERMS.amount}`).toDecimalPlaces(2);
  const base = dec(opts.priceIncludesTax ? line.amountWithTax : line.amount);
  if (!d.greaterThan(0)) throw new Error(`折扣${TERMS.amount}须大于0`);
  if (d.greaterThan(base)) throw new Error(`折扣${TERMS.amount}不能大于被折扣行${TERMS.amount}`);
  const computed = computeLine({
    priceIncludesTax: opts.priceIncludesTax,
    taxRate: line.taxRate,
    amount: d.negated().toFixed(2),
    lineKind: 1,
  });
  const result = { ...line, ...computed, lineKind: 1 } as unknown as Record<string, unknown>;
  for (const key of DISCOUNT_EMPTY_KEYS) if (key in result) result[key] = '';
  if ('price' in result) result.price = null;
  return result as unknown as Omit<T, 'lineKind'> & { lineKind: 1 };
}

/**
 * Spreads an order discount over the normal lines proportionally to their amounts (含税 when
 * priceIncludesTax), the last line taking the rounding remainder (the Odoo model, domain.md §2.4).
 * Each discounted line becomes lineKind 2 and is directly followed by its discount line (lineKind 1).
 * Lines already discounted (kind 1/2) are kept as they are and take no share.
 */
export function distributeDiscount<T extends TaxedLine>(
  lines: readonly T[],
  discount: DecimalInput,
  opts: { priceIncludesTax: boolean },
): (Omit<T, 'lineKind'> & { lineKind: LineKind })[] {
  const total = dec(discount, `折扣${TERMS.amount}`).toDecimalPlaces(2);
  if (!total.greaterThan(0)) throw new Error(`折扣${TERMS.amount}须大于0`);
  const baseOf = (l: T) => dec(opts.priceIncludesTax ? l.amountWithTax : l.amount);
  const eligible = lines
    .map((_l, i) => i)
    .filter((i) => (lines[i].lineKind ?? 0) === 0 && baseOf(lines[i]).greaterThan(0));
  const sum = eligible.reduce((a, i) => a.plus(baseOf(lines[i])), new Dec(0));
  // Stryker disable next-line ConditionalExpression: with no eligible line sum is 0 < total, so the test after || throws the same error
  if (eligible.length === 0 || total.greaterThan(sum))
    throw new Error(`折扣${TERMS.amount}不能大于可折扣的项目${TERMS.amount}合计`);

  const shares = new Map<number, Dec>();
  let left = total;
  eligible.forEach((i, k) => {
    const cap = baseOf(lines[i]);
    const share =
      k === eligible.length - 1 ? left : Dec.min(cap, total.times(cap).div(sum).toDecimalPlaces(2), left);
    shares.set(i, share);
    left = left.minus(share);
  });
  // The last line's remainder can exceed it by a few cents of rounding: move the excess back.
  const last = eligible[eligible.length - 1];
  let excess = (shares.get(last) as Dec).minus(baseOf(lines[last]));
  if (excess.greaterThan(0)) {
    shares.set(last, baseOf(lines[last]));
    for (const i of eligible) {
      // Stryker disable next-line ConditionalExpression: once the excess is 0 every further room is min(x, 0) = 0: breaking only saves work
      if (excess.isZero()) break;
      const room = Dec.min(baseOf(lines[i]).minus(shares.get(i) as Dec), excess);
      shares.set(i, (shares.get(i) as Dec).plus(room));
      excess = excess.minus(room);
    }
  }

  const out: (Omit<T, 'lineKind'> & { lineKind: LineKind })[] = [];
  lines.forEach((l, i) => {
    const share = shares.get(i);
    if (!share || share.isZero()) {
      out.push({ ...l, lineKind: l.lineKind ?? 0 });
      return;
    }
    out.push({ ...l, lineKind: 2 });
    out.push(makeDiscountLine(l, share, opts));
  });
  return out;
}
