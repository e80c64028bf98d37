import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { beijingMonth, beijingParts } from '@kaipiao/shared';
import { formatDigitalNumber, isDigitalType, makeCheckCode, makeInvoiceCode } from '../numbers.ts';

/**
 * A sandbox tax bureau as a process of its own (issue 19 item 1): what channels/http.ts speaks to,
 * and the proof that the tax channel port (port.ts) can be implemented by something that shares
 * nothing with us but HTTP. Its state (devices, quota, stock, invoices, faults) lives in this
 * process's memory and nowhere else; a restart forgets it.
 *
 * Run: `tsx apps/server/src/channels/bureau/server.ts` (env PORT, default 0 = any free port); it
 * listens on 127.0.0.1 and prints `BUREAU_LISTENING <port>` once it does.
 *
 * API (JSON):
 * - `PUT /devices/:id` registers or updates a device (DeviceInput); `stock` replaces the device's
 *   blank stock of the kinds it names, each under a new batch code.
 * - `GET /devices/:id` its state, quota and stock (404 when not registered).
 * - `POST /invoices` issues (IssueInput). Idempotent by (clientId, serialNo): a repeat answers the
 *   invoice already made. Answers `{result:'issued', invoice}`, `{result:'refused', code, message}`
 *   (the bureau's own codes, BUREAU_ERRORS) or `{result:'unknown', message}`.
 * - `GET /invoices/:clientId/:serialNo` `{state: 'issued', invoice} | {state: 'not_issued'} | {state: 'pending'}`.
 * - `GET /numbers?clientId=&invoiceCode=&invoiceNo=` an issued invoice by its numbers (what a red
 *   form or a void names): `{invoice, buyerUsed, voidedAt, voidReason}`; 404 E4301 when unknown.
 * - `POST /buyer-use` `{clientId, invoiceCode, invoiceNo, used}`: the buyer confirms use of (勾选)
 *   or books (入账) the invoice, or takes that back (the counterparty's side); answers as `/numbers`.
 * - `POST /voids` `{clientId, deviceId, invoiceCode, invoiceNo, reason}` voids (作废) a paper invoice
 *   of this month at its device. Idempotent: a repeat answers the first void. Answers
 *   `{result:'voided', voidedAt}`, `{result:'refused', code, message}` or `{result:'unknown', message}`.
 * - `POST /faults` `{deviceId, fault, count?, code?, message?, visibleAfterMs?, holdMs?, httpStatus?}`:
 *   the device's next `count` issue or void requests (default 1; null = until cleared with fault
 *   `none`) meet the fault (BureauFault).
 * - `POST /reset` forgets everything.
 */

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

type Range = { invoiceCode: string; nextNo: number; endNo: number };
type Device = Omit<DeviceInput, 'stock' | 'quotaUsed' | 'firstSeq'> & {
  id: number;
  /** cents used in `quotaMonth` */
  quotaUsed: bigint;
  quotaMonth: string;
  /** 数电 sequence per calendar year: the last number handed out */
  seq: Map<number, number>;
  ranges: Map<string, Range[]>;
};
type Fault = {
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

type Stored = BureauInvoice & {
  visibleAt: number;
  /** the buyer has used (勾选/入账) the invoice */
  buyerUsed: boolean;
  voidedAt: string | null;
  voidReason: string;
};
type Voided = { result: 'voided'; voidedAt: string };
type Refusal = { result: 'refused'; code: string; message: string };
type Unknown = { result: 'unknown'; message: string };
const UNKNOWN: Unknown = { result: 'unknown', message: '开票结果未知，请稍后按流水号查询' };

const AMOUNT = /^-?\d{1,16}(\.\d{1,2})?$/;

/** An amount in cents, exactly (the bureau never counts money in floating point). */
function cents(s: string): bigint {
  const [whole, frac = ''] = s.replace(/^-/, '').split('.');
  const v = BigInt(whole!) * 100n + BigInt(frac.padEnd(2, '0'));
  return s.startsWith('-') ? -v : v;
}
const yuan = (c: bigint): string => {
  const abs = c < 0n ? -c : c;
  return `${c < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

class BadRequest extends Error {}

const need = <T>(ok: boolean, v: T, what: string): T => {
  if (!ok) throw new BadRequest(what);
  return v;
};
const str = (v: unknown, what: string) => need(typeof v === 'string' && v.length > 0, v as string, what);
const int = (v: unknown, what: string) => need(Number.isSafeInteger(v), v as number, what);
const bool = (v: unknown, what: string) => need(typeof v === 'boolean', v as boolean, what);
const amount = (v: unknown, what: string) => need(typeof v === 'string' && AMOUNT.test(v), v as string, what);

/** The bureau's state and rules; `handler` serves them over HTTP. */
export class Bureau {
  private devices = new Map<number, Device>();
  private invoices = new Map<string, Stored>();
  /** `clientId:invoiceCode:invoiceNo` → the invoice (the same object as in `invoices`) */
  private byNumber = new Map<string, Stored>();
  private faults = new Map<number, Fault>();
  /** each stock requisition gets a batch number of its own (its 发票代码) */
  private batch = 500;

  reset(): void {
    this.devices.clear();
    this.invoices.clear();
    this.byNumber.clear();
    this.faults.clear();
  }

  putDevice(id: number, body: Record<string, unknown>): Device {
    const old = this.devices.get(id);
    const d: Device = {
      id,
      clientId: int(body.clientId, 'clientId'),
      areaCode: need(
        typeof body.areaCode === 'string' && /^\d{2,6}$/.test(body.areaCode),
        body.areaCode as string,
        'areaCode',
      ),
      invoiceTypes: need(
        Array.isArray(body.invoiceTypes) && body.invoiceTypes.every((t) => typeof t === 'string'),
        body.invoiceTypes as string[],
        'invoiceTypes',
      ),
      perInvoiceLimit: amount(body.perInvoiceLimit, 'perInvoiceLimit'),
      monthlyQuota: body.monthlyQuota === null ? null : amount(body.monthlyQuota, 'monthlyQuota'),
      online: bool(body.online, 'online'),
      locked: bool(body.locked, 'locked'),
      active: bool(body.active, 'active'),
      quotaUsed:
        body.quotaUsed === undefined ? (old?.quotaUsed ?? 0n) : cents(amount(body.quotaUsed, 'quotaUsed')),
      quotaMonth: body.quotaUsed === undefined ? (old?.quotaMonth ?? beijingMonth()) : beijingMonth(),
      seq: old?.seq ?? new Map(),
      ranges: old?.ranges ?? new Map(),
    };
    // everything is checked before anything changes: a bad request leaves the device as it was
    const first = body.firstSeq === undefined ? undefined : int(body.firstSeq, 'firstSeq');
    const stock = Object.entries(
      body.stock === undefined
        ? {}
        : need(typeof body.stock === 'object' && body.stock !== null, body.stock as object, 'stock'),
    ).map(([kind, count]) => {
      const n = need(Number.isSafeInteger(count) && (count as number) >= 0, count as number, `stock.${kind}`);
      return [kind, n] as const;
    });
    const year = beijingParts().year;
    if (first !== undefined) d.seq.set(year, Math.max(d.seq.get(year) ?? 0, first - 1));
    for (const [kind, n] of stock) {
      const invoiceCode = makeInvoiceCode(kind, year, this.batch++, d.areaCode);
      d.ranges.set(kind, n === 0 ? [] : [{ invoiceCode, nextNo: 1, endNo: n }]);
    }
    this.devices.set(id, d);
    return d;
  }

  deviceView(id: number) {
    const d = this.devices.get(id);
    if (!d) return null;
    const month = beijingMonth();
    return {
      deviceId: d.id,
      clientId: d.clientId,
      online: d.online,
      locked: d.locked,
      active: d.active,
      invoiceTypes: d.invoiceTypes,
      perInvoiceLimit: d.perInvoiceLimit,
      monthlyQuota: d.monthlyQuota,
      quotaUsed: yuan(d.quotaMonth === month ? d.quotaUsed : 0n),
      quotaMonth: month,
      stock: Object.fromEntries(
        [...d.ranges].map(([kind, rs]) => [kind, rs.reduce((n, r) => n + (r.endNo - r.nextNo + 1), 0)]),
      ),
    };
  }

  setFault(body: Record<string, unknown>): void {
    const deviceId = int(body.deviceId, 'deviceId');
    const fault = need(
      BUREAU_FAULTS.includes(body.fault as BureauFault),
      body.fault as BureauFault,
      `fault (${BUREAU_FAULTS.join(' | ')})`,
    );
    if (fault === 'none') {
      this.faults.delete(deviceId);
      return;
    }
    const opt = (k: string) => (body[k] === undefined ? undefined : int(body[k], k));
    this.faults.set(deviceId, {
      fault,
      remaining: body.count === null ? null : (opt('count') ?? 1),
      code: body.code === undefined ? undefined : str(body.code, 'code'),
      message: body.message === undefined ? undefined : str(body.message, 'message'),
      visibleAfterMs: opt('visibleAfterMs') ?? 0,
      holdMs: opt('holdMs') ?? 60_000,
      httpStatus: opt('httpStatus'),
    });
  }

  /** The device's fault for this request, if one applies (consumes one of its count). */
  takeFault(deviceId: number): Fault | null {
    const f = this.faults.get(deviceId);
    if (!f) return null;
    if (f.remaining !== null) {
      if (f.remaining <= 0) return null;
      f.remaining--;
    }
    return f;
  }

  /** Issues, or answers the invoice a repeat of the serial already made, or refuses. */
  issue(req: IssueInput, visibleAfterMs = 0): { result: 'issued'; invoice: Stored } | Refusal | Unknown {
    const key = `${req.clientId}:${req.serialNo}`;
    const known = this.invoices.get(key);
    // a repeat of a serial whose outcome the bureau cannot show yet is as unknown as the first
    if (known) return known.visibleAt > Date.now() ? UNKNOWN : { result: 'issued', invoice: known };
    const refuse = (e: { code: string; message: string }): Refusal => ({ result: 'refused', ...e });
    const d = this.devices.get(req.deviceId);
    if (!d) return refuse(BUREAU_ERRORS.DEVICE_UNKNOWN);
    if (d.clientId !== req.clientId) return refuse(BUREAU_ERRORS.DEVICE_OTHER_TAXPAYER);
    if (!d.active) return refuse(BUREAU_ERRORS.DEVICE_CANCELLED);
    if (!d.online) return refuse(BUREAU_ERRORS.DEVICE_OFFLINE);
    if (d.locked) return refuse(BUREAU_ERRORS.DEVICE_LOCKED);
    if (!d.invoiceTypes.includes(req.invoiceType)) return refuse(BUREAU_ERRORS.TYPE_NOT_APPROVED);
    const amt = cents(req.totalAmount);
    if (amt > cents(d.perInvoiceLimit)) return refuse(BUREAU_ERRORS.OVER_LIMIT);
    const now = new Date();
    const month = beijingMonth(now);
    const used = d.quotaMonth === month ? d.quotaUsed : 0n;
    if (d.monthlyQuota !== null && used + amt > cents(d.monthlyQuota)) return refuse(BUREAU_ERRORS.QUOTA);

    let invoiceCode = '';
    let invoiceNo: string;
    if (isDigitalType(req.invoiceType)) {
      const { year } = beijingParts(now);
      const seq = (d.seq.get(year) ?? 0) + 1;
      d.seq.set(year, seq);
      invoiceNo = formatDigitalNumber(year, d.areaCode, seq);
    } else {
      const range = d.ranges.get(req.invoiceType)?.find((r) => r.nextNo <= r.endNo);
      if (!range) return refuse(BUREAU_ERRORS.STOCK);
      invoiceCode = range.invoiceCode;
      invoiceNo = String(range.nextNo++).padStart(8, '0');
    }
    if (d.monthlyQuota !== null) {
      d.quotaUsed = used + amt;
      d.quotaMonth = month;
    }
    const invoice: Stored = {
      clientId: req.clientId,
      serialNo: req.serialNo,
      deviceId: req.deviceId,
      invoiceType: req.invoiceType,
      invoiceCode,
      invoiceNo,
      checkCode: makeCheckCode(req.invoiceType, invoiceCode, invoiceNo),
      totalAmount: req.totalAmount,
      totalWithTax: req.totalWithTax,
      issuedAt: now.toISOString(),
      visibleAt: now.getTime() + visibleAfterMs,
      buyerUsed: false,
      voidedAt: null,
      voidReason: '',
    };
    this.invoices.set(key, invoice);
    this.byNumber.set(numberKey(invoice), invoice);
    return { result: 'issued', invoice };
  }

  query(clientId: number, serialNo: string) {
    const inv = this.invoices.get(`${clientId}:${serialNo}`);
    if (!inv) return { state: 'not_issued' as const };
    if (inv.visibleAt > Date.now()) return { state: 'pending' as const };
    return { state: 'issued' as const, invoice: publicInvoice(inv) };
  }

  /** An issued invoice by its numbers, once query-by-serial could show it; null when unknown. */
  byNumbers(q: { clientId: number; invoiceCode: string; invoiceNo: string }): Stored | null {
    const inv = this.byNumber.get(numberKey(q));
    return inv && inv.visibleAt <= Date.now() ? inv : null;
  }

  /** The buyer's use of an invoice (the counterparty's side). */
  setBuyerUsed(q: {
    clientId: number;
    invoiceCode: string;
    invoiceNo: string;
    used: boolean;
  }): Stored | null {
    const inv = this.byNumbers(q);
    if (inv) inv.buyerUsed = q.used;
    return inv;
  }

  /** 作废: a paper invoice of this Beijing month at the device that issued it; a repeat answers the first. */
  voidInvoice(req: VoidInput): Voided | Refusal {
    const refuse = (e: { code: string; message: string }): Refusal => ({ result: 'refused', ...e });
    const inv = this.byNumbers(req);
    if (!inv) return refuse(BUREAU_VOID_ERRORS.INVOICE_UNKNOWN);
    if (inv.voidedAt !== null) return { result: 'voided', voidedAt: inv.voidedAt };
    if (inv.deviceId !== req.deviceId) return refuse(BUREAU_VOID_ERRORS.OTHER_DEVICE);
    const d = this.devices.get(req.deviceId);
    if (!d) return refuse(BUREAU_ERRORS.DEVICE_UNKNOWN);
    if (!d.active) return refuse(BUREAU_ERRORS.DEVICE_CANCELLED);
    if (!d.online) return refuse(BUREAU_ERRORS.DEVICE_OFFLINE);
    if (d.locked) return refuse(BUREAU_ERRORS.DEVICE_LOCKED);
    if (isDigitalType(inv.invoiceType)) return refuse(BUREAU_VOID_ERRORS.DIGITAL);
    const now = new Date();
    if (beijingMonth(new Date(inv.issuedAt)) !== beijingMonth(now))
      return refuse(BUREAU_VOID_ERRORS.PAST_MONTH);
    inv.voidedAt = now.toISOString();
    inv.voidReason = req.reason;
    return { result: 'voided', voidedAt: inv.voidedAt };
  }
}

const numberKey = (q: { clientId: number; invoiceCode: string; invoiceNo: string }) =>
  `${q.clientId}:${q.invoiceCode}:${q.invoiceNo}`;

const publicInvoice = ({
  visibleAt: _v,
  buyerUsed: _b,
  voidedAt: _d,
  voidReason: _r,
  ...inv
}: Stored): BureauInvoice => inv;

/** What `/numbers` and `/buyer-use` answer of an invoice. */
const numbersView = (inv: Stored) => ({
  invoice: publicInvoice(inv),
  buyerUsed: inv.buyerUsed,
  voidedAt: inv.voidedAt,
  voidReason: inv.voidReason,
});

/** An issue's answer as sent: the invoice without the bureau's own bookkeeping. */
const wire = (a: ReturnType<Bureau['issue']>) =>
  a.result === 'issued' ? { result: 'issued', invoice: publicInvoice(a.invoice) } : a;

function parseIssue(body: Record<string, unknown>): IssueInput {
  return {
    clientId: int(body.clientId, 'clientId'),
    deviceId: int(body.deviceId, 'deviceId'),
    serialNo: need(
      typeof body.serialNo === 'string' && /^.{1,64}$/.test(body.serialNo),
      body.serialNo as string,
      'serialNo',
    ),
    invoiceType: str(body.invoiceType, 'invoiceType'),
    totalAmount: amount(body.totalAmount, 'totalAmount'),
    totalWithTax: amount(body.totalWithTax, 'totalWithTax'),
  };
}

/** An invoice's numbers: `invoiceCode` may be '' (数电). */
function parseNumbers(body: Record<string, unknown>) {
  return {
    clientId: int(body.clientId, 'clientId'),
    invoiceCode: need(typeof body.invoiceCode === 'string', body.invoiceCode as string, 'invoiceCode'),
    invoiceNo: str(body.invoiceNo, 'invoiceNo'),
  };
}

function parseVoid(body: Record<string, unknown>): VoidInput {
  return {
    ...parseNumbers(body),
    deviceId: int(body.deviceId, 'deviceId'),
    reason: str(body.reason, 'reason'),
  };
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (chunks.length === 0) return {};
  const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BadRequest('body');
  return v as Record<string, unknown>;
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/**
 * Waits until the client hangs up (its time-out) or `ms` passes; true when the client is gone.
 * The response has not been ended, so its `close` means the connection went away.
 */
const holdUntilHangUp = (res: http.ServerResponse, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (res.destroyed) return resolve(true);
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    res.once('close', onClose);
  });

/** A void request under the device's fault, as an issue request (postInvoice) would be. */
async function postVoid(bureau: Bureau, req: VoidInput, res: http.ServerResponse): Promise<void> {
  const fault = bureau.takeFault(req.deviceId);
  switch (fault?.fault) {
    case 'down':
      if (fault.httpStatus) {
        res.writeHead(fault.httpStatus, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Service Unavailable');
      } else {
        res.socket?.destroy();
      }
      return;
    case 'lost':
      if (!(await holdUntilHangUp(res, fault.holdMs))) res.socket?.destroy();
      return;
    case 'error':
      send(res, 200, {
        result: 'refused',
        code: fault.code ?? BUREAU_ERRORS.BUSY.code,
        message: fault.message ?? BUREAU_ERRORS.BUSY.message,
      });
      return;
    case 'unknown':
      bureau.voidInvoice(req);
      send(res, 200, { result: 'unknown', message: fault.message ?? '作废结果未知，请稍后重试' });
      return;
    case 'slow-issued': {
      const answer = bureau.voidInvoice(req);
      if (await holdUntilHangUp(res, fault.holdMs)) return;
      send(res, 200, answer);
      return;
    }
    default:
      send(res, 200, bureau.voidInvoice(req));
  }
}

async function postInvoice(bureau: Bureau, req: IssueInput, res: http.ServerResponse): Promise<void> {
  const fault = bureau.takeFault(req.deviceId);
  switch (fault?.fault) {
    case 'down':
      if (fault.httpStatus) {
        res.writeHead(fault.httpStatus, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Service Unavailable');
      } else {
        res.socket?.destroy();
      }
      return;
    case 'lost':
      if (!(await holdUntilHangUp(res, fault.holdMs))) res.socket?.destroy();
      return;
    case 'error':
      send(res, 200, {
        result: 'refused',
        code: fault.code ?? BUREAU_ERRORS.BUSY.code,
        message: fault.message ?? BUREAU_ERRORS.BUSY.message,
      });
      return;
    case 'unknown':
      bureau.issue(req, fault.visibleAfterMs);
      send(res, 200, fault.message ? { ...UNKNOWN, message: fault.message } : UNKNOWN);
      return;
    case 'slow-issued': {
      const answer = bureau.issue(req);
      if (await holdUntilHangUp(res, fault.holdMs)) return;
      send(res, 200, wire(answer));
      return;
    }
    default:
      send(res, 200, wire(bureau.issue(req)));
  }
}

/** The bureau's HTTP server (not yet listening). */
export function createBureauServer(bureau = new Bureau()): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://bureau');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const method = req.method ?? 'GET';
      try {
        if (method === 'POST' && url.pathname === '/invoices') {
          return await postInvoice(bureau, parseIssue(await readJson(req)), res);
        }
        if (method === 'POST' && url.pathname === '/voids') {
          return await postVoid(bureau, parseVoid(await readJson(req)), res);
        }
        if (url.pathname === '/numbers' || url.pathname === '/buyer-use') {
          let inv: Stored | null = null;
          if (method === 'GET' && url.pathname === '/numbers') {
            const q = Object.fromEntries(url.searchParams);
            inv = bureau.byNumbers(parseNumbers({ ...q, clientId: Number(q.clientId) }));
          } else if (method === 'POST' && url.pathname === '/buyer-use') {
            const body = await readJson(req);
            inv = bureau.setBuyerUsed({ ...parseNumbers(body), used: bool(body.used, 'used') });
          } else {
            return send(res, 405, {
              result: 'refused',
              code: 'E4050',
              message: `${method} ${url.pathname} 不支持`,
            });
          }
          return inv
            ? send(res, 200, numbersView(inv))
            : send(res, 404, { result: 'refused', ...BUREAU_VOID_ERRORS.INVOICE_UNKNOWN });
        }
        if (method === 'GET' && parts[0] === 'invoices' && parts.length === 3) {
          return send(res, 200, bureau.query(int(Number(parts[1]), 'clientId'), parts[2]!));
        }
        if (parts[0] === 'devices' && parts.length === 2) {
          const id = int(Number(parts[1]), 'device id');
          if (method === 'PUT') {
            bureau.putDevice(id, await readJson(req));
            return send(res, 200, bureau.deviceView(id));
          }
          if (method === 'GET') {
            const view = bureau.deviceView(id);
            return view
              ? send(res, 200, view)
              : send(res, 404, { result: 'refused', ...BUREAU_ERRORS.DEVICE_UNKNOWN });
          }
        }
        if (method === 'POST' && url.pathname === '/faults') {
          bureau.setFault(await readJson(req));
          return send(res, 200, { ok: true });
        }
        if (method === 'POST' && url.pathname === '/reset') {
          bureau.reset();
          return send(res, 200, { ok: true });
        }
        send(res, 404, { result: 'refused', code: 'E4040', message: `${method} ${url.pathname} 不存在` });
      } catch (err) {
        if (err instanceof BadRequest || err instanceof SyntaxError) {
          send(res, 400, {
            result: 'refused',
            code: BUREAU_ERRORS.BAD_REQUEST.code,
            message: `${BUREAU_ERRORS.BAD_REQUEST.message}：${err.message}`,
          });
        } else {
          send(res, 500, { result: 'error', message: String(err) });
        }
      }
    })();
  });
}

/** Started as a program: listen and say where. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = createBureauServer();
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`BUREAU_LISTENING ${(server.address() as AddressInfo).port}\n`);
  });
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  }
}
