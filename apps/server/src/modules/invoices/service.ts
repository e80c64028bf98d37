import {
  type BlueInvoiceRequest,
  CODE,
  dec,
  INVOICE_CODE,
  type IssueResult,
  invoiceQrText,
  messageFor,
} from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isDigitalType, shanghaiParts } from '../../channels/numbers.ts';
import type { ChannelIssued, ChannelOutcome, IssueRecorder, RecordOutcome } from '../../channels/types.ts';
import { AppError } from '../../lib/app-error.ts';
import { storeRefused } from '../../lib/scope.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { issueAtOnce } from './at-once.ts';
import { runInvoiceIssuedHooks } from './hooks.ts';
import { insertIssuing, issuedQrSql } from './issue-repo.ts';
import {
  findResult,
  type IssueContext,
  type NewInvoice,
  requestHash,
  toIssueResult,
  transition,
} from './repo.ts';
import { validateBlue } from './validate.ts';

/** Tax code and taxpayer type per business: what validation needs, stable enough to cache briefly. */
const sellers = new TtlCache<{ taxCode: string; taxpayerType: 'general' | 'small' }>(30_000);

async function sellerFacts(app: FastifyInstance, clientId: number) {
  const key = String(clientId);
  let hit = sellers.get(key);
  // Stryker disable next-line ConditionalExpression: the seller cache only saves a query: asking every time finds the same business
  if (!hit) {
    const res = await app.db.execute<{ tax_code: string; taxpayer_type: string }>(
      sql`select tax_code, taxpayer_type from clients where id = ${clientId}`,
    );
    const row = res.rows[0];
    if (!row) throw new AppError(CODE.NOT_FOUND);
    // Stryker disable next-line StringLiteral: validation only asks whether the seller is 'small': any other type is a general taxpayer
    hit = { taxCode: row.tax_code, taxpayerType: row.taxpayer_type === 'small' ? 'small' : 'general' };
    sellers.set(key, hit);
  }
  return hit;
}

export type Actor = { clientId: number; storeId: number; userId: number | null };

/** The invoice moved on while the channel was working (reconciliation, or another retry). */
class InvoiceMoved extends Error {}

export const UNKNOWN_MESSAGE = '开票结果待确认，系统将向税局核实，请勿更换流水号重复开票';

/** The 票面 QR text of the issued invoice: the shared rule (same as the issuing SQL and the documents). */
const qrFor = (
  inv: { invoiceType: string; totalAmount: string; totalWithTax: string },
  num: { invoiceCode: string; invoiceNo: string; checkCode: string; issuedAt: Date },
): string =>
  invoiceQrText({
    invoiceType: inv.invoiceType,
    invoiceCode: num.invoiceCode,
    invoiceNo: num.invoiceNo,
    checkCode: num.checkCode,
    totalAmount: inv.totalAmount,
    totalWithTax: inv.totalWithTax,
    issueDate: num.issuedAt,
  });

/** SQL `set` list of an issued invoice. */
function issuedSet(
  inv: { invoiceType: string; totalAmount: string; totalWithTax: string },
  num: { invoiceCode: string; invoiceNo: string; checkCode: string; issuedAt: Date },
) {
  return sql`status = 'issued', invoice_code = ${num.invoiceCode}, invoice_no = ${num.invoiceNo},
    check_code = ${num.checkCode}, issued_at = ${num.issuedAt.toISOString()}, qr_string = ${qrFor(inv, num)},
    error_code = null, error_message = null`;
}

/** Device pre-checks before an invoice row is made (the channel enforces them again atomically). */
function checkDevice(ctx: IssueContext, req: BlueInvoiceRequest): void {
  if (ctx.device_id === null) throw new AppError(INVOICE_CODE.DEVICE_NOT_FOUND);
  if (!ctx.bound) throw new AppError(INVOICE_CODE.DEVICE_NOT_BOUND);
  // Stryker disable next-line OptionalChaining: invoice_types is NOT NULL on a device, and without a device the first check has thrown
  if (!ctx.invoice_types?.includes(req.invoice_type))
    throw new AppError(INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED);
  if (ctx.device_status !== 'active') throw new AppError(INVOICE_CODE.DEVICE_DISABLED);
  if (!ctx.online) throw new AppError(INVOICE_CODE.DEVICE_OFFLINE);
  if (ctx.locked) throw new AppError(INVOICE_CODE.DEVICE_LOCKED);
  const amount = dec(req.invoice_info.total_amount);
  // Stryker disable next-line StringLiteral: per_invoice_limit is NOT NULL on a device, and without a device the first check has thrown
  if (amount.greaterThan(ctx.per_invoice_limit ?? '0')) {
    throw new AppError(
      INVOICE_CODE.OVER_INVOICE_LIMIT,
      `${messageFor(INVOICE_CODE.OVER_INVOICE_LIMIT)}（单张限额 ${ctx.per_invoice_limit} 元）`,
    );
  }
  if (ctx.monthly_quota !== null) {
    // Stryker disable next-line StringLiteral: quota_used is the device's (or 0) whenever there is a device
    const left = dec(ctx.monthly_quota).minus(ctx.quota_used ?? '0');
    if (amount.greaterThan(left)) {
      throw new AppError(
        INVOICE_CODE.QUOTA_EXCEEDED,
        `${messageFor(INVOICE_CODE.QUOTA_EXCEEDED)}（本月剩余额度 ${left.toFixed(2)} 元）`,
      );
    }
  }
  if (!isDigitalType(req.invoice_type) && Number(ctx.stock) < 1)
    throw new AppError(INVOICE_CODE.STOCK_EXHAUSTED);
}

/** What an IssueResult answers with: code 0 for issued / in flight, the failure's code otherwise. */
function answer(result: IssueResult, failure?: { code: number; message: string }): IssueResult {
  if (result.status === 'unknown') {
    throw new AppError(INVOICE_CODE.CHANNEL_TIMEOUT, messageFor(INVOICE_CODE.CHANNEL_TIMEOUT), result);
  }
  if (result.status === 'failed') {
    const code = failure?.code ?? INVOICE_CODE.CHANNEL_ERROR;
    // Stryker disable next-line StringLiteral: a failed invoice always carries the channel's or reconciliation's message, so the '' fallback is never printed
    throw new AppError(code, failure?.message ?? `开票失败：${result.error_message ?? ''}`, result);
  }
  return result;
}

/**
 * Issues a blue invoice (architecture.md §5). Idempotent by serial: the same serial and payload
 * answers the first result (a failed one is re-attempted on the same row), another payload under
 * the same serial is refused. Throws AppError for refusals; resolves with the IssueResult when
 * issued or still in flight.
 */
export async function issueBlue(
  app: FastifyInstance,
  actor: Actor,
  req: BlueInvoiceRequest,
): Promise<IssueResult> {
  const hash = requestHash(req);
  const seller = await sellerFacts(app, actor.clientId);
  const { issues, lines, smallScaleReason } = validateBlue(req, seller, app.clock());
  if (issues.length > 0) throw new AppError(CODE.VALIDATION, issues[0]!.message, { errors: issues });

  const code = req.invoice_info.specific_business_code;
  const specificBusiness: Record<string, unknown> = {};
  if (code === '03') specificBusiness.building_service = req.building_service;
  if (code === '04') specificBusiness.goods_transport = req.goods_transport;
  if (code === '06') specificBusiness.real_static_rent = req.real_static_rent;
  if (code === '09') specificBusiness.passenger_transport = req.passenger_transport;
  if (req.hotel_stay) specificBusiness.hotel_stay = req.hotel_stay;
  // slsm: only when asked for (small-scale 3% while the 1% reduction runs), else ignored
  if (smallScaleReason) specificBusiness.small_scale_reason = smallScaleReason;
  // bank details print in 备注 only when asked for (documents/remark.ts)
  if (req.show_buyer_bank || req.show_seller_bank)
    specificBusiness.show_bank = {
      buyer: req.show_buyer_bank === true,
      seller: req.show_seller_bank === true,
    };
  const newInvoice: NewInvoice = {
    clientId: actor.clientId,
    storeId: actor.storeId,
    deviceId: req.device_id,
    serialNo: req.serial_no,
    requestHash: hash,
    userId: actor.userId,
    req,
    lines,
    specificBusiness: Object.keys(specificBusiness).length > 0 ? specificBusiness : null,
    month: shanghaiParts(new Date()).month,
    digital: isDigitalType(req.invoice_type),
    asyncCommit: app.taxChannel.inDatabase,
  };
  const channelReq = {
    clientId: actor.clientId,
    deviceId: req.device_id,
    serialNo: req.serial_no,
    invoiceType: req.invoice_type,
    totalAmount: req.invoice_info.total_amount,
    totalWithTax: req.invoice_info.total_price_with_tax,
  };
  // an in-database channel issues a new serial in the statement that creates the invoice, together
  // with the device's other new invoices in flight; anything else (a refusal to name, a serial
  // already known, a simulated fault) takes the two steps below
  const atOnce = await issueAtOnce(app, newInvoice);
  if (atOnce) return issuedResult(app, req, atOnce.recordedId, atOnce.outcome);

  const ctx = await insertIssuing(app.db, newInvoice);
  // Stryker disable next-line ConditionalExpression: sellerFacts found the business just before, and businesses are never deleted
  if (!ctx) throw new AppError(CODE.NOT_FOUND);

  let invoiceId: number;
  if (ctx.new_id !== null) {
    invoiceId = Number(ctx.new_id);
  } else if (ctx.inv_id !== null) {
    // the serial is known: the same request answers its result, a failed one is tried again
    if (ctx.inv_hash !== hash) throw new AppError(INVOICE_CODE.SERIAL_CONFLICT);
    invoiceId = Number(ctx.inv_id);
    if (ctx.inv_status !== 'failed') return answer(await current(app, actor.clientId, invoiceId));
    checkDevice(ctx, req);
    // claim it, so that two retries do not both go to the channel
    const claimed = await transition(app.db, {
      id: invoiceId,
      from: ['failed'],
      set: sql`status = 'issuing', error_code = null, error_message = null`,
      event: 'issuing',
      userId: actor.userId,
      detail: { retry: true, send_email: req.send_email },
    });
    if (!claimed) return answer(await current(app, actor.clientId, invoiceId));
  } else {
    // not inserted: the device refused, or a concurrent request with this serial got in first
    checkDevice(ctx, req);
    const other = await findResult(app.db, { clientId: actor.clientId, serialNo: req.serial_no });
    // Stryker disable next-line ConditionalExpression: the insert met another committed invoice with this serial, and invoices are never deleted
    if (!other) throw new AppError(CODE.INTERNAL);
    if (other.request_hash !== hash) throw new AppError(INVOICE_CODE.SERIAL_CONFLICT);
    return answer(toIssueResult(other));
  }

  const outcome = await callChannel(app, {
    id: invoiceId,
    userId: actor.userId,
    ...channelReq,
  });
  if (outcome?.status === 'issued') return issuedResult(app, req, invoiceId, outcome);
  const result = await current(app, actor.clientId, invoiceId);
  const failure =
    outcome?.status === 'failed'
      ? {
          code: outcome.code,
          message:
            outcome.code === INVOICE_CODE.CHANNEL_ERROR
              ? `开票失败，税局返回：${outcome.message}（${outcome.bureauCode}）`
              : messageFor(outcome.code),
        }
      : undefined;
  return answer(result, failure);
}

/** The answer for an invoice this request issued (nothing to read back); starts the issued hooks. */
function issuedResult(
  app: FastifyInstance,
  req: BlueInvoiceRequest,
  invoiceId: number,
  outcome: ChannelIssued,
): IssueResult {
  runInvoiceIssuedHooks(app, invoiceId, {
    sendEmail: req.send_email && Boolean(req.buyer.email),
    direction: 'blue',
    serialNo: req.serial_no,
  });
  return {
    invoice_id: invoiceId,
    serial_no: req.serial_no,
    status: 'issued',
    invoice_type: req.invoice_type,
    invoice_code: outcome.invoiceCode,
    invoice_no: outcome.invoiceNo,
    issued_at: outcome.issuedAt.toISOString(),
    total_price_with_tax: req.invoice_info.total_price_with_tax,
    error_message: null,
  };
}

async function current(app: FastifyInstance, clientId: number, id: number): Promise<IssueResult> {
  const row = await findResult(app.db, { clientId, id });
  // Stryker disable next-line ConditionalExpression: the invoice was made or found in this business just before, and invoices are never deleted
  if (!row) throw new AppError(INVOICE_CODE.SERIAL_NOT_FOUND);
  return toIssueResult(row);
}

export type ChannelCall = {
  id: number;
  clientId: number;
  userId: number | null;
  deviceId: number;
  serialNo: string;
  invoiceType: string;
  totalAmount: string;
  totalWithTax: string;
};

/**
 * Sends the invoice to the channel; the outcome is recorded on the invoice inside the channel's
 * transaction. Null when the invoice had moved on (nothing was issued for this call).
 */
export async function callChannel(app: FastifyInstance, c: ChannelCall): Promise<ChannelOutcome | null> {
  const record: RecordOutcome = async (tx, outcome) => {
    let ok: boolean;
    if (outcome.status === 'issued') {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        set: issuedSet(c, outcome),
        event: 'issued',
        userId: c.userId,
        detail: { invoice_code: outcome.invoiceCode, invoice_no: outcome.invoiceNo },
      });
    } else if (outcome.status === 'failed') {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        set: sql`status = 'failed', error_code = ${outcome.bureauCode}, error_message = ${outcome.message}`,
        event: 'failed',
        userId: c.userId,
        detail: { code: outcome.code, bureau_code: outcome.bureauCode, message: outcome.message },
      });
    } else {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        set: sql`status = 'unknown', error_code = ${outcome.reason}, error_message = ${UNKNOWN_MESSAGE}`,
        event: 'unknown',
        userId: c.userId,
        detail: { reason: outcome.reason, message: outcome.message },
      });
    }
    if (!ok) throw new InvoiceMoved();
  };
  const recorder: IssueRecorder = {
    record,
    issuedSql: {
      guard: sql`
        select id, serial_no, 1 as ord, ${c.totalAmount}::numeric as total_amount from invoices
        where id = ${c.id} and status = 'issuing' for update`,
      ctes: sql`
        recorded as (
          update invoices i set status = 'issued', invoice_code = issued.invoice_code,
            invoice_no = issued.invoice_no, check_code = issued.check_code, issued_at = issued.issued_at,
            qr_string = ${issuedQrSql(c.invoiceType, { totalAmount: sql`i.total_amount`, totalWithTax: sql`i.total_with_tax` })},
            error_code = null, error_message = null, updated_at = now()
          from issued
          where i.id = ${c.id} and i.status = 'issuing'
          returning i.id, i.serial_no, i.client_id, issued.invoice_code, issued.invoice_no
        ),
        issued_event as (
          insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
          select id, client_id, 'issued', ${c.userId}::int,
            jsonb_build_object('invoice_code', invoice_code, 'invoice_no', invoice_no)
          from recorded
        )`,
    },
  };
  try {
    return await app.taxChannel.issue(
      {
        clientId: c.clientId,
        deviceId: c.deviceId,
        serialNo: c.serialNo,
        invoiceType: c.invoiceType,
        totalAmount: c.totalAmount,
        totalWithTax: c.totalWithTax,
      },
      recorder,
    );
  } catch (err) {
    if (err instanceof InvoiceMoved) return null;
    // the channel call broke off: whether it issued is unknown until reconciliation asks
    app.log.error({ err, invoiceId: c.id }, 'tax channel call failed');
    await transition(app.db, {
      id: c.id,
      from: ['issuing'],
      set: sql`status = 'unknown', error_code = 'exception', error_message = ${UNKNOWN_MESSAGE}`,
      event: 'unknown',
      userId: c.userId,
      detail: { reason: 'exception' },
    }).catch(() => undefined);
    return null;
  }
}

/** GET /v3/online-invoicing/result: the invoice of a serial, within the stores the user may see. */
export async function resultBySerial(
  app: FastifyInstance,
  q: { clientId: number; serialNo: string; storeIds: ReadonlySet<number> | null },
): Promise<IssueResult> {
  const row = await findResult(app.db, { clientId: q.clientId, serialNo: q.serialNo });
  if (!row) throw new AppError(INVOICE_CODE.SERIAL_NOT_FOUND);
  if (q.storeIds !== null && !q.storeIds.has(row.store_id)) throw storeRefused();
  return toIssueResult(row);
}

export type ReconcileSummary = {
  checked: number;
  issued: number;
  failed: number;
  pending: number;
  results: IssueResult[];
};

/** An `issuing` invoice older than this is treated as stranded (its request died) and reconciled. */
export const STALE_ISSUING_MS = 120_000;

/**
 * Settles invoices whose outcome is not known (architecture.md §5): `unknown` ones, and `issuing`
 * ones stranded for longer than `staleIssuingMs`. Asks the channel by serial: issued → the number
 * is filled in (and the issued hooks run); not issued → failed (the clerk may retry the same
 * serial); pending → left for the next run. `clientId` omitted = every business (the job).
 */
export async function reconcileInvoices(
  app: FastifyInstance,
  opts: {
    clientId?: number;
    storeIds?: ReadonlySet<number> | null;
    serialNo?: string;
    userId?: number | null;
    staleIssuingMs?: number;
    limit?: number;
  } = {},
): Promise<ReconcileSummary> {
  const stale = opts.staleIssuingMs ?? STALE_ISSUING_MS;
  const stores = opts.storeIds ? [...opts.storeIds] : null;
  const res = await app.db.execute<{
    id: number | string;
    client_id: number;
    serial_no: string;
    status: string;
    invoice_type: string;
    total_amount: string;
    total_with_tax: string;
  }>(sql`
    select id, client_id, serial_no, status, invoice_type, total_amount, total_with_tax
    from invoices
    where (status = 'unknown' or (status = 'issuing' and updated_at < now() - make_interval(secs => ${stale / 1000})))
      ${opts.clientId !== undefined ? sql`and client_id = ${opts.clientId}` : sql``}
      ${stores ? sql`and store_id = any(${`{${stores.join(',')}}`}::int[])` : sql``}
      ${opts.serialNo ? sql`and serial_no = ${opts.serialNo}` : sql``}
    order by id
    limit ${opts.limit ?? 500}`);

  const summary: ReconcileSummary = { checked: 0, issued: 0, failed: 0, pending: 0, results: [] };
  const userId = opts.userId ?? null;
  for (const inv of res.rows) {
    summary.checked++;
    const id = Number(inv.id);
    const known = await app.taxChannel.querySerial({ clientId: inv.client_id, serialNo: inv.serial_no });
    if (known.state === 'pending') {
      summary.pending++;
    } else if (known.state === 'issued') {
      const moved = await transition(app.db, {
        id,
        from: ['unknown', 'issuing'],
        set: issuedSet(
          { invoiceType: inv.invoice_type, totalAmount: inv.total_amount, totalWithTax: inv.total_with_tax },
          known,
        ),
        event: 'reconciled',
        userId,
        detail: {
          from: inv.status,
          to: 'issued',
          invoice_code: known.invoiceCode,
          invoice_no: known.invoiceNo,
        },
      });
      if (moved) {
        summary.issued++;
        runInvoiceIssuedHooks(app, id, { sendEmail: await wantedEmail(app, id) });
      }
    } else {
      const moved = await transition(app.db, {
        id,
        from: ['unknown', 'issuing'],
        set: sql`status = 'failed', error_code = 'not_issued',
          error_message = '税局未开具该发票，可使用原流水号重新开具'`,
        event: 'reconciled',
        userId,
        detail: { from: inv.status, to: 'failed' },
      });
      if (moved) summary.failed++;
    }
    summary.results.push(await current(app, inv.client_id, id));
  }
  return summary;
}

/** Whether the request that made the invoice asked for e-mail delivery (and there is an address). */
async function wantedEmail(app: FastifyInstance, invoiceId: number): Promise<boolean> {
  const res = await app.db.execute<{ send: boolean }>(sql`
    select coalesce((e.detail ->> 'send_email')::boolean, false) and i.buyer_email <> '' as send
    from invoices i
    join lateral (
      select detail from invoice_events
      where invoice_id = i.id and kind in ('created', 'issuing') and detail ? 'send_email'
      order by id desc limit 1
    ) e on true
    where i.id = ${invoiceId}`);
  return res.rows[0]?.send ?? false;
}
