import {
  blueInvoiceRequestSchema,
  checkBuyer,
  checkInvoiceAmounts,
  dec,
  lineLimitIssue,
  MONEY_MSG,
} from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { BlueInvoicePayload } from './build-request.ts';
import { computeAll, isNumeric, type LineNumbers } from './line-math.ts';
import { addSpecificErrors } from './specific-rules.ts';
import type { Draft, FieldErrors } from './types.ts';

// Client-side checks, keyed by the same field paths the server answers with (10001
// `data.errors[].field`), so both kinds of error appear in the same place.

export type Limits = {
  /** 最高开票限额 on the tax-exclusive total */
  perInvoiceLimit?: string | null;
  /** 数电 monthly quota still available (tax-exclusive), null for stock-based discs */
  quotaLeft?: string | null;
  /** why the chosen device cannot issue now (offline, locked) */
  deviceProblem?: string;
};
export type Validation = { errors: FieldErrors; warnings: FieldErrors };

type ZodIssue = { code: string; origin?: string; maximum?: unknown; minimum?: unknown };

/** zod's English defaults in plain Chinese (schemas with their own message keep it). */
export function zhIssue(issue: ZodIssue): string {
  const str = issue.origin === 'string';
  switch (issue.code) {
    case 'too_big':
      return str ? `最多${issue.maximum}个字符` : `不能超过${issue.maximum}`;
    case 'too_small':
      return str ? (issue.minimum === 1 ? '必填' : `至少${issue.minimum}个字符`) : '必填';
    case 'invalid_type':
      return '必填';
    case 'invalid_value':
      return '请选择';
    default:
      return '格式不正确';
  }
}

const FIXED: Record<string, string> = {
  device_id: `请选择${TERMS.device}`,
  invoice_type: `请选择${TERMS.invoiceKind}`,
};

function lineChecks(draft: Draft, errors: FieldErrors, computed?: readonly (LineNumbers | null)[]) {
  const numbers = computed ?? computeAll(draft.lines, draft.price_includes_tax);
  draft.lines.forEach((l, i) => {
    const at = `goods_info.${i}`;
    if (!l.name.trim()) errors[`${at}.name`] = `请输入或选择${TERMS.itemName}`;
    else if (!/^\d{19}$/.test(l.tax_class_code) || !l.short_name.trim()) {
      errors[`${at}.tax_class_code`] = `请选择${TERMS.goodsCode}（${TERMS.taxClassCode}）`;
    }
    if (!isNumeric(l.tax_rate)) errors[`${at}.tax_rate`] = `请选择${TERMS.taxRate}`;
    if (l.line_kind === 1 || numbers[i]) return;
    const q = l.quantity.trim();
    if (q && !isNumeric(q)) errors[`${at}.quantity`] = '请输入数字';
    else if (q && dec(q).lte(0)) errors[`${at}.quantity`] = `${TERMS.quantity}须大于0`;
    if (l.driver === 'price') {
      if (!l.price.trim())
        errors[`${at}.price`] = q ? `请输入${TERMS.unitPrice}` : `请输入${TERMS.unitPrice}或${TERMS.amount}`;
      else if (!isNumeric(l.price)) errors[`${at}.price`] = '请输入数字';
      else if (!q) errors[`${at}.quantity`] = `有${TERMS.unitPrice}时须填写${TERMS.quantity}`;
    } else if (!l.amount.trim()) errors[`${at}.amount`] = `请输入${TERMS.amount}`;
    else if (!isNumeric(l.amount)) errors[`${at}.amount`] = '请输入数字';
  });
  return numbers;
}

/** The shared buyer rules (the server's, same words); they override the schema's length message. */
function buyerChecks(draft: Draft, sellerTaxCode: string | undefined, v: Validation) {
  const { errors, warnings } = checkBuyer(draft.buyer, { invoiceType: draft.invoice_type, sellerTaxCode });
  for (const e of errors) v.errors[e.field] = e.message;
  for (const w of warnings) v.warnings[w.field] = w.message;
}

function stayChecks(draft: Draft, errors: FieldErrors) {
  const s = draft.stay;
  if (s?.check_in && s.check_out && s.check_in > s.check_out) {
    errors['hotel_stay.check_out'] = '离店日期不能早于入住日期';
  }
}

/** Every error (blocks issuing) and warning (shown, does not block) for a draft and its payload. */
export function validateDraft(
  draft: Draft,
  payload: BlueInvoicePayload,
  opts: {
    sellerTaxCode?: string;
    limits?: Limits;
    /** small-scale 3% while the 1% reduction runs: a reason must be chosen (smallScaleReasonNeeded) */
    reasonNeeded?: boolean;
    /** the draft's line numbers when the caller has computed them (the form does, once per change) */
    numbers?: readonly (LineNumbers | null)[];
  } = {},
): Validation {
  const v: Validation = { errors: {}, warnings: {} };
  const numbers = lineChecks(draft, v.errors, opts.numbers);
  // the kind's line limit, as the server counts it (discount lines included)
  const tooMany = draft.invoice_type ? lineLimitIssue(draft.invoice_type, draft.lines.length) : null;
  if (tooMany) v.errors[tooMany.field] = tooMany.message;
  const parsed = blueInvoiceRequestSchema.safeParse(payload, { error: (iss) => zhIssue(iss as ZodIssue) });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      // Stryker disable next-line Regex: schema paths start at their root and the line's fields are whole keys, so neither anchor changes a match
      const lineNumber = /^goods_info\.(\d+)\.(amount|price|quantity|tax_amount|amount_with_tax)$/.exec(path);
      // an incomplete line already says what is missing
      if (lineNumber && !numbers[Number(lineNumber[1])]) continue;
      v.errors[path] ??= FIXED[path] ?? issue.message;
    }
  }
  buyerChecks(draft, opts.sellerTaxCode, v);
  if (numbers.every((n) => n !== null)) {
    const lines = draft.lines.map((l, i) => ({
      lineKind: l.line_kind,
      quantity: numbers[i]!.quantity,
      unitPrice: numbers[i]!.unitPrice,
      amount: numbers[i]!.amount,
      taxRate: l.tax_rate,
      taxAmount: numbers[i]!.taxAmount,
      amountWithTax: numbers[i]!.amountWithTax,
    }));
    const { total_amount, total_tax, total_price_with_tax } = payload.invoice_info;
    const amountErrors = checkInvoiceAmounts({
      direction: 'blue',
      lines,
      totalAmount: total_amount,
      totalTax: total_tax,
      totalWithTax: total_price_with_tax,
    });
    for (const e of amountErrors) v.errors[e.field] ??= e.message;
    const limit = opts.limits?.perInvoiceLimit;
    if (limit && isNumeric(total_amount) && dec(total_amount).gt(dec(limit))) {
      v.errors['invoice_info.total_amount'] ??= `${TERMS.totalAmount}超过本设备单张开票限额 ¥${limit}`;
    }
    const left = opts.limits?.quotaLeft;
    if (left && isNumeric(total_amount) && dec(total_amount).gt(dec(left))) {
      v.errors['invoice_info.total_amount'] ??= `${TERMS.totalAmount}超过本月剩余开票额度 ¥${left}`;
    }
  }
  if (opts.limits?.deviceProblem && payload.device_id) v.errors.device_id = opts.limits.deviceProblem;
  addSpecificErrors(payload, v.errors);
  stayChecks(draft, v.errors);
  if (opts.reasonNeeded && !payload.small_scale_reason) {
    v.errors.small_scale_reason = MONEY_MSG.SMALL_SCALE_REASON_REQUIRED;
  }
  return v;
}
