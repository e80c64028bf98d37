import type { blueInvoiceRequestSchema } from '@kaipiao/shared';
import {
  needsSmallScaleReason,
  type SpecificBusinessBlockKey,
  specificBlockOf,
  trimmed,
} from '@kaipiao/shared';
import type { z } from 'zod';
import { computeAll, isNumeric, type LineNumbers, totalsOf } from './line-math.ts';
import type { Draft, DraftLine } from './types.ts';

export type BlueInvoicePayload = z.input<typeof blueInvoiceRequestSchema>;
export type Seller = { name: string; tax_code: string };
export type TaxpayerType = 'general' | 'small';

/**
 * Whether the draft must say why it is issued at 3% (`slsm`, domain.md §2.6): small-scale seller,
 * a line at 3%, the 1% reduction still running on `date` (today in Beijing by default).
 */
export function smallScaleReasonNeeded(
  draft: Pick<Draft, 'lines'>,
  taxpayerType: TaxpayerType | null | undefined,
  date?: string | Date,
): boolean {
  return needsSmallScaleReason({ taxpayerType, rates: draft.lines.map((l) => l.tax_rate), date });
}

/** The unit price sent: as typed when it drives, else derived; both in the form's price mode. */
function sentPrice(line: DraftLine, n: LineNumbers | null, inclusive: boolean): string | null {
  if (line.line_kind === 1) return null;
  if (line.driver === 'price') return isNumeric(line.price) ? trimmed(line.price) : line.price.trim() || null;
  const p = inclusive ? n?.unitPriceWithTax : n?.unitPrice;
  return p ? trimmed(p) : null;
}

/**
 * The spec §3 payload for a draft; incomplete lines travel with empty amounts (and fail validation).
 * `small_scale_reason` goes only while it is asked for (`opts.reasonNeeded`, see smallScaleReasonNeeded).
 */
export function buildRequest(
  draft: Draft,
  serialNo: string,
  seller: Seller,
  opts: {
    reasonNeeded?: boolean;
    /** the draft's line numbers when the caller has computed them (the form does, once per change) */
    numbers?: readonly (LineNumbers | null)[];
  } = {},
): BlueInvoicePayload {
  const inclusive = draft.price_includes_tax;
  const numbers = opts.numbers ?? computeAll(draft.lines, inclusive);
  const totals = totalsOf(numbers);
  const code = draft.specific_business_code;
  const itemLines = draft.lines.filter((l) => l.line_kind !== 1);

  const payload: BlueInvoicePayload = {
    serial_no: serialNo,
    device_id: draft.device_id ?? 0,
    invoice_type: draft.invoice_type ?? ('' as never),
    buyer: { ...draft.buyer },
    seller: { name: seller.name, tax_code: seller.tax_code },
    goods_info: draft.lines.map((line, i) => {
      const n = numbers[i];
      const quantity = line.line_kind === 1 ? null : (n?.quantity ?? (line.quantity.trim() || null));
      return {
        line_kind: line.line_kind,
        goods_id: line.goods_id,
        tax_class_code: line.tax_class_code,
        short_name: line.short_name,
        name: line.name,
        spec: line.line_kind === 1 ? '' : line.spec,
        unit: line.line_kind === 1 ? '' : line.unit,
        quantity: quantity === null ? null : isNumeric(quantity) ? trimmed(quantity) : quantity,
        price: sentPrice(line, n, inclusive),
        amount: n?.amount ?? '',
        tax_amount: n?.taxAmount ?? '',
        amount_with_tax: n?.amountWithTax ?? '',
        tax_rate: line.tax_rate,
        preferential_code: line.preferential_code,
        zero_rate_flag: line.zero_rate_flag,
      };
    }),
    invoice_info: {
      price_includes_tax: inclusive,
      total_amount: totals.totalAmount,
      total_tax: totals.totalTax,
      total_price_with_tax: totals.totalWithTax,
      remark: draft.remark,
      specific_business_code: code,
      drawer: draft.drawer,
      payee: draft.payee,
      reviewer: draft.reviewer,
    },
    send_email: draft.send_email && draft.buyer.email.trim() !== '',
  };
  // each block from the draft, read (getters) only for the chosen business, whose block alone
  // travels under its key (shared specificBlockOf / SPECIFIC_BUSINESS_BLOCKS, as the server keeps it)
  const blocks: Pick<BlueInvoicePayload, SpecificBusinessBlockKey> = {
    get building_service() {
      const b = draft.building;
      return { ...b, cross_region_no: b.cross_city === 'Y' ? b.cross_region_no : '' };
    },
    get goods_transport() {
      return draft.transports.map(({ key: _key, ...t }) => t);
    },
    get real_static_rent() {
      return draft.rents.map(({ lease_start, lease_end, ...r }, i) => ({
        ...r,
        lease_period: lease_start && lease_end ? `${lease_start} ${lease_end}` : '',
        area_unit: itemLines[i]?.unit ?? '',
      }));
    },
    get passenger_transport() {
      return draft.passengers.map(({ key: _key, ...p }) => p);
    },
  };
  Object.assign(payload, specificBlockOf(code, blocks));
  if (draft.stay) payload.hotel_stay = { ...draft.stay };
  if (opts.reasonNeeded && draft.small_scale_reason) payload.small_scale_reason = draft.small_scale_reason;
  if (draft.show_buyer_bank) payload.show_buyer_bank = true;
  if (draft.show_seller_bank) payload.show_seller_bank = true;
  return payload;
}

/** A stable fingerprint of what would be sent (serial excluded): a changed draft is a new request. */
export function payloadFingerprint(payload: BlueInvoicePayload): string {
  const { serial_no: _serial, ...rest } = payload;
  return JSON.stringify(rest);
}
