import { z } from 'zod';
import { DEVICE_KINDS, INVOICE_STATUS, INVOICE_TYPES, RED_STATUS, TERMS } from '../glossary/terms.ts';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';

/**
 * The invoicing contract (spec §3 blue-invoice payload, §7 invoicing calls). Amounts travel as
 * decimal strings ("106.00", rates "0.06") and are computed with packages/shared/src/money.
 */

/** Invoice-type codes and names, device kinds and statuses: the glossary's (spec §3, domain.md §1.1). */
export { DEVICE_KINDS, INVOICE_STATUS, INVOICE_TYPES, RED_STATUS };

export type InvoiceType = keyof typeof INVOICE_TYPES;
export const invoiceTypeSchema = z.enum(Object.keys(INVOICE_TYPES) as [InvoiceType, ...InvoiceType[]]);
/** 专票 kinds: buyer tax code required (domain.md §1.5). */
export const SPECIAL_INVOICE_TYPES: readonly InvoiceType[] = ['81', '004', '028'];
/** Paper kinds: only these can be voided, same month (domain.md §3.1). */
export const PAPER_INVOICE_TYPES: readonly InvoiceType[] = ['004', '007', '025'];
/**
 * Whether invoices of this kind can be voided (作废) at all, domain.md §3.1: paper kinds only; 数电
 * (81/82) and the other electronic kinds are corrected by a red invoice. The web offers 作废 only where
 * this holds; the server refuses the rest (RED_CODE.VOID_ELECTRONIC, via voidRefusal).
 */
export function canVoidInvoiceType(invoiceType: string): boolean {
  return (PAPER_INVOICE_TYPES as readonly string[]).includes(invoiceType);
}
/** 数电 kinds: 20-digit numbers, no invoice code. */
export const DIGITAL_INVOICE_TYPES: readonly InvoiceType[] = ['81', '82'];

export type DeviceKind = keyof typeof DEVICE_KINDS;
export type InvoiceStatus = keyof typeof INVOICE_STATUS;

/** 特定业务 codes the single-invoice form supports (domain.md §4). */
export const SPECIFIC_BUSINESS = {
  '03': '建筑服务',
  '04': '货物运输服务',
  '06': '不动产经营租赁服务',
  '09': '旅客运输服务',
} as const;
export type SpecificBusinessCode = keyof typeof SPECIFIC_BUSINESS;

const money = text().regex(/^-?\d{1,16}(\.\d{1,2})?$/, `${TERMS.amount}格式不正确，最多两位小数`);
const decimal8 = text().regex(/^-?\d{1,16}(\.\d{1,8})?$/, '数值格式不正确，最多八位小数');
const rate = text().regex(/^0(\.\d{1,6})?$/, `${TERMS.taxRate}格式不正确`);

export const buyerSchema = z.object({
  /** BUYER_TYPE_LABELS: 1 个人/非企业单位, 2 企业 */
  title_type: z.union([z.literal(1), z.literal(2)]),
  name: text().trim().min(1, `请输入${TERMS.buyer}名称`).max(300),
  tax_code: text().trim().max(20).default(''),
  email: text().trim().max(100).default(''),
  mobile: text().trim().max(20).default(''),
  address: text().trim().max(300).default(''),
  phone: text().trim().max(60).default(''),
  bank_name: text().trim().max(120).default(''),
  bank_account: text().trim().max(100).default(''),
});

export const sellerSchema = z.object({
  name: text().default(''),
  tax_code: text().default(''),
  address: text().trim().max(300).default(''),
  phone: text().trim().max(60).default(''),
  bank_name: text().trim().max(120).default(''),
  bank_account: text().trim().max(100).default(''),
});

/** One item line as the form sends it; the server recomputes and checks the tolerances. */
export const goodsLineSchema = z.object({
  /** 0 normal, 1 discount line (follows its discounted line), 2 discounted line */
  line_kind: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
  goods_id: z.number().int().positive().max(PG_INT_MAX).nullable().default(null),
  tax_class_code: text().regex(/^\d{19}$/, `${TERMS.taxClassCode}须为19位数字`),
  short_name: text().trim().min(1).max(120),
  name: text().trim().min(1, `请输入${TERMS.itemName}`).max(600),
  spec: text().trim().max(150).default(''),
  unit: text().trim().max(300).default(''),
  quantity: decimal8.nullable().default(null),
  /** unit price as entered: tax-inclusive when invoice_info.price_includes_tax */
  price: decimal8.nullable().default(null),
  /** tax-exclusive amount (金额), tax (税额) and tax-inclusive amount */
  amount: money,
  tax_amount: money,
  amount_with_tax: money,
  tax_rate: rate,
  /** 数电 优惠政策标识 '01'…'18' or '' */
  preferential_code: text()
    .regex(/^(|0[1-9]|1[0-8])$/)
    .default(''),
  /** 零税率标识 '' | '0' | '1' 免税 | '2' 不征税 | '3' 普通零税率 */
  zero_rate_flag: z.enum(['', '0', '1', '2', '3']).default(''),
});

export const buildingServiceSchema = z.object({
  place: text().trim().min(1, '请输入建筑服务发生地').max(120),
  detail_address: text().trim().max(300).default(''),
  project_name: text().trim().min(1, '请输入建筑项目名称').max(80),
  cross_city: z.enum(['Y', 'N']),
  cross_region_no: text().trim().max(50).default(''),
  land_vat_project_no: text().trim().max(16).default(''),
});

export const goodsTransportSchema = z.object({
  vehicle_type: text().trim().min(1, '请选择运输工具种类').max(40),
  vehicle_no: text().trim().min(1, '请输入运输工具牌号').max(40),
  origin: text().trim().min(1, '请输入起运地').max(80),
  destination: text().trim().min(1, '请输入到达地').max(80),
  goods_name: text().trim().min(1, '请输入运输货物名称').max(80),
});

export const realStaticRentSchema = z.object({
  province: text().trim().min(1, '请输入不动产所在省份').max(20),
  city: text().trim().max(20).default(''),
  detail_address: text().trim().min(1, '请输入不动产详细地址').max(80),
  /** `yyyy-MM-dd yyyy-MM-dd` or with HH:mm */
  lease_period: text().trim().min(1, '请输入租赁期起止'),
  cross_city: z.enum(['Y', 'N']),
  certificate_no: text().trim().min(1, '请输入产权证书/不动产权证号').max(40),
  plate_no: text().trim().max(80).default(''),
  area_unit: text().trim().min(1, '请选择面积单位'),
});

export const passengerTransportSchema = z.object({
  traveller: text().trim().min(1, '请输入出行人').max(20),
  id_type: text().regex(/^(1\d\d|2\d\d)$/, '请选择出行人证件类型'),
  id_no: text().trim().min(1, '请输入有效身份证件号').max(20),
  travel_date: text().regex(/^\d{4}-\d{2}-\d{2}$/, '请选择出行日期'),
  origin: text().trim().min(1, '请输入出发地').max(80),
  destination: text().trim().min(1, '请输入到达地').max(80),
  vehicle_type: text().regex(/^[1-9]$/, '请选择交通工具类型'),
  seat_class: text().trim().max(20).default(''),
});

export const hotelStaySchema = z.object({
  room_no: text().trim().max(20).default(''),
  guest_name: text().trim().max(50).default(''),
  /** the date pickers' YYYY-MM-DD, or empty */
  check_in: text()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, '入住日期格式不正确')
    .default(''),
  check_out: text()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, '离店日期格式不正确')
    .default(''),
});
/** A stored hotel stay as answers carry it: shown as stored, without the request rules. */
export const hotelStayViewSchema = z.object({
  room_no: z.string().default(''),
  guest_name: z.string().default(''),
  check_in: z.string().default(''),
  check_out: z.string().default(''),
});

export const invoiceInfoSchema = z.object({
  price_includes_tax: z.boolean().default(true),
  total_amount: money,
  total_tax: money,
  total_price_with_tax: money,
  remark: text({ multiline: true }).max(450, `${TERMS.remark}最多450个字符`).default(''),
  specific_business_code: z.enum(['03', '04', '06', '09']).nullable().default(null),
  drawer: text().trim().max(300).default(''),
  payee: text().trim().max(150).default(''),
  reviewer: text().trim().max(75).default(''),
});

/** POST v3/online-invoicing/blue (spec §3). `serial_no` makes the call idempotent. */
export const blueInvoiceRequestSchema = z.object({
  serial_no: text().regex(/^[A-Za-z0-9_-]{8,40}$/, '流水号须为8-40位字母、数字、下划线或中划线'),
  device_id: z.number().int().positive(),
  invoice_type: invoiceTypeSchema,
  buyer: buyerSchema,
  seller: sellerSchema.default({
    name: '',
    tax_code: '',
    address: '',
    phone: '',
    bank_name: '',
    bank_account: '',
  }),
  goods_info: z.array(goodsLineSchema).min(1, '请至少添加一行项目'),
  invoice_info: invoiceInfoSchema,
  building_service: buildingServiceSchema.optional(),
  goods_transport: z.array(goodsTransportSchema).optional(),
  real_static_rent: z.array(realStaticRentSchema).optional(),
  passenger_transport: z.array(passengerTransportSchema).optional(),
  hotel_stay: hotelStaySchema.optional(),
  /**
   * Why a small-scale taxpayer issues 3% while the 1% reduction runs (`slsm`, domain.md §2.6):
   * SMALL_SCALE_3_PERCENT_REASONS. Optional with no default: absent stays absent, so the request
   * hash of every payload without it is unchanged.
   */
  small_scale_reason: z.enum(['1', '2']).optional(),
  /**
   * 是否展示购买方 / 销售方银行账号 (spec §三 1.6): print that side's bank and account in 备注. Optional
   * with no default, like small_scale_reason, so older payloads hash as before.
   */
  show_buyer_bank: z.boolean().optional(),
  show_seller_bank: z.boolean().optional(),
  /** send the PDF to buyer.email once issued */
  send_email: z.boolean().default(true),
});
export type BlueInvoiceRequest = z.infer<typeof blueInvoiceRequestSchema>;

/** The issue result: also what a retry with the same serial returns. */
export const issueResultSchema = z.object({
  invoice_id: z.number(),
  serial_no: z.string(),
  status: z.enum(['issuing', 'issued', 'failed', 'unknown', 'voided']),
  invoice_type: z.string(),
  invoice_code: z.string(),
  invoice_no: z.string().nullable(),
  issued_at: z.string().nullable(),
  total_price_with_tax: z.string(),
  error_message: z.string().nullable(),
});
export type IssueResult = z.infer<typeof issueResultSchema>;

/** A device as the invoice form lists it (GET /v3/client-store/get-tax-equipment). */
export const taxEquipmentSchema = z.object({
  device_id: z.number(),
  name: z.string(),
  kind: z.string(),
  kind_name: z.string(),
  channel: z.string(),
  device_no: z.string(),
  extension_no: z.number(),
  is_main: z.boolean(),
  online: z.boolean(),
  locked: z.boolean(),
  invoice_types: z.array(z.object({ code: z.string(), name: z.string() })),
  per_invoice_limit: z.string(),
  monthly_quota: z.string().nullable(),
  quota_used: z.string(),
  /** remaining blank stock per invoice type for disc kinds */
  stock: z.record(z.string(), z.number()),
  /** the store's default invoice kinds (门店管理), first preferred; empty = none set or all stores */
  default_invoice_types: z.array(z.string()).optional(),
});
export type TaxEquipment = z.infer<typeof taxEquipmentSchema>;
