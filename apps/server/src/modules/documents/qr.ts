import { buildInvoiceQr, qrTypeCodeFor } from '@kaipiao/shared';
import type { InvoiceDocData } from './model.ts';

/** yyyy / MM / dd of a moment in Asia/Shanghai (UTC+8, no DST). */
export function shanghaiYmd(d: Date): { y: string; m: string; d: string } {
  const t = new Date(d.getTime() + 8 * 3600_000);
  return {
    y: String(t.getUTCFullYear()),
    m: String(t.getUTCMonth() + 1).padStart(2, '0'),
    d: String(t.getUTCDate()).padStart(2, '0'),
  };
}

/**
 * The 票面 QR string (domain.md §1.2) for an invoice whose row carries none (`invoices.qr_string` is
 * normally filled when it is issued): 数电 electronic — no code, amount = 价税合计, no check code;
 * older kinds — code + number, amount = 合计金额, 校验码.
 */
export function buildQrString(
  inv: Pick<
    InvoiceDocData,
    | 'invoiceType'
    | 'digital'
    | 'invoiceCode'
    | 'invoiceNo'
    | 'checkCode'
    | 'issuedAt'
    | 'totalAmount'
    | 'totalWithTax'
  >,
): string {
  return buildInvoiceQr({
    typeCode: qrTypeCodeFor(inv.invoiceType) ?? '32',
    invoiceCode: inv.digital ? '' : inv.invoiceCode,
    invoiceNo: inv.invoiceNo,
    amount: inv.digital ? inv.totalWithTax : inv.totalAmount,
    issueDate: inv.issuedAt,
    checkCode: inv.digital ? '' : inv.checkCode,
  });
}
