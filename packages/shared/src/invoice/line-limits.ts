import { TERMS } from '../glossary/terms.ts';
import { DIGITAL_INVOICE_TYPES, PAPER_INVOICE_TYPES } from '../schemas/invoice.ts';

/**
 * Item lines (项目明细, discount lines included) one invoice may carry, by kind: 数电 2000; paper
 * kinds 8 (no 销货清单 yet); the other electronic kinds 100. The issue form, the server's request
 * check, batch splitting and red-form lines all read these.
 */
export const INVOICE_LINE_LIMITS = { digital: 2000, paper: 8, electronic: 100 } as const;

/** The line limit of an invoice type (`INVOICE_LINE_LIMITS`). */
export function maxInvoiceLines(invoiceType: string): number {
  if ((DIGITAL_INVOICE_TYPES as readonly string[]).includes(invoiceType)) return INVOICE_LINE_LIMITS.digital;
  if ((PAPER_INVOICE_TYPES as readonly string[]).includes(invoiceType)) return INVOICE_LINE_LIMITS.paper;
  return INVOICE_LINE_LIMITS.electronic;
}

/** What the form and the server say when an invoice has more lines than its kind allows. */
export function tooManyLinesMessage(limit: number): string {
  return limit === INVOICE_LINE_LIMITS.paper
    ? `${TERMS.paperInvoice}最多${limit}行项目明细，请拆分开具`
    : `该${TERMS.invoiceKindShort}最多${limit}行项目明细，请拆分开具`;
}

/** The line-limit issue of an invoice (field `goods_info`), or null within the limit. */
export function lineLimitIssue(
  invoiceType: string,
  lineCount: number,
): { field: 'goods_info'; message: string } | null {
  const limit = maxInvoiceLines(invoiceType);
  return lineCount > limit ? { field: 'goods_info', message: tooManyLinesMessage(limit) } : null;
}
