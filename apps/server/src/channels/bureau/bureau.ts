import { beijingMonth, beijingParts } from '@kaipiao/shared';
import { formatDigitalNumber, isDigitalType, makeCheckCode, makeInvoiceCode } from '../numbers.ts';
import {
  amount,
  BUREAU_ERRORS,
  BUREAU_FAULTS,
  BUREAU_VOID_ERRORS,
  type BureauFault,
  type BureauInvoice,
  bool,
  cents,
  type Device,
  type Fault,
  type IssueInput,
  int,
  need,
  type Refusal,
  type Stored,
  str,
  UNKNOWN,
  type Unknown,
  type Voided,
  type VoidInput,
  yuan,
} from './model.ts';
// The sandbox bureau's state and rules (bureau/server.ts says what the process is); http.ts serves them.
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

export const numberKey = (q: { clientId: number; invoiceCode: string; invoiceNo: string }) =>
  `${q.clientId}:${q.invoiceCode}:${q.invoiceNo}`;

export const publicInvoice = ({
  visibleAt: _v,
  buyerUsed: _b,
  voidedAt: _d,
  voidReason: _r,
  ...inv
}: Stored): BureauInvoice => inv;

/** What `/numbers` and `/buyer-use` answer of an invoice. */
export const numbersView = (inv: Stored) => ({
  invoice: publicInvoice(inv),
  buyerUsed: inv.buyerUsed,
  voidedAt: inv.voidedAt,
  voidReason: inv.voidReason,
});

/** An issue's answer as sent: the invoice without the bureau's own bookkeeping. */
export const wire = (a: ReturnType<Bureau['issue']>) =>
  a.result === 'issued' ? { result: 'issued', invoice: publicInvoice(a.invoice) } : a;
