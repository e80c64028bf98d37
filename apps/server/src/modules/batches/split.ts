import {
  type ComputedLine,
  computeLine,
  computeTotals,
  Dec,
  dec,
  fixed,
  TERMS,
  type Totals,
  trimmed,
} from '@kaipiao/shared';

/** An item line of the file, computed with the shared money API. */
export type BatchLine = {
  /** row on 商品明细 */
  row: number;
  name: string;
  taxClassCode: string;
  shortName: string;
  spec: string;
  unit: string;
  /** as entered (null = blank) */
  quantity: string | null;
  price: string | null;
  taxRate: string;
  zeroRateFlag: '' | '0' | '1' | '2' | '3';
  preferentialCode: string;
  computed: ComputedLine;
};

export type SplitPart = { lines: BatchLine[]; totals: Totals };
export type SplitResult =
  | { ok: true; parts: SplitPart[]; reasons: ('amount' | 'lines')[] }
  | { ok: false; row: number; message: string };

/** At most this many pieces per line: a limit far below the amounts is a mistake, not a batch. */
export const MAX_PIECES = 1000;

function piece(
  line: BatchLine,
  includes: boolean,
  input: { quantity: string | null; price?: string | null; amount?: string },
) {
  const computed = computeLine({
    priceIncludesTax: includes,
    taxRate: line.taxRate,
    quantity: input.quantity,
    price: input.price ?? null,
    amount: input.amount ?? null,
  });
  return { ...line, quantity: computed.quantity, price: input.price ?? null, computed };
}

/**
 * Cuts one line into `k` lines: by whole quantities at the same unit price when the quantity is a
 * whole number of at least `k`, otherwise by amount (cent-exact, the last piece takes the rest)
 * with the quantity shared in proportion. The pieces' entered amounts add up to the line's.
 */
function cutLine(line: BatchLine, k: number, includes: boolean): BatchLine[] {
  // Stryker disable next-line StringLiteral: the quantity was read and checked before: the label never shows
  const q = line.quantity === null ? null : dec(line.quantity, TERMS.quantity);
  if (q && line.price !== null && q.isInteger() && q.greaterThanOrEqualTo(k)) {
    const base = q.divToInt(k);
    const extra = q.minus(base.times(k)).toNumber();
    return Array.from({ length: k }, (_, i) =>
      piece(line, includes, { quantity: base.plus(i < extra ? 1 : 0).toFixed(), price: line.price }),
    );
  }
  const entered = dec(includes ? line.computed.amountWithTax : line.computed.amount);
  const cents = entered.times(100);
  const baseCents = cents.divToInt(k);
  const out: BatchLine[] = [];
  let usedQ = new Dec(0);
  for (let i = 0; i < k; i++) {
    const last = i === k - 1;
    const amount = last ? entered.minus(baseCents.times(k - 1).div(100)) : baseCents.div(100);
    let quantity: string | null = null;
    if (q) {
      const qi = last ? q.minus(usedQ) : q.times(amount).div(entered).toDecimalPlaces(8);
      usedQ = usedQ.plus(qi);
      quantity = qi.isZero() ? null : trimmed(qi);
    }
    out.push(piece(line, includes, { quantity, amount: fixed(amount) }));
  }
  return out;
}

/** A line whose tax-exclusive amount exceeds `limit`, as the fewest pieces that each fit. */
function splitLine(line: BatchLine, limit: Dec, includes: boolean): BatchLine[] | null {
  const amount = dec(line.computed.amount);
  if (amount.lessThanOrEqualTo(limit)) return [line];
  let k = amount.div(limit).ceil().toNumber();
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UpdateOperator: no cut is known that fails five times in a row (each more piece lowers every piece); only the MAX_PIECES bound is observable
  for (let tries = 0; tries < 5 && k <= MAX_PIECES; tries++, k++) {
    const pieces = cutLine(line, k, includes);
    if (pieces.every((p) => dec(p.computed.amount).lessThanOrEqualTo(limit))) return pieces;
  }
  return null;
}

/**
 * Splits one invoice of the file by the device's per-invoice limit (tax-exclusive 合计金额, domain.md
 * §7.1) and the kind's line limit: lines over the limit are cut into pieces, then lines are packed in
 * their order into as few invoices as the two limits allow.
 */
export function splitInvoice(
  lines: readonly BatchLine[],
  opts: { perInvoiceLimit: string; maxLines: number; priceIncludesTax: boolean },
): SplitResult {
  const limit = dec(opts.perInvoiceLimit);
  const reasons = new Set<'amount' | 'lines'>();
  const whole = computeTotals(
    lines.map((l) => ({ amount: l.computed.amount, taxAmount: l.computed.taxAmount })),
  );
  if (dec(whole.totalAmount).greaterThan(limit)) reasons.add('amount');
  if (lines.length > opts.maxLines) reasons.add('lines');
  // Stryker disable next-line ConditionalExpression: packing lines within both limits makes the same single part
  if (reasons.size === 0) return { ok: true, parts: [{ lines: [...lines], totals: whole }], reasons: [] };

  const units: BatchLine[] = [];
  for (const line of lines) {
    const pieces = splitLine(line, limit, opts.priceIncludesTax);
    if (!pieces) {
      return {
        ok: false,
        row: line.row,
        message: `${TERMS.amount}超过单张限额（${opts.perInvoiceLimit}元）的${MAX_PIECES}倍，无法自动拆分，请核对${TERMS.amount}`,
      };
    }
    units.push(...pieces);
  }

  const parts: BatchLine[][] = [];
  let current: BatchLine[] = [];
  let sum = new Dec(0);
  for (const unit of units) {
    const amount = dec(unit.computed.amount);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: every unit fits the limit alone, so an empty part is never closed
    if (current.length > 0 && (current.length >= opts.maxLines || sum.plus(amount).greaterThan(limit))) {
      parts.push(current);
      current = [];
      sum = new Dec(0);
    }
    current.push(unit);
    sum = sum.plus(amount);
  }
  // Stryker disable next-line ConditionalExpression: an invoice has lines, so the last part is never empty
  if (current.length) parts.push(current);
  return {
    ok: true,
    parts: parts.map((p) => ({
      lines: p,
      totals: computeTotals(p.map((l) => ({ amount: l.computed.amount, taxAmount: l.computed.taxAmount }))),
    })),
    reasons: [...reasons],
  };
}
