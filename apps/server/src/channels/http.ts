import { INVOICE_CODE } from '@kaipiao/shared';
import { z } from 'zod';
import { AppError } from '../lib/app-error.ts';
import type {
  BureauInvoiceRef,
  ChannelFailed,
  ChannelIssueRequest,
  ChannelOutcome,
  ChannelQueryResult,
  ChannelUnknown,
  DeviceQuota,
  DeviceState,
  TaxChannel,
  VoidOutcome,
  VoidRequest,
} from './port.ts';

/**
 * The tax channel over HTTP (issue 19 item 1): the port (port.ts) and nothing more, spoken to a
 * bureau in another process (channels/bureau/server.ts is the sandbox one; `KAIPIAO_TAX_CHANNEL_URL`
 * points the app at it). The bureau keeps its own records, so issuing takes the port-only path
 * (modules/invoices/issue/channel-call.ts): our `issuing` row is durable before the call and the
 * outcome is recorded after it.
 *
 * What an answer means:
 * - `issued` → ChannelIssued with the bureau's numbers;
 * - a refusal → ChannelFailed, our code mapped from the bureau's (BUREAU_CODE_TO_OURS), the
 *   bureau's code and words kept; a code we do not know → CHANNEL_ERROR;
 * - the per-call time-out → unknown (`timeout`): the bureau may have issued;
 * - no connection, a reset, a 5xx, an `unknown` answer or one we cannot read → unknown
 *   (`unknown`). Reconciliation asks `querySerial` later; a bureau it cannot reach is `pending`,
 *   never `not_issued` (that would let the clerk issue the same sale twice).
 * - red-letter work and voids name an invoice by its numbers: the buyer's use is `GET /numbers`
 *   (unreachable or refused: an AppError, Chinese message); a void is `POST /voids`, whose
 *   refusal keeps the bureau's code and words and whose lost answer is `unknown` (asking again is
 *   safe: the bureau answers a repeat with the first void).
 */

/** The bureau's refusal codes (its API documentation) → our envelope codes. */
export const BUREAU_CODE_TO_OURS: Readonly<Record<string, number>> = {
  E4101: INVOICE_CODE.DEVICE_NOT_FOUND,
  E4102: INVOICE_CODE.DEVICE_NOT_BOUND,
  E4103: INVOICE_CODE.DEVICE_DISABLED,
  E4104: INVOICE_CODE.DEVICE_OFFLINE,
  E4105: INVOICE_CODE.DEVICE_LOCKED,
  E4106: INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED,
  E4201: INVOICE_CODE.OVER_INVOICE_LIMIT,
  E4202: INVOICE_CODE.QUOTA_EXCEEDED,
  E4203: INVOICE_CODE.STOCK_EXHAUSTED,
};

export const DEFAULT_TIMEOUT_MS = 10_000;

const invoiceSchema = z.object({
  clientId: z.number(),
  serialNo: z.string(),
  invoiceType: z.string(),
  invoiceCode: z.string(),
  invoiceNo: z.string().min(1),
  checkCode: z.string(),
  issuedAt: z.iso.datetime(),
});
const issueAnswerSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('issued'), invoice: invoiceSchema }),
  z.object({ result: z.literal('refused'), code: z.string().min(1), message: z.string() }),
  z.object({ result: z.literal('unknown'), message: z.string().optional() }),
]);
const queryAnswerSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('issued'), invoice: invoiceSchema }),
  z.object({ state: z.literal('not_issued') }),
  z.object({ state: z.literal('pending') }),
]);
const amount = z.string().regex(/^-?\d+(\.\d+)?$/);
const deviceSchema = z.object({
  deviceId: z.number(),
  online: z.boolean(),
  locked: z.boolean(),
  active: z.boolean(),
  perInvoiceLimit: amount,
  monthlyQuota: amount.nullable(),
  quotaUsed: amount,
  quotaMonth: z.string(),
  stock: z.record(z.string(), z.number()),
});

const numbersSchema = z.object({ buyerUsed: z.boolean() });
const refusedSchema = z.object({
  result: z.literal('refused'),
  code: z.string().min(1),
  message: z.string(),
});
const voidAnswerSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('voided'), voidedAt: z.iso.datetime() }),
  refusedSchema,
  z.object({ result: z.literal('unknown'), message: z.string().optional() }),
]);

const unknown = (message: string): ChannelUnknown => ({ status: 'unknown', reason: 'unknown', message });
const TIMED_OUT: ChannelUnknown = { status: 'unknown', reason: 'timeout', message: '税局响应超时' };

const isTimeout = (err: unknown) =>
  err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');

/** Why a request got no answer, in words for the log and the event. */
function why(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

export class HttpTaxChannel implements TaxChannel {
  private readonly base: string;
  readonly timeoutMs: number;

  constructor(baseUrl: string, opts: { timeoutMs?: number } = {}) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** One call: the status and the parsed JSON body (undefined when it is none), within the time-out. */
  private async call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  }

  async issue(req: ChannelIssueRequest): Promise<ChannelOutcome> {
    let answer: { status: number; json: unknown };
    try {
      answer = await this.call('POST', '/invoices', {
        clientId: req.clientId,
        deviceId: req.deviceId,
        serialNo: req.serialNo,
        invoiceType: req.invoiceType,
        totalAmount: req.totalAmount,
        totalWithTax: req.totalWithTax,
      });
    } catch (err) {
      if (isTimeout(err)) return TIMED_OUT;
      return unknown(`无法连接税局（${why(err)}）`);
    }
    if (answer.status >= 500) return unknown(`税局服务异常（HTTP ${answer.status}）`);
    const parsed = issueAnswerSchema.safeParse(answer.json);
    if (!parsed.success) return unknown(`税局应答无法识别（HTTP ${answer.status}）`);
    const a = parsed.data;
    if (a.result === 'unknown') return unknown(a.message || '税局返回未知结果');
    if (a.result === 'refused') return refusal(a.code, a.message);
    // an invoice for another serial is no answer to this one
    if (a.invoice.serialNo !== req.serialNo || a.invoice.clientId !== req.clientId) {
      return unknown('税局应答的流水号与请求不符');
    }
    return {
      status: 'issued',
      invoiceCode: a.invoice.invoiceCode,
      invoiceNo: a.invoice.invoiceNo,
      checkCode: a.invoice.checkCode,
      issuedAt: new Date(a.invoice.issuedAt),
    };
  }

  async querySerial(q: { clientId: number; serialNo: string }): Promise<ChannelQueryResult> {
    let answer: { status: number; json: unknown };
    try {
      answer = await this.call('GET', `/invoices/${q.clientId}/${encodeURIComponent(q.serialNo)}`);
    } catch {
      // unreachable or too slow: the bureau cannot tell us yet, so ask again later
      return { state: 'pending' };
    }
    const parsed = answer.status === 200 ? queryAnswerSchema.safeParse(answer.json) : null;
    if (!parsed?.success) return { state: 'pending' };
    const a = parsed.data;
    if (a.state !== 'issued') return { state: a.state };
    if (a.invoice.serialNo !== q.serialNo || a.invoice.clientId !== q.clientId) return { state: 'pending' };
    return {
      state: 'issued',
      invoiceType: a.invoice.invoiceType,
      invoiceCode: a.invoice.invoiceCode,
      invoiceNo: a.invoice.invoiceNo,
      checkCode: a.invoice.checkCode,
      issuedAt: new Date(a.invoice.issuedAt),
    };
  }

  async buyerUsed(q: BureauInvoiceRef): Promise<boolean> {
    const params = new URLSearchParams({
      clientId: String(q.clientId),
      invoiceCode: q.invoiceCode,
      invoiceNo: q.invoiceNo,
    });
    let answer: { status: number; json: unknown };
    try {
      answer = await this.call('GET', `/numbers?${params}`);
    } catch (err) {
      throw new AppError(INVOICE_CODE.CHANNEL_ERROR, `无法连接税局（${why(err)}）`);
    }
    const refused = refusedSchema.safeParse(answer.json);
    if (answer.status !== 200 && refused.success) {
      throw new AppError(
        INVOICE_CODE.CHANNEL_ERROR,
        `税局返回：${refused.data.message}（${refused.data.code}）`,
      );
    }
    const parsed = answer.status === 200 ? numbersSchema.safeParse(answer.json) : null;
    if (!parsed?.success) {
      throw new AppError(INVOICE_CODE.CHANNEL_ERROR, `税局应答无法识别（HTTP ${answer.status}）`);
    }
    return parsed.data.buyerUsed;
  }

  async voidInvoice(q: VoidRequest): Promise<VoidOutcome> {
    let answer: { status: number; json: unknown };
    try {
      answer = await this.call('POST', '/voids', {
        clientId: q.clientId,
        deviceId: q.deviceId,
        invoiceCode: q.invoiceCode,
        invoiceNo: q.invoiceNo,
        reason: q.reason,
      });
    } catch (err) {
      return { status: 'unknown', message: isTimeout(err) ? '税局响应超时' : `无法连接税局（${why(err)}）` };
    }
    if (answer.status >= 500) return { status: 'unknown', message: `税局服务异常（HTTP ${answer.status}）` };
    const parsed = voidAnswerSchema.safeParse(answer.json);
    if (!parsed.success) return { status: 'unknown', message: `税局应答无法识别（HTTP ${answer.status}）` };
    const a = parsed.data;
    if (a.result === 'voided') return { status: 'voided', voidedAt: new Date(a.voidedAt) };
    if (a.result === 'refused') return { status: 'refused', bureauCode: a.code, message: a.message };
    return { status: 'unknown', message: a.message || '税局返回未知结果' };
  }

  /** The bureau's view of the device; null when it does not know it. Unreachable: CHANNEL_ERROR. */
  private async device(deviceId: number) {
    let answer: { status: number; json: unknown };
    try {
      answer = await this.call('GET', `/devices/${deviceId}`);
    } catch (err) {
      throw new AppError(INVOICE_CODE.CHANNEL_ERROR, `无法连接税局（${why(err)}）`);
    }
    if (answer.status === 404) return null;
    const parsed = answer.status === 200 ? deviceSchema.safeParse(answer.json) : null;
    if (!parsed?.success) {
      throw new AppError(INVOICE_CODE.CHANNEL_ERROR, `税局应答无法识别（HTTP ${answer.status}）`);
    }
    return parsed.data;
  }

  async deviceState(deviceId: number): Promise<DeviceState | null> {
    const d = await this.device(deviceId);
    return d && { deviceId, online: d.online, locked: d.locked, active: d.active };
  }

  async quota(deviceId: number): Promise<DeviceQuota | null> {
    const d = await this.device(deviceId);
    return (
      d && {
        deviceId,
        perInvoiceLimit: d.perInvoiceLimit,
        monthlyQuota: d.monthlyQuota,
        quotaUsed: d.quotaUsed,
        quotaMonth: d.quotaMonth,
        stock: d.stock,
      }
    );
  }
}

/** A bureau refusal in our terms: the mapped code, the bureau's own code and words. */
function refusal(bureauCode: string, message: string): ChannelFailed {
  return {
    status: 'failed',
    code: BUREAU_CODE_TO_OURS[bureauCode] ?? INVOICE_CODE.CHANNEL_ERROR,
    bureauCode,
    message,
  };
}
