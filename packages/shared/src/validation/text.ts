import { z } from 'zod';
import { TERMS } from '../glossary/terms.ts';

/**
 * The one string type of every request field (issue 21 item 5): a value holding a character
 * nobody can see or that PostgreSQL refuses is rejected before it reaches the database, with a
 * Chinese message naming the field. Refused:
 * - C0 controls (NUL included), DEL and C1 controls. Tab, line feed and carriage return are
 *   whitespace around a value (an Excel cell's trailing line break, which `.trim()` drops) and
 *   inside a multi-line field (`text({ multiline: true })`), never inside a single-line one;
 * - lone surrogates (JSON.parse("\"\\ud800\"") yields one; PostgreSQL would store U+FFFD or fail);
 * - bidi controls: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069 and the marks
 *   U+200E, U+200F, U+061C;
 * - zero-width and other invisible format characters: U+200B, U+200C, U+2060–U+2064, U+FEFF,
 *   U+206A–U+206F, U+FFF9–U+FFFB, U+2028/U+2029 (line and paragraph separators), U+00AD soft
 *   hyphen, U+180E; U+200D (zero-width joiner) except between two emoji (👨‍👩‍👧), where it is
 *   part of the picture.
 * Chinese, Latin, and emoji (valid surrogate pairs) pass.
 */

export type TextOptions = {
  /** the field's Chinese name in messages; default: from FIELD_LABELS by the field's path */
  label?: string;
  /** keep tab, line feed and carriage return (text areas: 备注, 原因) */
  multiline?: boolean;
  /** message when the value is missing or not a string (z.string's `error`) */
  error?: string;
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const INVISIBLE =
  /[\u00AD\u061C\u180E\u200B\u200C\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/u;
// a joiner counts as part of an emoji sequence only between two pictographs (after an optional
// variation selector or skin tone)
const STRAY_JOINER =
  /(?<!\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D|\u200D(?!\p{Extended_Pictographic})/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the rule
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;

/**
 * Every code unit any rule below looks at (the refused ones, surrogates, the joiner, tab and line
 * breaks): a value without one — nearly every value — is fine after one scan instead of five.
 */
const SUSPECT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the rule
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uD800-\uDFFF\uFEFF\uFFF9-\uFFFB]/;

/** The first refused character's index, or -1 when the value is fine. */
export function hiddenCharIndex(value: string, opts: { multiline?: boolean } = {}): number {
  return SUSPECT.test(value) ? hiddenCharIndexByRule(value, opts) : -1;
}

/** `hiddenCharIndex` rule by rule, without the one-scan shortcut (the reference it must agree with). */
export function hiddenCharIndexByRule(value: string, opts: { multiline?: boolean } = {}): number {
  let first = -1;
  const found = (at: number) => {
    // Stryker disable next-line EqualityOperator: at === first assigns the same index again
    if (at >= 0 && (first === -1 || at < first)) first = at;
  };
  for (const re of [CONTROL, LONE_SURROGATE, INVISIBLE, STRAY_JOINER]) found(re.exec(value)?.index ?? -1);
  if (!opts.multiline) {
    const start = value.length - value.trimStart().length;
    const at = LINE_BREAK_OR_TAB.exec(value.trim())?.index;
    // Stryker disable next-line ConditionalExpression: start + undefined is NaN, which found() ignores (NaN >= 0 is false)
    if (at !== undefined) found(start + at);
  }
  return first;
}

export function hasHiddenChars(value: string, opts: { multiline?: boolean } = {}): boolean {
  return hiddenCharIndex(value, opts) !== -1;
}

/**
 * Chinese names of request fields, by dotted path without array indexes (most specific first:
 * `buyer.name` before `name`). Fields not listed are named by their key.
 */
export const FIELD_LABELS: Record<string, string> = {
  // sign-in
  account: '账号',
  password: '密码',
  new_password: '新密码',
  password_confirm: '确认密码',
  unique_code: '图片验证码标识',
  picture_code: '图片验证码',
  secure_id: '设备标识',
  sms_code: '短信验证码',
  sms_captcha: '短信验证码',
  mobile_code: '短信验证码',
  token: '登录凭证',
  ticket: '登录凭证',
  app_id: '应用标识',
  appid: '应用标识',
  code: '编码',
  qr_id: '二维码标识',
  corp_id: '企业标识',
  qw_user_id: '企业微信用户标识',
  // buyer / seller / titles
  'buyer.name': `${TERMS.buyerShort}名称`,
  'buyer.tax_code': `${TERMS.buyerShort}${TERMS.taxCode}`,
  'buyer.address': `${TERMS.buyerShort}地址`,
  'buyer.phone': `${TERMS.buyerShort}电话`,
  'buyer.bank_name': `${TERMS.buyerShort}开户银行`,
  'buyer.bank_account': `${TERMS.buyerShort}银行账号`,
  'buyer.email': `${TERMS.buyerShort}邮箱`,
  'buyer.mobile': `${TERMS.buyerShort}手机号`,
  'seller.name': `${TERMS.sellerShort}名称`,
  'seller.tax_code': `${TERMS.sellerShort}${TERMS.taxCode}`,
  'seller.address': `${TERMS.sellerShort}地址`,
  'seller.phone': `${TERMS.sellerShort}电话`,
  'seller.bank_name': `${TERMS.sellerShort}开户银行`,
  'seller.bank_account': `${TERMS.sellerShort}银行账号`,
  buyer_name: `${TERMS.buyerShort}名称`,
  buyer_tax_code: `${TERMS.buyerShort}${TERMS.taxCode}`,
  seller_name: `${TERMS.sellerShort}名称`,
  seller_tax_code: `${TERMS.sellerShort}${TERMS.taxCode}`,
  name: '名称',
  title: '抬头',
  title_name: '抬头名称',
  tax_code: TERMS.taxCode,
  address: '地址',
  phone: '电话',
  bank_name: '开户银行',
  bank_account: '银行账号',
  email: '邮箱',
  mobile: '手机号',
  keyword: '搜索关键词',
  // invoice lines and details
  'goods_info.name': TERMS.itemName,
  'goods_info.short_name': TERMS.shortName,
  'goods_info.spec': TERMS.spec,
  'goods_info.unit': TERMS.unit,
  'goods_info.tax_class_code': TERMS.taxClassCode,
  'goods_info.quantity': TERMS.quantity,
  'goods_info.price': TERMS.unitPrice,
  'goods_info.amount': TERMS.amount,
  'goods_info.tax_amount': TERMS.taxAmount,
  'goods_info.amount_with_tax': TERMS.totalWithTax,
  'goods_info.tax_rate': TERMS.taxRate,
  short_name: TERMS.shortName,
  spec: TERMS.spec,
  unit: TERMS.unit,
  tax_class_code: TERMS.taxClassCode,
  tax_rate: TERMS.taxRate,
  price: TERMS.unitPrice,
  amount: TERMS.amount,
  quantity: TERMS.quantity,
  remark: TERMS.remark,
  'invoice_info.remark': TERMS.remark,
  drawer: TERMS.drawer,
  payee: TERMS.payee,
  reviewer: TERMS.reviewer,
  serial_no: '流水号',
  invoice_code: TERMS.invoiceCode,
  invoice_no: TERMS.invoiceNo,
  reason: '原因',
  // 特定业务 and hotel stays
  place: '建筑服务发生地',
  detail_address: '详细地址',
  project_name: '建筑项目名称',
  cross_region_no: '跨地区涉税事项报验管理编号',
  land_vat_project_no: '土地增值税项目编号',
  vehicle_type: '运输工具种类',
  vehicle_no: '运输工具牌号',
  origin: '起运地',
  destination: '到达地',
  goods_name: '运输货物名称',
  province: '省份',
  city: '城市',
  lease_period: '租赁期起止',
  certificate_no: '产权证书号',
  plate_no: '车牌号',
  area_unit: '面积单位',
  traveller: '出行人',
  id_no: '证件号码',
  seat_class: '座位等级',
  room_no: '房间号',
  guest_name: '入住人',
  check_in: '入住日期',
  check_out: '离店日期',
  'passenger_transport.origin': '出发地',
  // stores, devices, accounts
  store_name: `${TERMS.store}名称`,
  device_no: '设备编号',
  person_name: '办税人姓名',
  id_card: '身份证号',
  file_name: '文件名',
  start_date: '开始日期',
  end_date: '结束日期',
  date: '日期',
  month: '月份',
  date_from: '开始日期',
  date_to: '结束日期',
  amount_min: `最小${TERMS.amount}`,
  amount_max: `最大${TERMS.amount}`,
  amount_with_tax: TERMS.totalWithTax,
  preferential_code: '优惠政策标识',
  invoice_type: TERMS.invoiceKindShort,
  default_invoice_types: `默认${TERMS.invoiceKindShort}`,
  order_no: '订单号',
  id_type: '证件类型',
  travel_date: '出行日期',
  'passenger_transport.vehicle_type': '交通工具类型',
  per_invoice_limit: '单张开票限额',
  state: '状态',
  channel: '开票通道',
  terminal_no: '终端编号',
  contact_mobile: '联系人手机号',
  tax_mobile: '办税人手机号',
  mfa_ticket: '登录凭证',
  to: '收件人',
  fault_code: '故障代码',
  fault_message: '故障信息',
  // the blocks and switches of the issue form, the goods, scan-code and library forms
  buyer: `${TERMS.buyer}信息`,
  seller: `${TERMS.seller}信息`,
  'buyer.title_type': TERMS.buyerType,
  title_type: TERMS.buyerType,
  goods_info: '项目明细',
  invoice_info: '发票信息',
  line_kind: '行性质',
  goods_id: '商品',
  zero_rate_flag: '零税率标识',
  price_includes_tax: `${TERMS.unitPrice}含税`,
  is_default: '设为默认商品',
  total_amount: TERMS.totalAmount,
  total_tax: TERMS.totalTax,
  total_price_with_tax: TERMS.totalWithTax,
  specific_business_code: '特定业务',
  building_service: '建筑服务',
  goods_transport: '货物运输服务',
  real_static_rent: '不动产经营租赁',
  passenger_transport: '旅客运输服务',
  hotel_stay: '住宿信息',
  cross_city: '跨地（市）标志',
  small_scale_reason: '开具3%征收率原因',
  show_buyer_bank: `显示${TERMS.buyer}银行账户`,
  show_seller_bank: `显示${TERMS.seller}银行账户`,
  send_email: '邮件发送',
  items: '开票项目',
  'items.name': TERMS.itemName,
  lines: '明细行',
  blue_line_no: `${TERMS.blueInvoice}行号`,
  invoice_types: TERMS.invoiceKind,
  device_ids: TERMS.device,
  filters: '筛选条件',
  limit: '条数',
  mode: '开票方式',
  valid_minutes: '有效期',
  default_valid_minutes: '有效期',
  code_id: '二维码',
  hotel_only: '仅看酒店订单',
  download: '下载方式',
  inline: '打开方式',
  invoice_style: '发票形式',
  invoice_mode: '设备类型',
  identity: '身份',
  monthly_quota: '本月额度',
  // the real-name dialog (spec §3)
  auth_type: '认证方式',
  auth_way: '登录方式',
  ele_tax_login_type: '电子税务局登录方式',
  judge_invoice_status: '开票状态检查',
};

/**
 * The Chinese name of the field at `path` (a zod issue path). No row number for array items: the
 * form shows the message on the line, the batch report on its Excel row.
 */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const keys = path.filter((k): k is string => typeof k === 'string');
  let label: string | undefined;
  // Stryker disable next-line EqualityOperator: the extra step looks up '' (keys.slice(keys.length)), which FIELD_LABELS does not have
  for (let i = 0; i < keys.length && !label; i++) label = FIELD_LABELS[keys.slice(i).join('.')];
  const last = keys.at(-1);
  return label ?? (last ? `字段“${last}”` : '输入内容');
}

export const hiddenCharMessage = (label: string) => `${label}含有不可见或控制字符，请删除后重新输入`;

// every check text() made, with the label it was given: lets a test walk the route table and find
// request strings without it, and names a field in a validation answer (validation/zod-zh.ts)
const TEXT_CHECKS = new WeakMap<object, string | undefined>();

/**
 * A request string: `text()` instead of `z.string()`, then chain as usual (`text().trim().max(100)`).
 * `text('购方名称')` names the field; `text({ multiline: true })` for text areas.
 */
export function text(opts: string | TextOptions = {}) {
  const o: TextOptions = typeof opts === 'string' ? { label: opts } : opts;
  const check = z.refine<string>((v) => !hasHiddenChars(v, o), {
    // Stryker disable next-line ArrayDeclaration: zod always gives a refinement's issue its path
    error: (iss) => hiddenCharMessage(o.label ?? fieldLabel(iss.path ?? [])),
    abort: true,
  });
  TEXT_CHECKS.set(check, o.label);
  return z.string(o.error ? { error: o.error } : undefined).check(check);
}

/** Whether a zod string schema went through text() (for route-table tests). */
export function isTextSchema(schema: unknown): boolean {
  // Stryker disable next-line ArrayDeclaration: a string is never in the WeakMap of text() checks
  const checks = (schema as { _zod?: { def?: { checks?: unknown[] } } })._zod?.def?.checks ?? [];
  return checks.some((c) => TEXT_CHECKS.has(c as object));
}

/** The label a text() schema was given (`text('门店名称')`), if any. */
export function textLabel(schema: unknown): string | undefined {
  const checks = (schema as { _zod?: { def?: { checks?: unknown[] } } } | undefined)?._zod?.def?.checks ?? [];
  for (const c of checks) {
    const label = TEXT_CHECKS.get(c as object);
    if (label) return label;
  }
  return undefined;
}
