import { z } from 'zod';
import { PAGE_SIZES } from '../constants/menu.ts';
import { INVOICE_STATUS, RED_STATUS, TERMS } from '../glossary/terms.ts';
import { Dec } from '../money/decimal.ts';
import { text } from '../validation/text.ts';
import { invoiceTypeSchema } from './invoice.ts';

/**
 * Invoice library, export records, statistics and home figures (issue 3 items 7–8). Amounts travel
 * as decimal strings with two decimals; red invoices carry negative amounts, so sums net out.
 * Dates are business-calendar days (Asia/Shanghai) as `YYYY-MM-DD`, both ends inclusive.
 */

/**
 * The list counts matches up to this many; beyond it `total_capped` is true. Counting a broad search
 * (e.g. "数据服务" over a quarter of a 1,000,000-invoice tenant) to 10,000 costs ~160 ms of heap
 * rechecks, to 2,000 ~30 ms; 2,000 rows are 200 pages of 10 — narrow the search or export beyond that.
 */
export const LIBRARY_COUNT_CAP = 2_000;
/** Bulk PDF download: at most this many invoices per zip. */
export const EXPORT_PDF_MAX = 1000;
/** Excel export: at most this many invoices per file. */
export const EXPORT_EXCEL_MAX = 200_000;
/** Export files are kept this many days. */
export const EXPORT_KEEP_DAYS = 7;

/**
 * The library's status filter (domain.md §9 item 7): one key per tag the table shows, in the
 * glossary's words (an issued invoice that no red one reversed is 正常).
 */
export const LIBRARY_STATUS = {
  normal: '正常',
  issuing: INVOICE_STATUS.issuing,
  failed: INVOICE_STATUS.failed,
  unknown: INVOICE_STATUS.unknown,
  voided: INVOICE_STATUS.voided,
  partial_red: RED_STATUS.partial,
  full_red: RED_STATUS.full,
} as const;
export type LibraryStatus = keyof typeof LIBRARY_STATUS;
export const libraryStatusSchema = z.enum(Object.keys(LIBRARY_STATUS) as [LibraryStatus, ...LibraryStatus[]]);

/** The tag of an invoice row from its stored status and red status. */
export function libraryStatusOf(status: string, redStatus: string): LibraryStatus {
  if (status === 'issued') {
    if (redStatus === 'full') return 'full_red';
    if (redStatus === 'partial') return 'partial_red';
    return 'normal';
  }
  // Stryker disable next-line ConditionalExpression: 'unknown' not returned here is returned by the line below
  if (status === 'issuing' || status === 'failed' || status === 'unknown' || status === 'voided')
    return status;
  return 'unknown';
}

export const DIRECTIONS = { blue: TERMS.blueInvoice, red: TERMS.redInvoice } as const;

export const dayString = text().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式须为YYYY-MM-DD');
/** spec §9 page sizes 10/20/30, default 10 */
const pageSize = z
  .number()
  .int()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是10、20或30')
  .default(10);
/** 价税合计 range with its minimum above its maximum. */
export const AMOUNT_RANGE_INVERTED = `最小${TERMS.totalWithTax}不能大于最大${TERMS.totalWithTax}`;
const moneyFilter = text().regex(/^-?\d{1,14}(\.\d{1,2})?$/, `${TERMS.amount}格式不正确，最多两位小数`);

/** Filters shared by the list, the exports and (date + stores) the statistics. */
export const invoiceFilterSchema = z
  .object({
    /** 开票日期 from / to (inclusive) */
    date_from: dayString.optional(),
    date_to: dayString.optional(),
    invoice_types: z.array(invoiceTypeSchema).max(10).optional(),
    /** 发票号码: the whole number or its last digits */
    invoice_no: text()
      .trim()
      .regex(/^\d{0,20}$/, `${TERMS.invoiceNo}只能是数字`)
      .optional(),
    /** 购买方名称 contains */
    buyer_name: text().trim().max(100).optional(),
    /** 购买方税号, exact */
    buyer_tax_code: text()
      .trim()
      .regex(/^[0-9A-Za-z]{0,20}$/, `${TERMS.taxCodeShort}格式不正确`)
      .optional(),
    statuses: z.array(libraryStatusSchema).max(7).optional(),
    /** within the stores the caller may see; empty = all of them */
    store_ids: z.array(z.number().int().positive()).max(200).optional(),
    /** 价税合计 range (signed: red invoices are negative) */
    amount_min: moneyFilter.optional(),
    amount_max: moneyFilter.optional(),
    direction: z.enum(['blue', 'red']).optional(),
  })
  // an inverted range matched nothing, silently (issue 24 item 8): refused, under 最大价
  .refine((f) => !(f.amount_min && f.amount_max && Dec(f.amount_min).gt(Dec(f.amount_max))), {
    message: AMOUNT_RANGE_INVERTED,
    path: ['amount_max'],
  });
export type InvoiceFilter = z.infer<typeof invoiceFilterSchema>;

/** POST /v3/invoice-record/list */
export const invoiceListRequestSchema = invoiceFilterSchema.extend({
  page: z.number().int().min(1).max(100_000).default(1),
  page_size: pageSize,
});
export type InvoiceListRequest = z.input<typeof invoiceListRequestSchema>;

export const invoiceRowSchema = z.object({
  invoice_id: z.number(),
  serial_no: z.string(),
  invoice_type: z.string(),
  invoice_type_name: z.string(),
  invoice_code: z.string(),
  invoice_no: z.string().nullable(),
  direction: z.enum(['blue', 'red']),
  status: z.string(),
  red_status: z.string(),
  status_key: libraryStatusSchema,
  status_name: z.string(),
  buyer_name: z.string(),
  buyer_tax_code: z.string(),
  buyer_email: z.string(),
  total_amount: z.string(),
  total_tax: z.string(),
  total_with_tax: z.string(),
  store_id: z.number(),
  store_name: z.string(),
  source: z.string(),
  /** ISO time; null while not issued */
  issued_at: z.string().nullable(),
  created_at: z.string(),
});
export type InvoiceRow = z.infer<typeof invoiceRowSchema>;

export const invoiceListResponseSchema = z.object({
  list: z.array(invoiceRowSchema),
  total: z.number(),
  /** true: more than LIBRARY_COUNT_CAP matches; `total` is the cap */
  total_capped: z.boolean(),
  page: z.number(),
  page_size: z.number(),
});
export type InvoiceListResponse = z.infer<typeof invoiceListResponseSchema>;

/** POST /v3/invoice-detail/get-invoice-detail (spec §7) */
export const invoiceDetailRequestSchema = z.object({ invoice_id: z.coerce.number().int().positive() });

export const invoiceLineViewSchema = z.object({
  line_no: z.number(),
  line_kind: z.number(),
  tax_class_code: z.string(),
  short_name: z.string(),
  name: z.string(),
  full_name: z.string(),
  spec: z.string(),
  unit: z.string(),
  quantity: z.string().nullable(),
  unit_price: z.string().nullable(),
  unit_price_with_tax: z.string().nullable(),
  amount: z.string(),
  tax_rate: z.string(),
  tax_rate_label: z.string(),
  tax_amount: z.string(),
  amount_with_tax: z.string(),
  preferential_code: z.string(),
  zero_rate_flag: z.string(),
});
export type InvoiceLineView = z.infer<typeof invoiceLineViewSchema>;

export const INVOICE_EVENT_NAMES: Record<string, string> = {
  created: '提交开票',
  issuing: INVOICE_STATUS.issuing,
  issued: '开具成功',
  failed: INVOICE_STATUS.failed,
  unknown: INVOICE_STATUS.unknown,
  reconciled: '结果已确认',
  emailed: '发送邮件',
  email_failed: '邮件发送失败',
  rendered: '生成版式文件',
  reddened: TERMS.redLetter,
  voided: TERMS.void,
};

export const invoiceEventViewSchema = z.object({
  id: z.number(),
  kind: z.string(),
  kind_name: z.string(),
  user_id: z.number().nullable(),
  /** the employee's nickname; '系统' for events without a user */
  user_name: z.string(),
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type InvoiceEventView = z.infer<typeof invoiceEventViewSchema>;

export const invoiceFileViewSchema = z.object({
  kind: z.enum(['pdf', 'xml']),
  /** rendered and cached; false = rendered on the first download */
  ready: z.boolean(),
  file_name: z.string(),
  size: z.number().nullable(),
  created_at: z.string().nullable(),
});

export const relatedInvoiceSchema = z.object({
  invoice_id: z.number(),
  invoice_type: z.string(),
  invoice_code: z.string(),
  invoice_no: z.string().nullable(),
  status: z.string(),
  total_amount: z.string(),
  total_tax: z.string(),
  total_with_tax: z.string(),
  issued_at: z.string().nullable(),
});

export const invoiceDetailSchema = z.object({
  invoice: invoiceRowSchema.extend({
    device_id: z.number(),
    check_code: z.string(),
    buyer_title_type: z.number(),
    buyer_address: z.string(),
    buyer_phone: z.string(),
    buyer_bank_name: z.string(),
    buyer_bank_account: z.string(),
    buyer_mobile: z.string(),
    seller_name: z.string(),
    seller_tax_code: z.string(),
    seller_address: z.string(),
    seller_phone: z.string(),
    seller_bank_name: z.string(),
    seller_bank_account: z.string(),
    price_includes_tax: z.boolean(),
    remark: z.string(),
    drawer: z.string(),
    payee: z.string(),
    reviewer: z.string(),
    qr_string: z.string(),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
    created_by: z.number().nullable(),
    created_by_name: z.string(),
    /** small-scale 3% while the 1% reduction ran: why (SMALL_SCALE_3_PERCENT_REASONS text), else null */
    small_scale_reason: z.string().nullable(),
  }),
  lines: z.array(invoiceLineViewSchema),
  specific_business: z.object({ code: z.string(), name: z.string(), data: z.unknown() }).nullable(),
  events: z.array(invoiceEventViewSchema),
  files: z.array(invoiceFileViewSchema),
  /** red invoice → the blue one it reverses */
  original: relatedInvoiceSchema.nullable(),
  /** blue invoice → what red invoices may still reverse (later red-letter work) */
  red: z
    .object({
      red_invoices: z.array(relatedInvoiceSchema),
      /** Σ of issued red invoices (negative or 0.00) */
      reddened_amount: z.string(),
      reddened_tax: z.string(),
      reddened_with_tax: z.string(),
      remaining_amount: z.string(),
      remaining_tax: z.string(),
      remaining_with_tax: z.string(),
    })
    .nullable(),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

// ---------------------------------------------------------------------------------------------
// Exports (/query/invoice/export-records)

export const EXPORT_KINDS = { pdf_zip: 'PDF批量下载', excel: 'Excel导出' } as const;
export type ExportKind = keyof typeof EXPORT_KINDS;
export const EXPORT_STATUS = {
  queued: '排队中',
  running: '处理中',
  done: '已完成',
  failed: '失败',
  expired: '已过期',
} as const;
export type ExportStatus = keyof typeof EXPORT_STATUS;

/** POST /v3/invoice-export/create: the selected invoices, or everything the filters match. */
export const exportCreateRequestSchema = z.object({
  kind: z.enum(['pdf_zip', 'excel']),
  invoice_ids: z.array(z.number().int().positive()).max(EXPORT_PDF_MAX).optional(),
  filters: invoiceFilterSchema.default({}),
});
export type ExportCreateRequest = z.input<typeof exportCreateRequestSchema>;

export const exportRecordSchema = z.object({
  record_id: z.number(),
  kind: z.enum(['pdf_zip', 'excel']),
  kind_name: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'expired']),
  status_name: z.string(),
  /** 0–100 */
  progress: z.number(),
  row_count: z.number(),
  file_name: z.string(),
  file_size: z.number().nullable(),
  error: z.string().nullable(),
  /** a human summary of the filters */
  summary: z.string(),
  created_by_name: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string(),
});
export type ExportRecord = z.infer<typeof exportRecordSchema>;

export const exportListRequestSchema = z.object({
  page: z.number().int().min(1).default(1),
  page_size: pageSize,
});
export const exportListResponseSchema = z.object({
  list: z.array(exportRecordSchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});

// ---------------------------------------------------------------------------------------------
// Statistics (/query/invoice-stat)

/** POST /v3/invoice-stat/summary */
export const statRequestSchema = z.object({
  date_from: dayString,
  date_to: dayString,
  granularity: z.enum(['day', 'month']).default('day'),
  store_ids: z.array(z.number().int().positive()).max(200).optional(),
});
export type StatRequest = z.input<typeof statRequestSchema>;

const sums = {
  count: z.number(),
  total_amount: z.string(),
  total_tax: z.string(),
  total_with_tax: z.string(),
};
export const statSumsSchema = z.object(sums);
export type StatSums = z.infer<typeof statSumsSchema>;

export const statSummarySchema = z.object({
  date_from: z.string(),
  date_to: z.string(),
  granularity: z.enum(['day', 'month']),
  /** net (blue + red); red amounts are negative */
  totals: statSumsSchema,
  blue: statSumsSchema,
  red: statSumsSchema,
  /** every period in the range, zero-filled */
  trend: z.array(z.object({ period: z.string(), ...sums, blue_count: z.number(), red_count: z.number() })),
  by_kind: z.array(z.object({ invoice_type: z.string(), name: z.string(), ...sums })),
  /** from the lines: 金额 / 税额 / 价税合计 per rate */
  by_rate: z.array(
    z.object({
      tax_rate: z.string(),
      label: z.string(),
      line_count: z.number(),
      total_amount: z.string(),
      total_tax: z.string(),
      total_with_tax: z.string(),
    }),
  ),
  by_store: z.array(z.object({ store_id: z.number(), store_name: z.string(), ...sums })),
});
export type StatSummary = z.infer<typeof statSummarySchema>;

// ---------------------------------------------------------------------------------------------
// Home (/home/index)

/** spec §1 tax notice: small-scale thresholds (monthly / quarterly sales, tax-exclusive). */
export const SMALL_SCALE_MONTH_THRESHOLD = '100000.00';
export const SMALL_SCALE_QUARTER_THRESHOLD = '300000.00';
export const SMALL_SCALE_NOTICE_TEXT =
  '根据国家税务总局相关规定，自2023年1月1日至2027年12月31日，增值税小规模纳税人适用3%征收率的应税销售收入，减按1%征收率征收增值税；月销售额未超过10万元（以1个季度为1个纳税期的，季度销售额未超过30万元）的增值税小规模纳税人，免征增值税。';

export const homeOverviewSchema = z.object({
  /** net (blue + red; red amounts are negative) */
  today: statSumsSchema,
  /** today's blue invoices and red invoices apart (issue 24: 今日开票 shows blue, red and net) */
  today_blue: statSumsSchema,
  today_red: statSumsSchema,
  month: statSumsSchema,
  quarter: statSumsSchema,
  /** the month / quarter in question, e.g. "2026-05" and "2026Q2" */
  month_label: z.string(),
  quarter_label: z.string(),
  small_scale: z.object({
    /** the business is a small-scale taxpayer */
    applies: z.boolean(),
    /** ordinary-invoice sales (tax-exclusive, reds netted) this month / this quarter */
    month_sales: z.string(),
    quarter_sales: z.string(),
    month_threshold: z.string(),
    quarter_threshold: z.string(),
    /** true when the figures cover only some stores (a clerk's scope) */
    partial_scope: z.boolean(),
    /** show the notice dialog now (not "不再提醒", not confirmed today) */
    show_notice: z.boolean(),
  }),
  tax_rate_tip: z.object({ show: z.boolean(), title: z.string(), content: z.string() }),
});
export type HomeOverview = z.infer<typeof homeOverviewSchema>;

/** POST /v3/home/small-scale-notice: 不再提醒 = never, 确定 = not again today. */
export const smallScaleNoticeRequestSchema = z.object({ action: z.enum(['never', 'confirm']) });
