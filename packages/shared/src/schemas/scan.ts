import { z } from 'zod';
import { TERMS } from '../glossary/terms.ts';
import { PATTERNS } from '../validation/patterns.ts';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';
import { pageQuerySchema } from './goods.ts';
import { hotelStaySchema, hotelStayViewSchema } from './invoice.ts';
import { TITLE_MSG, titleIssues } from './titles.ts';

/**
 * Scan-to-invoice and its audit queue (spec §2 /invoice/qrcode, /invoice/audit and hotel variants;
 * domain.md §8.1). A store has static QR codes (the store's table card, one per counter) and
 * dynamic order codes (amount, items, validity). The buyer's public page (/s/:token) submits a
 * request; per store it is issued at once or waits for a clerk in the audit queue.
 */

export const SCAN_CODE_KINDS = { store: `${TERMS.store}码`, counter: '收银台码', order: '订单码' } as const;
export type ScanCodeKind = keyof typeof SCAN_CODE_KINDS;

/** Per store: issue at once, or wait in the audit queue. */
export const SCAN_MODES = { audit: '审核后开票', immediate: '提交即开票' } as const;
export type ScanMode = keyof typeof SCAN_MODES;

/** domain.md §8.1: 待审核 / 开票中 / 已开票 / 已拒绝 / 开票失败 */
export const SCAN_REQUEST_STATUS = {
  pending: '待审核',
  issuing: '开票中',
  issued: '已开票',
  rejected: '已拒绝',
  failed: '开票失败',
} as const;
export type ScanRequestStatus = keyof typeof SCAN_REQUEST_STATUS;
export const scanRequestStatusSchema = z.enum(
  Object.keys(SCAN_REQUEST_STATUS) as [ScanRequestStatus, ...ScanRequestStatus[]],
);

/** What the buyer is told per status. */
export const SCAN_BUYER_STATUS: Record<ScanRequestStatus, string> = {
  pending: '已提交，等待商家审核开票',
  issuing: '发票开具中，请稍候',
  issued: '发票已开具',
  rejected: '商家已拒绝本次开票申请',
  // a failed attempt is the merchant's to retry; the buyer only sees that it is being handled
  failed: '商家正在处理您的开票申请',
};

export const SCAN_MSG = {
  CONTACT_REQUIRED: '请填写接收发票的邮箱或手机号',
  EMAIL_FORMAT: TITLE_MSG.EMAIL_FORMAT,
  MOBILE_FORMAT: TITLE_MSG.MOBILE_FORMAT,
  AMOUNT_FORMAT: `请输入正确的${TERMS.amount}，最多两位小数`,
  AMOUNT_POSITIVE: `${TERMS.amount}须大于0`,
  ITEMS_REQUIRED: '请至少添加一个开票项目',
  ITEM_NAME_REQUIRED: `请输入${TERMS.itemName}`,
  ITEM_RATE: `请选择${TERMS.taxRate}`,
  REASON_REQUIRED: '请填写拒绝原因',
  REASON_MAX: '拒绝原因最多100个字',
  ORDER_NO_FORMAT: '订单号须为1-40位字母、数字、下划线或中划线',
  COUNTER_NAME_REQUIRED: '请输入收银台名称',
  VALID_MINUTES: '有效期须为5分钟至30天',
  KEYWORD_MIN: '请至少输入2个字',
} as const;

const money = text()
  .trim()
  .regex(/^\d{1,14}(\.\d{1,2})?$/, SCAN_MSG.AMOUNT_FORMAT)
  .refine((v) => Number(v) > 0, SCAN_MSG.AMOUNT_POSITIVE);

/**
 * One item as a clerk (or the merchant's order) states it: goods facts and the tax-inclusive
 * amount; the server computes 金额 / 税额 with packages/shared/src/money.
 */
export const scanItemSchema = z.object({
  goods_id: z.number().int().positive().max(PG_INT_MAX).nullable().default(null),
  name: text().trim().min(1, SCAN_MSG.ITEM_NAME_REQUIRED).max(200),
  tax_class_code: text().regex(/^\d{19}$/, `${TERMS.taxClassCode}须为19位数字`),
  short_name: text().trim().min(1).max(120),
  spec: text().trim().max(150).default(''),
  unit: text().trim().max(20).default(''),
  quantity: text()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,8})?$/, `${TERMS.quantity}格式不正确`)
    .nullable()
    .default(null),
  tax_rate: text().regex(/^0(\.\d{1,6})?$/, SCAN_MSG.ITEM_RATE),
  /** tax-inclusive amount of the line */
  amount_with_tax: money,
  preferential_code: text()
    .regex(/^(|0[1-9]|1[0-8])$/)
    .default(''),
  zero_rate_flag: z.enum(['', '0', '1', '2', '3']).default(''),
});
export type ScanItem = z.infer<typeof scanItemSchema>;
/** A stored item as answers carry it: shown as stored, without the request rules. */
export const scanItemViewSchema = z.object({
  goods_id: z.number().nullable().default(null),
  name: z.string(),
  tax_class_code: z.string(),
  short_name: z.string(),
  spec: z.string().default(''),
  unit: z.string().default(''),
  quantity: z.string().nullable().default(null),
  tax_rate: z.string(),
  amount_with_tax: z.string(),
  preferential_code: z.string().default(''),
  zero_rate_flag: z.enum(['', '0', '1', '2', '3']).default(''),
});

// ---------------------------------------------------------------- console: settings and codes

export const scanSettingsSchema = z.object({
  store_id: z.number(),
  mode: z.enum(['audit', 'immediate']),
  /** device used for scan requests; null = the store's first device issuing `invoice_type` */
  device_id: z.number().nullable(),
  invoice_type: z.string(),
  /** minutes a dynamic order code stays valid when the clerk does not say */
  default_valid_minutes: z.number(),
});
export type ScanSettings = z.infer<typeof scanSettingsSchema>;

export const scanSettingsBodySchema = z.object({
  mode: z.enum(['audit', 'immediate']),
  device_id: z.number().int().positive().max(PG_INT_MAX).nullable().default(null),
  invoice_type: text().regex(/^(81|82|004|007|025|026|028|032)$/, `请选择${TERMS.invoiceKindShort}`),
  default_valid_minutes: z
    .number()
    .int()
    .min(5, SCAN_MSG.VALID_MINUTES)
    .max(43_200, SCAN_MSG.VALID_MINUTES)
    .default(1440),
});

export const scanCodeSchema = z.object({
  id: z.number(),
  kind: z.enum(['store', 'counter', 'order']),
  store_id: z.number(),
  store_name: z.string(),
  name: z.string(),
  /** the buyer's page: /s/<token> */
  token: z.string(),
  status: z.enum(['active', 'disabled']),
  order_no: z.string().nullable(),
  amount: z.string().nullable(),
  items: z.array(scanItemViewSchema).nullable(),
  hotel_stay: hotelStayViewSchema.nullable(),
  expires_at: z.string().nullable(),
  /** the order's request, if the buyer has submitted one */
  request_status: scanRequestStatusSchema.nullable(),
  created_at: z.string(),
});
export type ScanCode = z.infer<typeof scanCodeSchema>;

export const scanCodeListQuerySchema = pageQuerySchema.extend({
  kind: z.enum(['static', 'order']).default('static'),
  keyword: text().trim().max(40).default(''),
});

export const createCounterBodySchema = z.object({
  name: text().trim().min(1, SCAN_MSG.COUNTER_NAME_REQUIRED).max(30),
});

export const createOrderBodySchema = z.object({
  /** the merchant's order number; generated when blank */
  order_no: text()
    .trim()
    .default('')
    .refine((v) => v === '' || /^[A-Za-z0-9_-]{1,40}$/.test(v), SCAN_MSG.ORDER_NO_FORMAT),
  items: z.array(scanItemSchema).min(1, SCAN_MSG.ITEMS_REQUIRED).max(100),
  valid_minutes: z
    .number()
    .int()
    .min(5, SCAN_MSG.VALID_MINUTES)
    .max(43_200, SCAN_MSG.VALID_MINUTES)
    .optional(),
  hotel_stay: hotelStaySchema.optional(),
  remark: text({ multiline: true }).trim().max(200).default(''),
});
export type CreateOrderBody = z.input<typeof createOrderBodySchema>;

export const scanCodeIdSchema = z.object({ id: z.coerce.number().int().positive().max(PG_INT_MAX) });
export const scanCodeImageQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(PG_INT_MAX),
  /** 1 = attachment (download) */
  download: z.enum(['0', '1']).default('0'),
});

// ---------------------------------------------------------------- console: audit queue

export const scanRequestSchema = z.object({
  id: z.number(),
  store_id: z.number(),
  store_name: z.string(),
  code_kind: z.enum(['store', 'counter', 'order']),
  /** 开票点: the store / counter name or 订单码 */
  point_name: z.string(),
  order_no: z.string().nullable(),
  status: scanRequestStatusSchema,
  title_type: z.number(),
  buyer_name: z.string(),
  buyer_tax_code: z.string(),
  buyer_address: z.string(),
  buyer_phone: z.string(),
  buyer_bank_name: z.string(),
  buyer_bank_account: z.string(),
  email: z.string(),
  mobile: z.string(),
  buyer_remark: z.string(),
  /** amount the buyer says was paid (static codes) or the order's amount */
  amount: z.string().nullable(),
  items: z.array(scanItemViewSchema).nullable(),
  hotel_stay: hotelStayViewSchema.nullable(),
  invoice_type: z.string().nullable(),
  invoice_id: z.number().nullable(),
  invoice_no: z.string().nullable(),
  reject_reason: z.string(),
  error_message: z.string().nullable(),
  reviewed_by_name: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  created_at: z.string(),
});
export type ScanRequest = z.infer<typeof scanRequestSchema>;

export const scanRequestListQuerySchema = pageQuerySchema.extend({
  status: z.union([scanRequestStatusSchema, z.literal('')]).default('pending'),
  /** buyer name, tax code or order number */
  keyword: text().trim().max(60).default(''),
  code_id: z.coerce.number().int().positive().max(PG_INT_MAX).optional(),
  hotel_only: z.enum(['0', '1']).default('0'),
});

export const approveBodySchema = z.object({
  id: z.number().int().positive(),
  /** the clerk's goods and amounts (required when the request has none) */
  items: z.array(scanItemSchema).min(1, SCAN_MSG.ITEMS_REQUIRED).max(100).optional(),
  hotel_stay: hotelStaySchema.optional(),
  remark: text({ multiline: true }).trim().max(200).optional(),
});
export type ApproveBody = z.input<typeof approveBodySchema>;

export const bulkApproveBodySchema = z.object({
  ids: z.array(z.number().int().positive()).min(1, '请选择要审核的申请').max(100),
});
export const bulkApproveResultSchema = z.object({
  issued: z.number(),
  failed: z.array(z.object({ id: z.number(), message: z.string() })),
});

export const rejectBodySchema = z.object({
  id: z.number().int().positive(),
  reason: text({ label: '拒绝原因', multiline: true })
    .trim()
    .min(1, SCAN_MSG.REASON_REQUIRED)
    .max(100, SCAN_MSG.REASON_MAX),
});

// ---------------------------------------------------------------- public (the buyer's page)

export const publicCodeQuerySchema = z.object({ token: text().trim().min(16).max(64) });

/** What the buyer's page shows about a code: only what is printed on the card or receipt anyway. */
export const publicCodeSchema = z.object({
  seller_name: z.string(),
  store_name: z.string(),
  kind: z.enum(['store', 'counter', 'order']),
  point_name: z.string(),
  order_no: z.string().nullable(),
  amount: z.string().nullable(),
  items: z.array(z.object({ name: z.string(), amount_with_tax: z.string() })).nullable(),
  expires_at: z.string().nullable(),
  expired: z.boolean(),
  /** order codes: the request already made for this order (the receipt is the buyer's ticket) */
  request_token: z.string().nullable(),
});
export type PublicCode = z.infer<typeof publicCodeSchema>;

const contactField = (pattern: RegExp, message: string) =>
  text()
    .trim()
    .max(100)
    .default('')
    .refine((v) => v === '' || pattern.test(v), message);

export const publicSubmitBodySchema = z
  .object({
    token: text().trim().min(16).max(64),
    title_type: z.union([z.literal(1), z.literal(2)], { error: TITLE_MSG.TYPE_REQUIRED }),
    name: text({ error: TITLE_MSG.NAME_REQUIRED })
      .trim()
      .min(1, TITLE_MSG.NAME_REQUIRED)
      .max(100, TITLE_MSG.NAME_MAX),
    tax_code: text()
      .trim()
      .default('')
      .transform((v) => v.toUpperCase()),
    address: text().trim().max(100, TITLE_MSG.ADDRESS_MAX).default(''),
    phone: contactField(PATTERNS.enterprisePhone, TITLE_MSG.PHONE_FORMAT),
    bank_name: text().trim().max(60, TITLE_MSG.BANK_NAME_MAX).default(''),
    bank_account: contactField(PATTERNS.bankAccount, TITLE_MSG.BANK_ACCOUNT_FORMAT),
    email: contactField(PATTERNS.email, SCAN_MSG.EMAIL_FORMAT),
    mobile: contactField(PATTERNS.mobile, SCAN_MSG.MOBILE_FORMAT),
    /** static codes: what the buyer paid (the clerk checks it) */
    amount: text()
      .trim()
      .default('')
      .refine((v) => v === '' || (/^\d{1,14}(\.\d{1,2})?$/.test(v) && Number(v) > 0), SCAN_MSG.AMOUNT_FORMAT),
    remark: text({ multiline: true }).trim().max(100).default(''),
  })
  .superRefine((v, ctx) => {
    for (const issue of titleIssues(v))
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    if (!v.email && !v.mobile) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: SCAN_MSG.CONTACT_REQUIRED });
    }
  });
export type PublicSubmitBody = z.input<typeof publicSubmitBodySchema>;

export const publicSubmitResultSchema = z.object({
  request_token: z.string(),
  status: scanRequestStatusSchema,
});

export const publicRequestQuerySchema = z.object({ token: text().trim().min(16).max(64) });

/** The buyer's status page. */
export const publicRequestSchema = z.object({
  status: scanRequestStatusSchema,
  status_text: z.string(),
  seller_name: z.string(),
  store_name: z.string(),
  title_type: z.number(),
  buyer_name: z.string(),
  buyer_tax_code: z.string(),
  email: z.string(),
  mobile: z.string(),
  order_no: z.string().nullable(),
  reject_reason: z.string(),
  invoice: z
    .object({
      invoice_type_name: z.string(),
      invoice_no: z.string(),
      issued_at: z.string(),
      total_price_with_tax: z.string(),
    })
    .nullable(),
  created_at: z.string(),
});
export type PublicRequest = z.infer<typeof publicRequestSchema>;

export const titleSearchQuerySchema = z.object({
  token: text().trim().min(16).max(64),
  keyword: text().trim().min(2, SCAN_MSG.KEYWORD_MIN).max(60),
});
export const titleSuggestionSchema = z.object({ name: z.string(), tax_code: z.string() });
export type TitleSuggestion = z.infer<typeof titleSuggestionSchema>;
