import {
  formatMoney,
  formatQuantity,
  formatUnitPrice,
  invoiceQrText,
  qrRuleFor,
  toChineseCapital,
} from '@kaipiao/shared/money/index';
import { INVOICE_TYPES, type InvoiceType } from '@kaipiao/shared/schemas/invoice';
import type { InvoiceDetail } from '@kaipiao/shared/schemas/query';
import { beijingTime } from './utils.ts';

/** Roll paper widths (mm) a ticket printer takes. */
export const TICKET_WIDTHS = [58, 80] as const;
export type TicketWidth = (typeof TICKET_WIDTHS)[number];

export type Ticket = {
  title: string;
  seller: string;
  sellerTaxCode: string;
  invoiceCode: string;
  invoiceNo: string;
  issuedAt: string;
  checkCode: string;
  buyer: string;
  buyerTaxCode: string;
  lines: { no: number; name: string; detail: string; amount: string; rate: string }[];
  totalAmount: string;
  totalTax: string;
  totalWithTax: string;
  capital: string;
  /** the 票面 QR text: the stored one, else built from the invoice (shared money/qr) */
  qr: string;
  remark: string;
  drawer: string;
};

/** What a roll ticket prints of an invoice (domain.md §1.3 in a narrow layout). */
export function ticketOf(d: InvoiceDetail): Ticket {
  const inv = d.invoice;
  // the shared rule (bureau spec §六) decides the fields; a kind without one prints no QR
  const qr =
    inv.qr_string ||
    (qrRuleFor(inv.invoice_type) && inv.invoice_no && inv.issued_at
      ? invoiceQrText({
          invoiceType: inv.invoice_type,
          invoiceCode: inv.invoice_code,
          invoiceNo: inv.invoice_no,
          checkCode: inv.check_code,
          totalAmount: inv.total_amount,
          totalWithTax: inv.total_with_tax,
          issueDate: beijingTime(inv.issued_at).slice(0, 10),
        })
      : '');
  const lines = d.lines.map((l) => {
    const qty = l.quantity
      ? `${formatQuantity(l.quantity)}${l.unit} × ${formatUnitPrice(l.unit_price_with_tax ?? l.unit_price)}`
      : '';
    return {
      no: l.line_no,
      name: l.full_name,
      detail: [l.spec, qty].filter(Boolean).join(' '),
      amount: formatMoney(l.amount_with_tax),
      rate: l.tax_rate_label,
    };
  });
  return {
    title: INVOICE_TYPES[inv.invoice_type as InvoiceType] ?? inv.invoice_type_name,
    seller: inv.seller_name,
    sellerTaxCode: inv.seller_tax_code,
    invoiceCode: inv.invoice_code,
    invoiceNo: inv.invoice_no ?? '',
    issuedAt: beijingTime(inv.issued_at, true),
    checkCode: inv.check_code,
    buyer: inv.buyer_name,
    buyerTaxCode: inv.buyer_tax_code,
    lines,
    totalAmount: formatMoney(inv.total_amount),
    totalTax: formatMoney(inv.total_tax),
    totalWithTax: formatMoney(inv.total_with_tax),
    capital: toChineseCapital(inv.total_with_tax),
    qr,
    remark: inv.remark,
    drawer: inv.drawer,
  };
}
