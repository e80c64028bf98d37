/** The sandbox bureau's vocabulary (bureau/server.ts says what the process is): its refusal codes, faults, inputs and values. */
/** The bureau's refusals: its own codes and words (what a real bureau documents for its API). */
export const BUREAU_ERRORS = {
  BAD_REQUEST: { code: 'E4001', message: '报文格式错误' },
  DEVICE_UNKNOWN: { code: 'E4101', message: '税控设备未在税局登记' },
  DEVICE_OTHER_TAXPAYER: { code: 'E4102', message: '税控设备不属于该纳税人' },
  DEVICE_CANCELLED: { code: 'E4103', message: '税控设备已注销' },
  DEVICE_OFFLINE: { code: 'E4104', message: '税控设备离线，请检查设备连接' },
  DEVICE_LOCKED: { code: 'E4105', message: '税控设备已锁死，请先完成抄报清卡' },
  TYPE_NOT_APPROVED: { code: 'E4106', message: '该设备未核定此票种' },
  OVER_LIMIT: { code: 'E4201', message: '超过单张发票开票限额' },
  QUOTA: { code: 'E4202', message: '本月发票总额度不足' },
  STOCK: { code: 'E4203', message: '该票种发票库存不足，请先领用' },
  BUSY: { code: 'E5001', message: '税局系统繁忙，请稍后重试' },
} as const;

/** Its refusals of a question about an issued invoice or of a void (作废); device refusals as above. */
export const BUREAU_VOID_ERRORS = {
  INVOICE_UNKNOWN: { code: 'E4301', message: '税局无此发票' },
  DIGITAL: { code: 'E4302', message: '数电发票不能作废，请开具红字发票' },
  PAST_MONTH: { code: 'E4303', message: '跨月发票不能作废，请开具红字发票' },
  OTHER_DEVICE: { code: 'E4304', message: '该发票不是此税控设备开具的' },
} as const;

/**
 * What a fault does to the device's next issue (or void) requests:
 * - `error`: a bureau error answer (E5001 税局系统繁忙 unless `code` / `message` say otherwise);
 *   nothing is issued (voided).
 * - `slow-issued`: the invoice is issued (voided), but the answer is held until the client hangs up
 *   (its time-out) or `holdMs` passes.
 * - `lost`: the request is held until the client hangs up (or `holdMs` passes, then the connection
 *   is dropped); nothing is issued (voided).
 * - `unknown`: the invoice is issued or voided (or refused) and the answer is "unknown result"; an
 *   issued invoice becomes visible to query-by-serial after `visibleAfterMs` (pending until then).
 * - `down`: the connection is reset (or, with `httpStatus`, that 5xx answer); nothing is issued
 *   (voided).
 * - `none`: clears the device's fault.
 */
export const BUREAU_FAULTS = ['none', 'error', 'slow-issued', 'lost', 'unknown', 'down'] as const;
export type BureauFault = (typeof BUREAU_FAULTS)[number];

export type DeviceInput = {
  clientId: number;
  areaCode: string;
  invoiceTypes: string[];
  perInvoiceLimit: string;
  monthlyQuota: string | null;
  online: boolean;
  locked: boolean;
  active: boolean;
  /** blank stock per older kind: replaces what the device holds of that kind */
  stock?: Record<string, number>;
  /** the quota used this month (a device that arrives part-way through a month) */
  quotaUsed?: string;
  /** where the device's 数电 sequence continues (default: 1, or where it stands) */
  firstSeq?: number;
};

export type IssueInput = {
  clientId: number;
  deviceId: number;
  serialNo: string;
  invoiceType: string;
  totalAmount: string;
  totalWithTax: string;
};

export type BureauInvoice = {
  clientId: number;
  serialNo: string;
  deviceId: number;
  invoiceType: string;
  invoiceCode: string;
  invoiceNo: string;
  checkCode: string;
  totalAmount: string;
  totalWithTax: string;
  issuedAt: string;
};

export type Range = { invoiceCode: string; nextNo: number; endNo: number };
export type Device = Omit<DeviceInput, 'stock' | 'quotaUsed' | 'firstSeq'> & {
  id: number;
  /** cents used in `quotaMonth` */
  quotaUsed: bigint;
  quotaMonth: string;
  /** 数电 sequence per calendar year: the last number handed out */
  seq: Map<number, number>;
  ranges: Map<string, Range[]>;
};
export type Fault = {
  fault: Exclude<BureauFault, 'none'>;
  /** null: until cleared */
  remaining: number | null;
  code?: string;
  message?: string;
  visibleAfterMs: number;
  holdMs: number;
  httpStatus?: number;
};
export type VoidInput = {
  clientId: number;
  deviceId: number;
  invoiceCode: string;
  invoiceNo: string;
  reason: string;
};

export type Stored = BureauInvoice & {
  visibleAt: number;
  /** the buyer has used (勾选/入账) the invoice */
  buyerUsed: boolean;
  voidedAt: string | null;
  voidReason: string;
};
export type Voided = { result: 'voided'; voidedAt: string };
export type Refusal = { result: 'refused'; code: string; message: string };
export type Unknown = { result: 'unknown'; message: string };
export const UNKNOWN: Unknown = { result: 'unknown', message: '开票结果未知，请稍后按流水号查询' };

const AMOUNT = /^-?\d{1,16}(\.\d{1,2})?$/;

/** An amount in cents, exactly (the bureau never counts money in floating point). */
export function cents(s: string): bigint {
  const [whole, frac = ''] = s.replace(/^-/, '').split('.');
  const v = BigInt(whole!) * 100n + BigInt(frac.padEnd(2, '0'));
  return s.startsWith('-') ? -v : v;
}
export const yuan = (c: bigint): string => {
  const abs = c < 0n ? -c : c;
  return `${c < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

/** a request the bureau cannot read: HTTP 400 */
export class BadRequest extends Error {}

export const need = <T>(ok: boolean, v: T, what: string): T => {
  if (!ok) throw new BadRequest(what);
  return v;
};
export const str = (v: unknown, what: string) =>
  need(typeof v === 'string' && v.length > 0, v as string, what);
export const int = (v: unknown, what: string) => need(Number.isSafeInteger(v), v as number, what);
export const bool = (v: unknown, what: string) => need(typeof v === 'boolean', v as boolean, what);
export const amount = (v: unknown, what: string) =>
  need(typeof v === 'string' && AMOUNT.test(v), v as string, what);
