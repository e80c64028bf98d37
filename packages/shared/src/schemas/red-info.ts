import { z } from 'zod';
import { RED_CODE } from '../errors/codes.ts';
import { TERMS } from '../glossary/terms.ts';
import { INVOICE_LINE_LIMITS } from '../invoice/line-limits.ts';
import { beijingMonth } from '../time/beijing.ts';
import { text } from '../validation/text.ts';
import { canVoidInvoiceType, DIGITAL_INVOICE_TYPES } from './invoice.ts';

/**
 * Red-letter invoices and voiding (domain.md §3): the 数电 红字确认单, the older kinds' 红字信息表,
 * the red invoice issued from either, and 作废 of same-month paper invoices.
 */

/** confirm = 数电 确认单; info_sheet = 专票 (004/028) 信息表; direct = older 普票, no form needed (domain.md §3.2). */
export const RED_FORM_KINDS = {
  confirm: TERMS.redConfirmForm,
  info_sheet: TERMS.redInfoSheet,
  direct: `${TERMS.ordinaryInvoice}${TERMS.redLetter}`,
} as const;
export type RedFormKind = keyof typeof RED_FORM_KINDS;

/** The form a blue invoice of this kind is reversed with (domain.md §3.2, §3.3). */
export function redFormKindOf(invoiceType: string): RedFormKind {
  if ((DIGITAL_INVOICE_TYPES as readonly string[]).includes(invoiceType)) return 'confirm';
  if (invoiceType === '004' || invoiceType === '028') return 'info_sheet';
  return 'direct';
}

/** 红字发票红冲原因 (domain.md §3.3). */
export const RED_REASONS = {
  '01': '开票有误',
  '02': '销货退回',
  '03': '服务中止',
  '04': '销售折让',
} as const;
export type RedReason = keyof typeof RED_REASONS;
export const redReasonSchema = z.enum(['01', '02', '03', '04']);

/**
 * What a reason allows (domain.md §3.3): 01 full only, nothing editable; 02 quantity only;
 * 03 amount (and quantity); 04 amount only, no quantity or unit price on the red lines.
 */
export const REASON_RULES: Record<
  RedReason,
  { fullOnly: boolean; quantity: boolean; amount: boolean; keepsQuantity: boolean }
> = {
  '01': { fullOnly: true, quantity: false, amount: false, keepsQuantity: true },
  '02': { fullOnly: false, quantity: true, amount: false, keepsQuantity: true },
  '03': { fullOnly: false, quantity: true, amount: true, keepsQuantity: true },
  '04': { fullOnly: false, quantity: false, amount: true, keepsQuantity: false },
};

/**
 * The reasons open to an invoice by its lines' classification codes (domain.md §3.3): goods only
 * (codes 1…/2…) may not use 服务中止; services only (3…) may not use 销货退回; mixed → all four.
 */
export function allowedRedReasons(taxClassCodes: readonly string[]): RedReason[] {
  const goods = taxClassCodes.some((c) => c.startsWith('1') || c.startsWith('2'));
  const service = taxClassCodes.some((c) => c.startsWith('3'));
  return (['01', '02', '03', '04'] as const).filter(
    (r) => !(r === '03' && goods && !service) && !(r === '02' && service && !goods),
  );
}

/** 红字确认单 states (domain.md §3.3, `xxbztDm`). */
export const CONFIRM_STATES = {
  '01': '无需确认',
  '02': '销方录入待购方确认',
  '03': '购方录入待销方确认',
  '04': '购销双方已确认',
  '05': '作废（销方录入购方否认）',
  '06': '作废（购方录入销方否认）',
  '07': '作废（超72小时未确认）',
  '08': '作废（发起方已撤销）',
  '09': '作废（确认后撤销）',
  '10': '作废（异常凭证）',
} as const;
export type ConfirmState = keyof typeof CONFIRM_STATES;

/** 红字信息表 (and direct 普票 reversal) states. */
export const SHEET_STATES = {
  applying: '申请中',
  approved: '审核通过',
  rejected: '审核未通过',
  revoked: '已撤销',
} as const;
export type SheetState = keyof typeof SHEET_STATES;

export const PENDING_CONFIRM_STATES: readonly string[] = ['02', '03'];
/** States that may be (or have been) issued as a red invoice. */
export const ISSUABLE_RED_STATES: readonly string[] = ['01', '04', 'approved'];
/** States that reserve their amount against the blue invoice's remainder (not void). */
export const RESERVING_RED_STATES: readonly string[] = ['01', '02', '03', '04', 'applying', 'approved'];
/** Hours the other party has to confirm a 确认单 before it voids as 07 (domain.md §0). */
export const RED_CONFIRM_HOURS = 72;

export type RedStateClass = 'pending' | 'confirmed' | 'void';
export function redStateClass(state: string): RedStateClass {
  if (PENDING_CONFIRM_STATES.includes(state) || state === 'applying') return 'pending';
  if (ISSUABLE_RED_STATES.includes(state)) return 'confirmed';
  return 'void';
}

export function redStateName(kind: string, state: string): string {
  if (kind === 'confirm') return CONFIRM_STATES[state as ConfirmState] ?? state;
  return SHEET_STATES[state as SheetState] ?? state;
}

const money = text().regex(/^\d{1,16}(\.\d{1,2})?$/, `${TERMS.amount}格式不正确，最多两位小数`);
const quantity = text().regex(/^\d{1,16}(\.\d{1,8})?$/, `${TERMS.quantity}格式不正确，最多八位小数`);

/**
 * One line the clerk reverses, by the blue line's number. Positive figures: how much to take back.
 * 02 销货退回 gives `quantity`; 03 服务中止 `amount_with_tax` (and optionally `quantity`);
 * 04 销售折让 `amount_with_tax`. Full reversals send no lines.
 */
export const redLineInputSchema = z.object({
  blue_line_no: z.number().int().positive(),
  quantity: quantity.nullable().optional(),
  amount_with_tax: money.nullable().optional(),
});
export type RedLineInput = z.infer<typeof redLineInputSchema>;

/** POST /v3/red-info/apply */
export const redApplyRequestSchema = z.object({
  invoice_id: z.number().int().positive(),
  reason: redReasonSchema,
  full: z.boolean(),
  lines: z.array(redLineInputSchema).max(INVOICE_LINE_LIMITS.digital).default([]),
  remark: text({ multiline: true }).trim().max(200).default(''),
});
export type RedApplyRequest = z.input<typeof redApplyRequestSchema>;

/** A red line as stored on the form (negative amounts; quantity negative, unit price positive). */
export const redLineSchema = z.object({
  blue_line_no: z.number(),
  line_kind: z.number(),
  tax_class_code: z.string(),
  short_name: z.string(),
  item_name: z.string(),
  full_name: z.string(),
  spec: z.string(),
  unit: z.string(),
  quantity: z.string().nullable(),
  unit_price: z.string().nullable(),
  unit_price_with_tax: z.string().nullable(),
  amount: z.string(),
  tax_rate: z.string(),
  tax_amount: z.string(),
  amount_with_tax: z.string(),
  preferential_code: z.string(),
  zero_rate_flag: z.string(),
});
export type RedLine = z.infer<typeof redLineSchema>;

export const redBlueSchema = z.object({
  invoice_id: z.number(),
  invoice_type: z.string(),
  invoice_type_name: z.string(),
  invoice_code: z.string(),
  invoice_no: z.string().nullable(),
  issued_at: z.string().nullable(),
  status: z.string(),
  red_status: z.string(),
  total_amount: z.string(),
  total_tax: z.string(),
  total_with_tax: z.string(),
  buyer_name: z.string(),
  buyer_tax_code: z.string(),
  seller_name: z.string(),
  seller_tax_code: z.string(),
});

export const redInvoiceRefSchema = z.object({
  invoice_id: z.number(),
  invoice_code: z.string(),
  invoice_no: z.string().nullable(),
  status: z.string(),
  issued_at: z.string().nullable(),
  error_message: z.string().nullable(),
});

export const redFormSchema = z.object({
  form_id: z.number(),
  kind: z.enum(['confirm', 'info_sheet', 'direct']),
  kind_name: z.string(),
  form_no: z.string(),
  initiator: z.enum(['seller', 'buyer']),
  reason: redReasonSchema,
  reason_name: z.string(),
  full: z.boolean(),
  state: z.string(),
  state_name: z.string(),
  state_class: z.enum(['pending', 'confirmed', 'void']),
  blue: redBlueSchema,
  total_amount: z.string(),
  total_tax: z.string(),
  total_with_tax: z.string(),
  lines: z.array(redLineSchema),
  remark: z.string(),
  red_invoice: redInvoiceRefSchema.nullable(),
  /** ISO; pending forms only */
  expires_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
  created_by_name: z.string(),
  /** what the console may do with it now */
  actions: z.object({ confirm: z.boolean(), reject: z.boolean(), revoke: z.boolean(), issue: z.boolean() }),
});
export type RedForm = z.infer<typeof redFormSchema>;

/** POST /v3/red-info/list */
export const redListRequestSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  page_size: z.number().int().min(1).max(100).default(20),
  kind: z.enum(['confirm', 'info_sheet', 'direct']).optional(),
  /** a state code, or a class: pending | confirmed | void */
  state: text().max(20).optional(),
  /** blue / red invoice number, form number or buyer name */
  keyword: text().trim().max(100).optional(),
});
export type RedListRequest = z.input<typeof redListRequestSchema>;

export const redListResponseSchema = z.object({
  list: z.array(redFormSchema.omit({ lines: true })),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type RedListResponse = z.infer<typeof redListResponseSchema>;

export const redFormIdSchema = z.object({ form_id: z.number().int().positive() });
export const redInvoiceIdSchema = z.object({ invoice_id: z.number().int().positive() });

/** POST /v3/red-info/blue-info: what the fill-in page needs about the blue invoice. */
export const redBlueLineSchema = z.object({
  line_no: z.number(),
  line_kind: z.number(),
  tax_class_code: z.string(),
  full_name: z.string(),
  spec: z.string(),
  unit: z.string(),
  quantity: z.string().nullable(),
  unit_price: z.string().nullable(),
  unit_price_with_tax: z.string().nullable(),
  amount: z.string(),
  tax_rate: z.string(),
  tax_amount: z.string(),
  amount_with_tax: z.string(),
  /** what is left after reds and reserving forms (positive) */
  remaining_quantity: z.string().nullable(),
  remaining_amount: z.string(),
  remaining_tax: z.string(),
  remaining_with_tax: z.string(),
});
export type RedBlueLine = z.infer<typeof redBlueLineSchema>;

export const redBlueInfoSchema = z.object({
  blue: redBlueSchema,
  kind: z.enum(['confirm', 'info_sheet', 'direct']),
  kind_name: z.string(),
  lines: z.array(redBlueLineSchema),
  remaining_amount: z.string(),
  remaining_tax: z.string(),
  remaining_with_tax: z.string(),
  reasons: z.array(redReasonSchema),
  has_discount: z.boolean(),
  /** the buyer has used the invoice (勾选/入账): a 确认单 then needs the buyer's confirmation */
  needs_confirmation: z.boolean(),
  /** a pending 确认单 locks the blue invoice */
  pending_form_id: z.number().nullable(),
});
export type RedBlueInfo = z.infer<typeof redBlueInfoSchema>;

/** POST /v3/invoice-detail/void (作废, domain.md §3.1) */
export const voidRequestSchema = z.object({
  invoice_id: z.number().int().positive(),
  reason: text({ label: `${TERMS.void}原因`, multiline: true })
    .trim()
    .min(1, `请填写${TERMS.void}原因`)
    .max(100),
});
export type VoidRequest = z.input<typeof voidRequestSchema>;
export const voidResultSchema = z.object({ invoice_id: z.number(), status: z.string() });

/**
 * Why an invoice may not be voided (domain.md §3.1): only paper kinds, only in the Beijing month
 * of issue. Null when the kind and month allow it (state checks are the server's).
 */
export function voidRefusal(
  invoiceType: string,
  issuedAt: string | Date | null,
  now = new Date(),
): number | null {
  if (!canVoidInvoiceType(invoiceType)) return RED_CODE.VOID_ELECTRONIC;
  if (!issuedAt) return RED_CODE.VOID_NOT_ISSUED;
  if (beijingMonth(issuedAt) !== beijingMonth(now)) return RED_CODE.VOID_PAST_MONTH;
  return null;
}
