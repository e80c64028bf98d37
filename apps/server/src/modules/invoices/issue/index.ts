import {
  type BlueInvoiceRequest,
  CODE,
  INVOICE_CODE,
  type IssueResult,
  messageFor,
  specificBusinessOf,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { isInDatabase } from '../../../channels/in-database.ts';
import { isDigitalType, shanghaiParts } from '../../../channels/numbers.ts';
import type { ChannelIssued } from '../../../channels/port.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { IssuingActor } from '../../../lib/scope.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import { runInvoiceIssuedHooks } from '../hooks.ts';
import { findResult, type IssueContext, type NewInvoice, requestHash, toIssueResult } from '../repo.ts';
import { validateBlue } from '../validate.ts';
import { callChannel } from './channel-call.ts';
import { assertDeviceCanIssue } from './eligibility.ts';
import { issueAtOnce } from './group-commit.ts';
import { insertIssuing, sellerRow } from './repo.ts';
import { transition } from './transitions.ts';

/** Tax code and taxpayer type per business: what validation needs, stable enough to cache briefly. */
const sellers = new TtlCache<{ taxCode: string; taxpayerType: 'general' | 'small' }>(30_000);

async function sellerFacts(app: FastifyInstance, clientId: number) {
  const key = String(clientId);
  let hit = sellers.get(key);
  // Stryker disable next-line ConditionalExpression: the seller cache only saves a query: asking every time finds the same business
  if (!hit) {
    const row = await sellerRow(app.db, clientId);
    if (!row) throw new AppError(CODE.NOT_FOUND);
    // Stryker disable next-line StringLiteral: validation only asks whether the seller is 'small': any other type is a general taxpayer
    hit = { taxCode: row.tax_code, taxpayerType: row.taxpayer_type === 'small' ? 'small' : 'general' };
    sellers.set(key, hit);
  }
  return hit;
}

/** Who issues: the business, the store the invoice belongs to and the user (null for a job). */
export type Actor = IssuingActor;

/** The device rule (eligibility.ts) over the issuing statement's context. */
const checkDevice = (ctx: IssueContext, req: BlueInvoiceRequest): void =>
  assertDeviceCanIssue(ctx, { invoiceType: req.invoice_type, amount: req.invoice_info.total_amount });

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

  const newInvoice: NewInvoice = {
    clientId: actor.clientId,
    storeId: actor.storeId,
    deviceId: req.device_id,
    serialNo: req.serial_no,
    requestHash: hash,
    userId: actor.userId,
    req,
    lines,
    // the special-business block, hotel stay, slsm and bank flags: the shared mapping (documents read it back)
    specificBusiness: specificBusinessOf(req, smallScaleReason),
    month: shanghaiParts(new Date()).month,
    digital: isDigitalType(req.invoice_type),
    // the two-step path's `issuing` row may skip its own WAL flush only when the channel flushes
    asyncCommit: isInDatabase(app.taxChannel),
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
  if (atOnce) return issuedResult(app, actor, req, atOnce.recordedId, atOnce.outcome);

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
      to: 'issuing',
      error: null,
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
  if (outcome?.status === 'issued') return issuedResult(app, actor, req, invoiceId, outcome);
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
  actor: Actor,
  req: BlueInvoiceRequest,
  invoiceId: number,
  outcome: ChannelIssued,
): IssueResult {
  runInvoiceIssuedHooks(app, invoiceId, {
    clientId: actor.clientId,
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

export async function current(app: FastifyInstance, clientId: number, id: number): Promise<IssueResult> {
  const row = await findResult(app.db, { clientId, id });
  // Stryker disable next-line ConditionalExpression: the invoice was made or found in this business just before, and invoices are never deleted
  if (!row) throw new AppError(INVOICE_CODE.SERIAL_NOT_FOUND);
  return toIssueResult(row);
}
