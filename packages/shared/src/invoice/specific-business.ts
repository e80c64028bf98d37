import type { SmallScaleReason } from '../money/rates.ts';
import type { BlueInvoiceRequest, SpecificBusinessCode } from '../schemas/invoice.ts';

/**
 * The 特定业务 blocks of an invoice (domain.md §4) from the form to the printed document, in one place:
 * which key carries the block of a code (the request's and the stored JSON's alike), what the issue
 * form sends of them, what the server keeps with the invoice (`invoices.specific_business`) and how
 * the documents read it back.
 */

/** 特定业务 code → the key of its block, in the request and in `invoices.specific_business`. */
export const SPECIFIC_BUSINESS_BLOCKS = {
  '03': 'building_service',
  '04': 'goods_transport',
  '06': 'real_static_rent',
  '09': 'passenger_transport',
} as const satisfies Record<SpecificBusinessCode, string>;
export type SpecificBusinessBlockKey = (typeof SPECIFIC_BUSINESS_BLOCKS)[SpecificBusinessCode];

const isCode = (code: unknown): code is SpecificBusinessCode =>
  typeof code === 'string' && Object.hasOwn(SPECIFIC_BUSINESS_BLOCKS, code);

/** The block key of a code, or null for no code or one the table does not know. */
export function specificBlockKey(code: string | null | undefined): SpecificBusinessBlockKey | null {
  return isCode(code) ? SPECIFIC_BUSINESS_BLOCKS[code] : null;
}

/**
 * The block of `code` out of `blocks`, the others dropped (`{}` without a code or a block): what
 * the issue form sends and the server keeps — a block of another business never travels.
 */
export function specificBlockOf<T extends Partial<Record<SpecificBusinessBlockKey, unknown>>>(
  code: string | null | undefined,
  blocks: T,
): Partial<Pick<T, SpecificBusinessBlockKey>> {
  const key = specificBlockKey(code);
  if (!key || blocks[key] === undefined) return {};
  return { [key]: blocks[key] } as Partial<Pick<T, SpecificBusinessBlockKey>>;
}

type HotelStay = NonNullable<BlueInvoiceRequest['hotel_stay']>;

/** What an issued invoice keeps in `invoices.specific_business` (JSON). */
export type StoredSpecificBusiness = Partial<Pick<BlueInvoiceRequest, SpecificBusinessBlockKey>> & {
  hotel_stay?: HotelStay;
  /** why a small-scale taxpayer issued 3% while the 1% reduction ran (`slsm`, domain.md §2.6) */
  small_scale_reason?: SmallScaleReason;
  /** 是否展示购买方/销售方银行账号: bank details print in 备注 only when asked for */
  show_bank?: { buyer: boolean; seller: boolean };
};

export type SpecificBusinessRequest = Pick<
  BlueInvoiceRequest,
  'invoice_info' | SpecificBusinessBlockKey | 'hotel_stay' | 'show_buyer_bank' | 'show_seller_bank'
>;

/**
 * The `invoices.specific_business` JSON of a checked blue-invoice request: the block of its
 * 特定业务 code, the hotel stay, the small-scale reason when it applies (validateBlue's
 * `smallScaleReason`, null when none is asked for: a reason sent anyway is not kept) and the
 * bank-detail flags when one is set. Null when there is nothing to keep.
 */
export function specificBusinessOf(
  req: SpecificBusinessRequest,
  smallScaleReason: SmallScaleReason | null,
): StoredSpecificBusiness | null {
  const stored: StoredSpecificBusiness = specificBlockOf(req.invoice_info.specific_business_code, req);
  if (req.hotel_stay) stored.hotel_stay = req.hotel_stay;
  if (smallScaleReason) stored.small_scale_reason = smallScaleReason;
  if (req.show_buyer_bank || req.show_seller_bank) {
    stored.show_bank = { buyer: req.show_buyer_bank === true, seller: req.show_seller_bank === true };
  }
  return Object.keys(stored).length > 0 ? stored : null;
}

const objectOf = (raw: unknown): Record<string, unknown> | null =>
  raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;

/**
 * The block of `code` in a stored `specific_business` (as `specificBusinessOf` keeps it; a bare
 * block, as early rows kept it, is taken as it is). Null without a known code or anything stored.
 * The caller checks its shape.
 */
export function storedSpecificBlock(code: string | null | undefined, raw: unknown): unknown {
  const key = specificBlockKey(code);
  if (!key || raw === null || typeof raw !== 'object') return null;
  return Array.isArray(raw) ? raw : ((raw as Record<string, unknown>)[key] ?? raw);
}

/** The stored hotel stay, null when absent or blank in every field. */
export function storedHotelStay(raw: unknown): HotelStay | null {
  const stay = objectOf(objectOf(raw)?.hotel_stay);
  if (!stay || !Object.values(stay).some((v) => typeof v === 'string' && v.trim())) return null;
  return stay as HotelStay;
}

/** The stored small-scale reason ('1' | '2'), if any. */
export function storedSmallScaleReason(raw: unknown): SmallScaleReason | null {
  const reason = objectOf(raw)?.small_scale_reason;
  return reason === '1' || reason === '2' ? reason : null;
}

/** The stored bank-detail flags (absent: neither). */
export function storedShowBank(raw: unknown): { buyer: boolean; seller: boolean } {
  const flags = objectOf(objectOf(raw)?.show_bank);
  return { buyer: flags?.buyer === true, seller: flags?.seller === true };
}
