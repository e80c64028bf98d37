import type { InvoiceType, SmallScaleReason, SpecificBusinessCode } from '@kaipiao/shared';

// The single-invoice form's draft. It mirrors the blue-invoice payload (spec §3) in its wire
// (snake_case) names, so client errors, server `data.errors[].field` and the inputs share one path
// scheme: `buyer.tax_code`, `goods_info.2.tax_amount`, `real_static_rent.0.detail_address`.

export type LineKind = 0 | 1 | 2;
export type ZeroRateFlag = '' | '0' | '1' | '2' | '3';

export type DraftLine = {
  /** stable row key (not sent) */
  key: string;
  /** 0 normal, 1 discount line (follows its discounted line), 2 discounted line (domain.md §2.4) */
  line_kind: LineKind;
  goods_id: number | null;
  tax_class_code: string;
  short_name: string;
  name: string;
  spec: string;
  unit: string;
  quantity: string;
  /** unit price as typed, in the form's price mode */
  price: string;
  /** amount as typed, in the form's price mode (incl. tax when 含税) */
  amount: string;
  /** which of price / amount the clerk typed last; the other one is derived */
  driver: 'price' | 'amount';
  tax_rate: string;
  preferential_code: string;
  zero_rate_flag: ZeroRateFlag;
  /** discount lines only: how the discount was given */
  discount: { mode: 'amount' | 'percent'; value: string } | null;
};

export type DraftBuyer = {
  title_type: 1 | 2;
  name: string;
  tax_code: string;
  address: string;
  phone: string;
  bank_name: string;
  bank_account: string;
  email: string;
  mobile: string;
};

export type DraftBuilding = {
  place: string;
  detail_address: string;
  project_name: string;
  cross_city: 'Y' | 'N';
  cross_region_no: string;
  land_vat_project_no: string;
};

export type DraftTransport = {
  key: string;
  vehicle_type: string;
  vehicle_no: string;
  origin: string;
  destination: string;
  goods_name: string;
};

export type DraftRent = {
  province: string;
  city: string;
  detail_address: string;
  /** [start, end] as yyyy-MM-dd */
  lease_start: string;
  lease_end: string;
  cross_city: 'Y' | 'N';
  certificate_no: string;
  plate_no: string;
};

export type DraftPassenger = {
  key: string;
  traveller: string;
  id_type: string;
  id_no: string;
  travel_date: string;
  origin: string;
  destination: string;
  vehicle_type: string;
  seat_class: string;
};

export type DraftStay = { room_no: string; guest_name: string; check_in: string; check_out: string };

export type Draft = {
  device_id: number | null;
  invoice_type: InvoiceType | null;
  price_includes_tax: boolean;
  buyer: DraftBuyer;
  lines: DraftLine[];
  remark: string;
  drawer: string;
  payee: string;
  reviewer: string;
  send_email: boolean;
  specific_business_code: SpecificBusinessCode | null;
  building: DraftBuilding;
  transports: DraftTransport[];
  /** 06: one property block per item line (discount lines excluded), in line order */
  rents: DraftRent[];
  passengers: DraftPassenger[];
  /** hotel variant only */
  stay: DraftStay | null;
  /**
   * why a small-scale seller issues 3% while the 1% reduction runs (`slsm`, domain.md §2.6), '' =
   * not chosen; sent only while it is asked for (drafts saved before it existed lack it)
   */
  small_scale_reason: '' | SmallScaleReason;
  /**
   * 是否展示购买方 / 销售方银行账号 (spec §三 1.6): print that side's bank and account in 备注; sent only
   * when ticked (drafts saved before they existed lack them)
   */
  show_buyer_bank?: boolean;
  show_seller_bank?: boolean;
};

/** field path → Chinese message */
export type FieldErrors = Record<string, string>;
