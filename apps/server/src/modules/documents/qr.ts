import { invoiceQrText } from '@kaipiao/shared';
import type { InvoiceDocData } from './model.ts';

/**
 * The 票面 QR string (bureau spec §六, domain.md §1.2) for an invoice whose row carries none
 * (`invoices.qr_string` is filled when it is issued): the shared rule `invoiceQrText`, the same one the
 * issuing code uses — an unknown kind is an error there too, never a made-up QR.
 */
export function buildQrString(
  inv: Pick<
    InvoiceDocData,
    'invoiceType' | 'invoiceCode' | 'invoiceNo' | 'checkCode' | 'issuedAt' | 'totalAmount' | 'totalWithTax'
  >,
): string {
  return invoiceQrText({
    invoiceType: inv.invoiceType,
    invoiceCode: inv.invoiceCode,
    invoiceNo: inv.invoiceNo,
    checkCode: inv.checkCode,
    totalAmount: inv.totalAmount,
    totalWithTax: inv.totalWithTax,
    issueDate: inv.issuedAt,
  });
}
