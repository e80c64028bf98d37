import { z } from 'zod';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';
import { INVOICE_TYPES } from './invoice.ts';

/**
 * Batch issuing (spec §2 /invoice/batch, domain.md §9 item 5): an Excel file of invoices keyed by
 * 流水号 (sheet 发票信息) and their item lines (sheet 商品明细), validated before anything is issued,
 * a dry run, then issuing by the batch runner with progress, pause, cancel and retry.
 */

/** The template's sheets. */
export const BATCH_SHEETS = { invoices: '发票信息', lines: '商品明细', help: '填写说明' } as const;

/** File limits: invoices on 发票信息 and rows on 商品明细. */
export const BATCH_LIMITS = { invoices: 10_000, lines: 100_000, fileMb: 30 } as const;

export const BATCH_STATUS = {
  ready: '待开票',
  running: '开票中',
  paused: '已暂停',
  cancelled: '已取消',
  done: '已完成',
} as const;
export type BatchStatus = keyof typeof BATCH_STATUS;
export const batchStatusSchema = z.enum(Object.keys(BATCH_STATUS) as [BatchStatus, ...BatchStatus[]]);

export const BATCH_ROW_STATUS = {
  pending: '待开具',
  issuing: '开具中',
  issued: '已开具',
  failed: '开具失败',
  skipped: '已取消',
} as const;
export type BatchRowStatus = keyof typeof BATCH_ROW_STATUS;
export const batchRowStatusSchema = z.enum(
  Object.keys(BATCH_ROW_STATUS) as [BatchRowStatus, ...BatchRowStatus[]],
);

/** Why a batch is paused: by a user, or because the bookkeeping service expired (spec §1). */
export const BATCH_PAUSE_REASON = { '': '', user: '已手动暂停', bookkeeping: '记账服务已到期' } as const;

/** One problem of an uploaded file: sheet and Excel row (0 = the file itself), column, message. */
export const batchIssueSchema = z.object({
  sheet: z.string(),
  row: z.number(),
  column: z.string(),
  message: z.string(),
});
export type BatchIssue = z.infer<typeof batchIssueSchema>;

/** `data` of a refused upload (code 17003–17008): the validation report. */
export const batchReportSchema = z.object({
  errors: z.array(batchIssueSchema),
  /** problems found (the list is capped) */
  error_count: z.number(),
  invoice_count: z.number(),
  line_count: z.number(),
});
export type BatchReport = z.infer<typeof batchReportSchema>;

const money = z.string();

export const batchSplitSchema = z.object({
  source_serial: z.string(),
  source_row: z.number(),
  parts: z.number(),
  /** amount: over the per-invoice limit; lines: over the line limit */
  reasons: z.array(z.enum(['amount', 'lines'])),
  total_amount: money,
});

/** The dry run (GET /v3/batch-invoice/dry-run): what starting the batch will do. */
export const batchDryRunSchema = z.object({
  batch_id: z.number(),
  status: batchStatusSchema,
  file_name: z.string(),
  device: z.object({
    device_id: z.number(),
    name: z.string(),
    kind_name: z.string(),
    per_invoice_limit: money,
    online: z.boolean(),
    locked: z.boolean(),
  }),
  store_id: z.number(),
  /** invoices in the file, invoices after splitting, item lines */
  source_count: z.number(),
  invoice_count: z.number(),
  line_count: z.number(),
  by_type: z.array(
    z.object({ invoice_type: z.string(), name: z.string(), count: z.number(), line_limit: z.number() }),
  ),
  total_amount: money,
  total_tax: money,
  total_with_tax: money,
  /** file invoices split by the limits, the first 200 */
  splits: z.array(batchSplitSchema),
  split_sources: z.number(),
  /**
   * What issuing uses up: the 数电 monthly quota (tax-exclusive amounts) or blank stock per kind.
   * `remaining` null = not limited.
   */
  quota: z.object({
    kind: z.enum(['quota', 'stock']),
    needed: z.string(),
    remaining: z.string().nullable(),
    enough: z.boolean(),
    stock: z.array(z.object({ invoice_type: z.string(), needed: z.number(), remaining: z.number() })),
  }),
  send_email: z.boolean(),
  /** an earlier batch of this business from the same file */
  duplicate_of: z
    .object({ batch_id: z.number(), created_at: z.string(), status: batchStatusSchema })
    .nullable(),
  bookkeeping_active: z.boolean(),
  /** the spec §1 notice while the bookkeeping service is expired */
  notice: z.string().nullable(),
});
export type BatchDryRun = z.infer<typeof batchDryRunSchema>;

/** Progress of a batch (GET /v3/batch-invoice/progress), also one item of the history. */
export const batchProgressSchema = z.object({
  batch_id: z.number(),
  status: batchStatusSchema,
  pause_reason: z.string(),
  /** why the batch is paused or cannot go on (bookkeeping notice), null when nothing to say */
  notice: z.string().nullable(),
  file_name: z.string(),
  device_name: z.string(),
  store_id: z.number(),
  store_name: z.string(),
  created_by_name: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  source_count: z.number(),
  total: z.number(),
  pending: z.number(),
  issuing: z.number(),
  issued: z.number(),
  failed: z.number(),
  skipped: z.number(),
  /** settled share (issued + failed + skipped) / total, 0–100 */
  percent: z.number(),
  total_with_tax: money,
  issued_with_tax: money,
});
export type BatchProgress = z.infer<typeof batchProgressSchema>;

export const batchListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30].includes(n), '每页条数须为10、20或30')
    .default(10),
});
export const batchListSchema = z.object({ total: z.number(), list: z.array(batchProgressSchema) });

export const batchRowSchema = z.object({
  seq: z.number(),
  source_serial: z.string(),
  source_row: z.number(),
  part_no: z.number(),
  part_count: z.number(),
  serial_no: z.string(),
  invoice_type: z.string(),
  buyer_name: z.string(),
  line_count: z.number(),
  total_amount: money,
  total_with_tax: money,
  status: batchRowStatusSchema,
  attempts: z.number(),
  invoice_id: z.number().nullable(),
  invoice_code: z.string(),
  invoice_no: z.string().nullable(),
  error_message: z.string().nullable(),
});
export type BatchRow = z.infer<typeof batchRowSchema>;

export const batchRowsQuerySchema = z.object({
  batch_id: z.coerce.number().int().positive().max(PG_INT_MAX),
  status: z.union([batchRowStatusSchema, z.literal('')]).default(''),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30].includes(n), '每页条数须为10、20或30')
    .default(10),
});
export const batchRowsSchema = z.object({ total: z.number(), list: z.array(batchRowSchema) });

export const batchIdBodySchema = z.object({ batch_id: z.number().int().positive().max(PG_INT_MAX) });
export const batchIdQuerySchema = z.object({
  batch_id: z.coerce.number().int().positive().max(PG_INT_MAX),
});

/** Upload options (query string of POST /v3/batch-invoice/upload; the file is the multipart body). */
export const batchUploadQuerySchema = z.object({
  device_id: z.coerce.number().int().positive(),
  /** kind for rows that leave 发票种类 empty */
  invoice_type: text().regex(/^\d{2,3}$/),
  /** e-mail each invoice to the buyer's address once issued */
  send_email: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
});

/**
 * The invoice kinds as the template's 发票种类 list offers them and the batch pages and files name
 * them: the console's names (INVOICE_TYPES, the glossary's one wording per kind).
 */
export const BATCH_KIND_LABELS: Record<string, string> = Object.fromEntries(
  (['82', '81', '026', '028', '007', '004', '025', '032'] as const).map((k) => [k, INVOICE_TYPES[k]]),
);

/** The short names earlier templates listed: still read from uploaded files, never shown. */
export const BATCH_KIND_ALIASES: Record<string, string> = {
  数电普票: '82', // glossary-allow
  数电专票: '81', // glossary-allow
  电子普票: '026', // glossary-allow
  电子专票: '028', // glossary-allow
  纸质普票: '007', // glossary-allow
  纸质专票: '004', // glossary-allow
  卷式普票: '025', // glossary-allow
  区块链发票: '032',
};
