import {
  computeLine,
  type Dec,
  dec,
  fixed,
  REASON_RULES,
  RED_CODE,
  type RedLine,
  type RedLineInput,
  type RedReason,
  TERMS,
  trimmed,
} from '@kaipiao/shared';
import type { RawRow } from '../../db/rows.ts';
import type { invoiceLines } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';

/** A blue invoice line as stored (amounts positive, except discount lines). */
export type BlueLine = Omit<RawRow<typeof invoiceLines>, 'invoice_id' | 'client_id' | 'goods_id'>;

/** What earlier reds and reserving forms took from one blue line (positive figures). */
export type Taken = { quantity: Dec; amount: Dec; tax: Dec; withTax: Dec };
export const NOTHING_TAKEN = (): Taken => ({
  quantity: dec(0),
  amount: dec(0),
  tax: dec(0),
  withTax: dec(0),
});

export type Remaining = { quantity: Dec | null; amount: Dec; tax: Dec; withTax: Dec };

export function remainingOf(l: BlueLine, taken: Taken | undefined): Remaining {
  const t = taken ?? NOTHING_TAKEN();
  return {
    quantity: l.quantity === null ? null : dec(l.quantity).minus(t.quantity),
    amount: dec(l.amount).minus(t.amount),
    tax: dec(l.tax_amount).minus(t.tax),
    withTax: dec(l.amount_with_tax).minus(t.withTax),
  };
}

const neg = (d: Dec) => fixed(d.neg());
const negQty = (d: Dec) => trimmed(d.neg());

function redLineOf(
  l: BlueLine,
  v: { quantity: Dec | null; amount: Dec; tax: Dec; keepPrice: boolean },
): RedLine {
  return {
    blue_line_no: l.line_no,
    line_kind: l.line_kind,
    tax_class_code: l.tax_class_code,
    short_name: l.short_name,
    item_name: l.item_name,
    full_name: l.full_name,
    spec: l.spec,
    unit: l.unit,
    quantity: v.quantity === null ? null : negQty(v.quantity),
    unit_price: v.keepPrice && l.unit_price !== null ? trimmed(l.unit_price) : null,
    unit_price_with_tax:
      v.keepPrice && l.unit_price_with_tax !== null ? trimmed(l.unit_price_with_tax) : null,
    amount: neg(v.amount),
    tax_rate: l.tax_rate,
    tax_amount: neg(v.tax),
    amount_with_tax: neg(v.amount.plus(v.tax)),
    preferential_code: l.preferential_code,
    zero_rate_flag: l.zero_rate_flag,
  };
}

/**
 * The red lines of a form (domain.md §3.3): a full reversal takes what is left of every line; a
 * partial one takes, per line, the quantity (02 销货退回) or amount (03 服务中止, 04 销售折让) the clerk
 * entered, never more than the line has left. Refusals are AppErrors with RED_CODE codes.
 */
export function buildRedLines(
  blue: readonly BlueLine[],
  taken: ReadonlyMap<number, Taken>,
  req: { reason: RedReason; full: boolean; lines: readonly RedLineInput[]; untouched: boolean },
): RedLine[] {
  const rule = REASON_RULES[req.reason];
  if (rule.fullOnly && (!req.full || !req.untouched)) throw new AppError(RED_CODE.REASON_FULL_ONLY);

  if (req.full) {
    const out: RedLine[] = [];
    for (const l of blue) {
      const r = remainingOf(l, taken.get(l.line_no));
      if (r.withTax.isZero() && r.amount.isZero()) continue;
      const keep = rule.keepsQuantity && r.quantity !== null && !r.quantity.isZero();
      out.push(
        redLineOf(l, {
          quantity: keep ? r.quantity : null,
          amount: r.amount,
          tax: r.tax,
          keepPrice: keep,
        }),
      );
    }
    if (out.length === 0) throw new AppError(RED_CODE.BLUE_FULLY_REDDENED);
    return out;
  }

  if (blue.some((l) => l.line_kind !== 0)) throw new AppError(RED_CODE.PARTIAL_WITH_DISCOUNT);
  if (req.lines.length === 0) throw new AppError(RED_CODE.NO_LINES);
  const byNo = new Map(blue.map((l) => [l.line_no, l]));
  const seen = new Set<number>();
  const out: RedLine[] = [];
  for (const input of req.lines) {
    const l = byNo.get(input.blue_line_no);
    if (!l || seen.has(input.blue_line_no)) throw new AppError(RED_CODE.BAD_LINE);
    seen.add(input.blue_line_no);
    const hasQty = input.quantity !== null && input.quantity !== undefined && input.quantity !== '';
    const hasAmount =
      input.amount_with_tax !== null && input.amount_with_tax !== undefined && input.amount_with_tax !== '';
    if ((hasQty && !rule.quantity) || (hasAmount && !rule.amount)) {
      throw new AppError(RED_CODE.LINE_NOT_EDITABLE);
    }
    const r = remainingOf(l, taken.get(l.line_no));
    let quantity: Dec | null = null;
    let withTax: Dec;
    if (req.reason === '02') {
      // 销货退回: the quantity returned at the blue unit price
      if (!hasQty || l.quantity === null || l.unit_price_with_tax === null) {
        throw new AppError(
          RED_CODE.LINE_NOT_EDITABLE,
          `销货退回须按${TERMS.quantity}${TERMS.redLetter}，且${TERMS.blueShort}明细须有${TERMS.quantity}和${TERMS.unitPrice}`,
        );
      }
      quantity = dec(input.quantity!);
      // Stryker disable next-line ConditionalExpression: 销货退回 is refused above for a line without a quantity, so its remainder has one
      if (r.quantity !== null && quantity.equals(r.quantity)) withTax = r.withTax;
      else withTax = quantity.times(l.unit_price_with_tax).toDecimalPlaces(2);
    } else {
      if (!hasAmount) throw new AppError(RED_CODE.NO_LINES, `请填写${TERMS.redLetter}${TERMS.amount}`);
      withTax = dec(input.amount_with_tax!);
      if (hasQty) quantity = dec(input.quantity!);
    }
    if (withTax.lessThanOrEqualTo(0) || quantity?.lessThanOrEqualTo(0)) {
      throw new AppError(RED_CODE.BAD_LINE, `${TERMS.redLetter}${TERMS.quantity}和${TERMS.amount}须大于0`);
    }
    let amount: Dec;
    let tax: Dec;
    if (withTax.equals(r.withTax)) {
      // the rest of the line: exactly what is left, so no cent is stranded by rounding
      amount = r.amount;
      tax = r.tax;
    } else {
      const c = computeLine({ priceIncludesTax: true, taxRate: l.tax_rate, amount: fixed(withTax) });
      amount = dec(c.amount);
      tax = dec(c.taxAmount);
    }
    if (
      // Stryker disable next-line LogicalOperator: withTax = amount + tax, so more withTax than is left means more amount or more tax, both tested below
      withTax.greaterThan(r.withTax) ||
      amount.greaterThan(r.amount) ||
      tax.greaterThan(r.tax) ||
      (quantity !== null && r.quantity !== null && quantity.greaterThan(r.quantity))
    ) {
      throw new AppError(
        RED_CODE.LINE_OVER_REMAINING,
        `第${l.line_no}行${TERMS.redLetter}超过剩余可${TERMS.redLetter}：剩余${TERMS.totalWithTax} ${fixed(r.withTax)} 元${
          r.quantity !== null ? `、${TERMS.quantity} ${trimmed(r.quantity)}` : ''
        }`,
      );
    }
    out.push(redLineOf(l, { quantity, amount, tax, keepPrice: quantity !== null }));
  }
  return out;
}

export function totalsOf(lines: readonly RedLine[]) {
  let amount = dec(0);
  let tax = dec(0);
  for (const l of lines) {
    amount = amount.plus(l.amount);
    tax = tax.plus(l.tax_amount);
  }
  return { amount: fixed(amount), tax: fixed(tax), withTax: fixed(amount.plus(tax)) };
}
