import type { LineKind } from './compute.ts';
import { Dec } from './decimal.ts';
import { MONEY_MSG as M } from './messages.ts';
import { normalizeRate, PREFERENTIAL_POLICIES, PREFERENTIAL_RATES } from './rates.ts';

export interface CheckLine {
  lineKind?: LineKind | null;
  quantity?: string | null;
  /** tax-exclusive unit price */
  unitPrice?: string | null;
  amount: string;
  taxRate: string;
  taxAmount: string;
  amountWithTax: string;
  /** 19-digit 税收分类编码; enables the "6…→不征税" and discount-line code checks */
  taxClassCode?: string | null;
  /** '' | '0' | '1' 免税 | '2' 不征税 | '3' 普通零税率 */
  zeroRateFlag?: string | null;
  /** 数电 优惠政策标识 '01'…'18' or '' */
  preferentialCode?: string | null;
}

export interface CheckInvoiceInput {
  direction: 'blue' | 'red';
  lines: readonly CheckLine[];
  totalAmount: string;
  totalTax: string;
  totalWithTax: string;
}

export interface AmountIssue {
  /** "goods_info.2.tax_amount" (0-based line index) or "invoice_info.total_tax" */
  field: string;
  message: string;
}

const ZERO = new Dec(0);
const LINE_AMOUNT_TOL = new Dec('0.01');
const LINE_TAX_TOL = new Dec('0.06');
const TOTAL_AMOUNT_TOL = new Dec('0.01');
const TAX_TOTAL_TOL = new Dec('1.27');
/** The Decimal of each normalised rate, made once. */
const rateDecimals = new Map<string, Dec>();
function rateDecimal(value: string): Dec {
  let d = rateDecimals.get(value);
  // Stryker disable next-line ConditionalExpression: a cache miss makes an equal Decimal
  if (!d) {
    d = new Dec(value);
    rateDecimals.set(value, d);
  }
  return d;
}
const MONEY = /^[+-]?\d{1,16}(\.\d{1,2})?$/;
const DEC8 = /^[+-]?\d{1,16}(\.\d{1,8})?$/;
const blank = (v: string | null | undefined) => v === null || v === undefined || String(v).trim() === '';
const money = (v: unknown) => (typeof v === 'string' && MONEY.test(v.trim()) ? new Dec(v.trim()) : null);
const dec8 = (v: unknown) => (typeof v === 'string' && DEC8.test(v.trim()) ? new Dec(v.trim()) : null);

/**
 * The bureau's amount rules (domain.md §2.2, §2.4, §2.5) over a whole invoice. Returns one issue per
 * broken rule with the payload field it concerns; an empty array means the invoice passes.
 * Lines: |单价×数量−金额| ≤ 0.01, |金额×税率−税额| ≤ 0.06, 价税合计 = 金额+税额. Invoice: |Σ行金额−合计金额|
 * ≤ 0.01, 合计税额 = Σ行税额, |Σ(金额×税率)−合计税额| ≤ 1.27, 合计金额+合计税额 = 价税合计 exactly.
 * Blue: totals positive (tax ≥ 0), normal/discounted lines positive, each discount line negative, right
 * after its discounted line, same rate/code/policy, not larger than it. Red: normal lines only, all ≤ 0.
 */
export function checkInvoiceAmounts(input: CheckInvoiceInput): AmountIssue[] {
  const issues: AmountIssue[] = [];
  const add = (field: string, message: string) => issues.push({ field, message });
  const blue = input.direction === 'blue';
  if (input.lines.length === 0) add('goods_info', M.NO_LINES);

  let sumAmount = ZERO;
  let sumTax = ZERO;
  let sumExact = ZERO;
  let linesOk = true;

  input.lines.forEach((line, i) => {
    const n = i + 1;
    const f = (name: string) => `goods_info.${i}.${name}`;
    const kind = line.lineKind ?? 0;
    const amount = money(line.amount);
    const tax = money(line.taxAmount);
    const withTax = money(line.amountWithTax);
    const rateValue = normalizeRate(line.taxRate);
    if (!amount) add(f('amount'), M.AMOUNT_FORMAT(n));
    if (!tax) add(f('tax_amount'), M.TAX_FORMAT(n));
    if (!withTax) add(f('amount_with_tax'), M.WITH_TAX_FORMAT(n));
    if (rateValue === null) add(f('tax_rate'), M.RATE_INVALID(n));
    if (!amount || !tax || !withTax || rateValue === null) {
      linesOk = false;
      return;
    }
    const rate = rateDecimal(rateValue);
    sumAmount = sumAmount.plus(amount);
    sumTax = sumTax.plus(tax);
    sumExact = sumExact.plus(amount.times(rate));

    // quantity × unit price
    const hasQ = !blank(line.quantity);
    const hasP = !blank(line.unitPrice);
    if (kind === 1) {
      if (hasQ || hasP) add(f('quantity'), M.DISCOUNT_NO_QUANTITY(n));
    } else if (hasQ !== hasP) {
      add(f('quantity'), M.QUANTITY_AND_PRICE(n));
    } else if (
      // Stryker disable next-line LogicalOperator: hasQ === hasP here (the branch above takes the rest), so && and || agree
      hasQ &&
      hasP
    ) {
      const q = dec8(line.quantity);
      const p = dec8(line.unitPrice);
      if (!q) add(f('quantity'), M.QUANTITY_FORMAT(n));
      if (!p) add(f('price'), M.PRICE_FORMAT(n));
      if (p?.isNegative() && !p.isZero()) add(f('price'), M.PRICE_NEGATIVE(n));
      if (q && p && q.times(p).minus(amount).abs().greaterThan(LINE_AMOUNT_TOL))
        add(f('amount'), M.LINE_AMOUNT_ERROR(n));
    }

    if (amount.times(rate).minus(tax).abs().greaterThan(LINE_TAX_TOL))
      add(f('tax_amount'), M.LINE_TAX_ERROR(n));
    else if (rate.isZero() && !tax.isZero()) add(f('tax_amount'), M.ZERO_RATE_TAX(n));
    if (!amount.plus(tax).equals(withTax)) add(f('amount_with_tax'), M.LINE_WITH_TAX_MISMATCH(n));

    // signs
    if (!blue) {
      if (kind !== 0) add(f('line_kind'), M.RED_LINE_KIND(n));
      if (amount.greaterThan(ZERO) || tax.greaterThan(ZERO) || withTax.greaterThan(ZERO))
        add(f('amount'), M.RED_LINE_POSITIVE(n));
    } else if (kind === 1) {
      if (!amount.lessThan(ZERO) || !withTax.lessThan(ZERO)) add(f('amount'), M.DISCOUNT_NEGATIVE(n));
      if (tax.greaterThan(ZERO)) add(f('tax_amount'), M.DISCOUNT_TAX_POSITIVE(n));
      checkDiscountPair(input.lines, i, add);
    } else {
      if (!amount.greaterThan(ZERO) || !withTax.greaterThan(ZERO))
        add(f('amount'), M.LINE_AMOUNT_POSITIVE(n));
      if (tax.lessThan(ZERO)) add(f('tax_amount'), M.LINE_TAX_NEGATIVE(n));
      if (kind === 2 && (input.lines[i + 1]?.lineKind ?? 0) !== 1)
        add(f('line_kind'), M.DISCOUNTED_WITHOUT_DISCOUNT(n));
    }

    checkZeroRateFlags(line, rate, n, f, add);
  });

  // totals
  const totalAmount = money(input.totalAmount);
  const totalTax = money(input.totalTax);
  const totalWithTax = money(input.totalWithTax);
  if (!totalAmount) add('invoice_info.total_amount', M.TOTAL_FORMAT);
  if (!totalTax) add('invoice_info.total_tax', M.TOTAL_TAX_FORMAT);
  if (!totalWithTax) add('invoice_info.total_price_with_tax', M.TOTAL_WITH_TAX_FORMAT);
  if (!totalAmount || !totalTax || !totalWithTax) return issues;

  if (!totalAmount.plus(totalTax).equals(totalWithTax))
    add('invoice_info.total_price_with_tax', M.TOTAL_IDENTITY);
  if (blue) {
    if (!totalAmount.greaterThan(ZERO)) add('invoice_info.total_amount', M.TOTAL_POSITIVE);
    if (totalTax.lessThan(ZERO)) add('invoice_info.total_tax', M.TOTAL_TAX_NEGATIVE);
    if (!totalWithTax.greaterThan(ZERO)) add('invoice_info.total_price_with_tax', M.TOTAL_WITH_TAX_POSITIVE);
  } else if (totalAmount.greaterThan(ZERO) || totalTax.greaterThan(ZERO) || totalWithTax.greaterThan(ZERO)) {
    add('invoice_info.total_amount', M.RED_TOTAL_POSITIVE);
  }
  if (linesOk && input.lines.length > 0) {
    if (sumAmount.minus(totalAmount).abs().greaterThan(TOTAL_AMOUNT_TOL))
      add('invoice_info.total_amount', M.TOTAL_AMOUNT_ERROR);
    if (!sumTax.equals(totalTax)) add('invoice_info.total_tax', M.TOTAL_TAX_SUM);
    if (sumExact.minus(totalTax).abs().greaterThan(TAX_TOTAL_TOL))
      add('invoice_info.total_tax', M.TOTAL_TAX_ERROR);
  }
  return issues;
}

function checkDiscountPair(
  lines: readonly CheckLine[],
  i: number,
  add: (field: string, message: string) => void,
) {
  const n = i + 1;
  const f = (name: string) => `goods_info.${i}.${name}`;
  const line = lines[i];
  const prev = lines[i - 1];
  if (!prev || (prev.lineKind ?? 0) !== 2) {
    add(f('line_kind'), M.DISCOUNT_POSITION(n));
    return;
  }
  const pr = normalizeRate(prev.taxRate);
  if (pr !== normalizeRate(line.taxRate)) add(f('tax_rate'), M.DISCOUNT_RATE(n));
  if (!blank(line.taxClassCode) && !blank(prev.taxClassCode) && line.taxClassCode !== prev.taxClassCode)
    add(f('tax_class_code'), M.DISCOUNT_CODE(n));
  if (
    (line.preferentialCode ?? '') !== (prev.preferentialCode ?? '') ||
    (line.zeroRateFlag ?? '') !== (prev.zeroRateFlag ?? '')
  )
    add(f('preferential_code'), M.DISCOUNT_POLICY(n));
  const a = money(line.amount);
  const w = money(line.amountWithTax);
  const pa = money(prev.amount);
  const pw = money(prev.amountWithTax);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a and w are never null here (the discount line passed the format checks), so a && w adds nothing
  if (a && w && pa && pw && (a.abs().greaterThan(pa) || w.abs().greaterThan(pw)))
    add(f('amount'), M.DISCOUNT_TOO_LARGE(n));
}

function checkZeroRateFlags(
  line: CheckLine,
  rate: Dec,
  n: number,
  f: (name: string) => string,
  add: (field: string, message: string) => void,
) {
  const flag = line.zeroRateFlag ?? '';
  const policy = line.preferentialCode ?? '';
  // Stryker disable next-line StringLiteral: code is only tested with startsWith('6'), which the stand-in fails as '' does
  const code = line.taxClassCode ?? '';
  if (flag !== '' && !rate.isZero()) add(f('zero_rate_flag'), M.ZERO_FLAG_NONZERO_RATE(n));
  // 免税: rate 0, flag 1, policy 03 (数电) or none (old kinds use the flag alone)
  if (policy === '03' && (flag !== '1' || !rate.isZero())) add(f('zero_rate_flag'), M.EXEMPT_FLAGS(n));
  else if (flag === '1' && policy !== '' && policy !== '03') add(f('preferential_code'), M.EXEMPT_FLAGS(n));
  // 不征税: rate 0, flag 2, policy 04 or none
  if (policy === '04' && (flag !== '2' || !rate.isZero())) add(f('zero_rate_flag'), M.NOT_TAXABLE_FLAGS(n));
  else if (flag === '2' && policy !== '' && policy !== '04')
    add(f('preferential_code'), M.NOT_TAXABLE_FLAGS(n));
  if (code.startsWith('6') && (flag !== '2' || !rate.isZero() || (policy !== '' && policy !== '04')))
    add(f('zero_rate_flag'), M.CODE_6_NOT_TAXABLE(n));
  const allowed = policy ? PREFERENTIAL_RATES[policy as keyof typeof PREFERENTIAL_RATES] : undefined;
  if (allowed && policy !== '03' && policy !== '04' && !allowed.some((r) => rate.equals(r)))
    add(f('tax_rate'), M.POLICY_RATE(n, PREFERENTIAL_POLICIES[policy as keyof typeof PREFERENTIAL_POLICIES]));
}
