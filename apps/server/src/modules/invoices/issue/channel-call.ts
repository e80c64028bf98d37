import { invoiceQrText } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type IssueRecorder, isInDatabase, type RecordOutcome } from '../../../channels/in-database.ts';
import type { ChannelIssueRequest, ChannelOutcome } from '../../../channels/port.ts';
import { issuedQrSql } from './repo.ts';
import { transition } from './transitions.ts';

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

/** SQL `set` list of an issued invoice (the status itself is the transition's). */
export function issuedSet(
  inv: { invoiceType: string; totalAmount: string; totalWithTax: string },
  num: { invoiceCode: string; invoiceNo: string; checkCode: string; issuedAt: Date },
) {
  return sql`invoice_code = ${num.invoiceCode}, invoice_no = ${num.invoiceNo},
    check_code = ${num.checkCode}, issued_at = ${num.issuedAt.toISOString()}, qr_string = ${qrFor(inv, num)},
    error_code = null, error_message = null`;
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
 * Sends the invoice to the channel and records the outcome on it. Null when the invoice had moved
 * on (nothing was recorded for this call). Two strategies:
 * - a channel sharing our database (channels/in-database.ts) records the outcome inside the
 *   transaction that allocates the number, so a number never exists without its invoice;
 * - any other channel (the port alone, e.g. channels/http.ts) answers first and the outcome is
 *   recorded in a transaction of our own. A crash in between leaves the invoice `issuing` — durable
 *   since before the call — and reconciliation asks the bureau by serial (reconcile.ts).
 */
export async function callChannel(app: FastifyInstance, c: ChannelCall): Promise<ChannelOutcome | null> {
  const record: RecordOutcome = async (tx, outcome) => {
    let ok: boolean;
    if (outcome.status === 'issued') {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        to: 'issued',
        set: issuedSet(c, outcome),
        event: 'issued',
        userId: c.userId,
        detail: { invoice_code: outcome.invoiceCode, invoice_no: outcome.invoiceNo },
      });
    } else if (outcome.status === 'failed') {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        to: 'failed',
        set: sql`error_code = ${outcome.bureauCode}, error_message = ${outcome.message}`,
        event: 'failed',
        userId: c.userId,
        detail: { code: outcome.code, bureau_code: outcome.bureauCode, message: outcome.message },
      });
    } else {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        to: 'unknown',
        set: sql`error_code = ${outcome.reason}, error_message = ${UNKNOWN_MESSAGE}`,
        event: 'unknown',
        userId: c.userId,
        detail: { reason: outcome.reason, message: outcome.message },
      });
    }
    if (!ok) throw new InvoiceMoved();
  };
  const req: ChannelIssueRequest = {
    clientId: c.clientId,
    deviceId: c.deviceId,
    serialNo: c.serialNo,
    invoiceType: c.invoiceType,
    totalAmount: c.totalAmount,
    totalWithTax: c.totalWithTax,
  };
  const channel = app.taxChannel;
  try {
    if (isInDatabase(channel)) return await channel.issueRecorded(req, recorderFor(c, record));
    const outcome = await channel.issue(req);
    await app.db.transaction((tx) => record(tx, outcome));
    return outcome;
  } catch (err) {
    if (err instanceof InvoiceMoved) return null;
    // the channel call broke off: whether it issued is unknown until reconciliation asks
    app.log.error({ err, invoiceId: c.id }, 'tax channel call failed');
    await transition(app.db, {
      id: c.id,
      from: ['issuing'],
      to: 'unknown',
      set: sql`error_code = 'exception', error_message = ${UNKNOWN_MESSAGE}`,
      event: 'unknown',
      userId: c.userId,
      detail: { reason: 'exception' },
    }).catch(() => undefined);
    return null;
  }
}

/** The in-database strategy's recorder: the SQL that records an issued invoice in the allocating statement. */
function recorderFor(c: ChannelCall, record: RecordOutcome): IssueRecorder {
  return {
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
}
