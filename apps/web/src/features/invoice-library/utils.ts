import { formatMoney } from '@kaipiao/shared/money/capital';
import type { InvoiceFilter } from '@kaipiao/shared/schemas/query';

export { beijingTime } from '../../lib/format.ts';

/** The search form's values as `toFilter` takes them (library-filters.tsx `formToLibrary`). */
export type LibraryForm = {
  date_range?: [string, string];
  invoice_types?: string[];
  invoice_no?: string;
  buyer?: string;
  statuses?: string[];
  store_ids?: number[];
  amount_min?: number | string | null;
  amount_max?: number | string | null;
  direction?: 'blue' | 'red';
};

const TAX_CODE = /^[0-9A-Za-z]{15,20}$/;
const money = (v: number | string | null | undefined) =>
  v === null || v === undefined || v === '' ? undefined : Number(v).toFixed(2);

/**
 * Form values → the list filters. One box takes 购方名称 or 税号: 15–20 letters/digits with at least
 * one digit is a tax code (exact), anything else a name fragment.
 */
export function toFilter(form: LibraryForm): InvoiceFilter {
  const buyer = form.buyer?.trim() ?? '';
  const isTaxCode = TAX_CODE.test(buyer) && /\d/.test(buyer);
  const f: InvoiceFilter = {
    date_from: form.date_range?.[0] || undefined,
    date_to: form.date_range?.[1] || undefined,
    invoice_types: form.invoice_types?.length
      ? (form.invoice_types as InvoiceFilter['invoice_types'])
      : undefined,
    invoice_no: form.invoice_no?.trim() || undefined,
    buyer_name: buyer && !isTaxCode ? buyer : undefined,
    buyer_tax_code: buyer && isTaxCode ? buyer.toUpperCase() : undefined,
    statuses: form.statuses?.length ? (form.statuses as InvoiceFilter['statuses']) : undefined,
    store_ids: form.store_ids?.length ? form.store_ids : undefined,
    amount_min: money(form.amount_min),
    amount_max: money(form.amount_max),
    direction: form.direction,
  };
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as InvoiceFilter;
}

/** Beijing-time 'YYYY-MM-DD HH:mm' (or with seconds) of an ISO instant ('—' when missing). */
/** '1,234.50' with a sign (the shared money formatter). */
export const money2 = (v: string): string => formatMoney(v);

export function fileSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
