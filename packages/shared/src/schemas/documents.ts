import { z } from 'zod';
import { PATTERNS } from '../validation/patterns.ts';
import { text } from '../validation/text.ts';

/** Invoice documents and delivery (architecture.md §5): download and e-mail re-send. */

export const INVOICE_FILE_KINDS = { pdf: 'PDF 版式文件', xml: 'XML 数据文件' } as const;
export type InvoiceFileKind = keyof typeof INVOICE_FILE_KINDS;

export const EMAIL_INVALID_MESSAGE = '请输入正确的邮箱地址';

/** GET /v3/invoice-detail/download: the file itself (Content-Disposition with an RFC 5987 name). */
export const invoiceDownloadQuerySchema = z.object({
  invoice_id: z.coerce.number().int().positive(),
  kind: z.enum(['pdf', 'xml']).default('pdf'),
  /** 1: show in the browser (Content-Disposition inline) instead of saving */
  inline: z.enum(['0', '1']).default('0'),
});
export type InvoiceDownloadQuery = z.infer<typeof invoiceDownloadQuerySchema>;

/** POST /v3/invoice-detail/send-email: e-mails the PDF and XML now. */
export const sendInvoiceEmailRequestSchema = z.object({
  invoice_id: z.number().int().positive(),
  email: text().trim().min(1, EMAIL_INVALID_MESSAGE).max(100).regex(PATTERNS.email, EMAIL_INVALID_MESSAGE),
});
export type SendInvoiceEmailRequest = z.infer<typeof sendInvoiceEmailRequestSchema>;

export const sendInvoiceEmailResultSchema = z.object({
  invoice_id: z.number(),
  email: z.string(),
  status: z.literal('sent'),
});
export type SendInvoiceEmailResult = z.infer<typeof sendInvoiceEmailResultSchema>;
