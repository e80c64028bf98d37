import { invoiceQrText } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { isInDatabase, type RecordOutcome } from '../../../channels/in-database.ts';
import type { ChannelIssueRequest, ChannelOutcome } from '../../../channels/port.ts';
import { recordIssuedSql } from './repo.ts';
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

/** The fields of an issued invoice (transitions.ts `issued`). */
export const issuedFields = (
  inv: { invoiceType: string; totalAmount: string; totalWithTax: string },
  num: { invoiceCode: string; invoiceNo: string; checkCode: string; issuedAt: Date },
) => ({
  invoiceCode: num.invoiceCode,
  invoiceNo: num.invoiceNo,
  checkCode: num.checkCode,
  issuedAt: num.issuedAt,
  qr: qrFor(inv, num),
});

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
        issued: issuedFields(c, outcome),
        event: 'issued',
        userId: c.userId,
        detail: { invoice_code: outcome.invoiceCode, invoice_no: outcome.invoiceNo },
      });
    } else if (outcome.status === 'failed') {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        to: 'failed',
        error: { code: outcome.bureauCode, message: outcome.message },
        event: 'failed',
        userId: c.userId,
        detail: { code: outcome.code, bureau_code: outcome.bureauCode, message: outcome.message },
      });
    } else {
      ok = await transition(tx, {
        id: c.id,
        from: ['issuing'],
        to: 'unknown',
        error: { code: outcome.reason, message: UNKNOWN_MESSAGE },
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
    if (isInDatabase(channel))
      return await channel.issueRecorded(req, { record, issuedSql: recordIssuedSql(c) });
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
      error: { code: 'exception', message: UNKNOWN_MESSAGE },
      event: 'unknown',
      userId: c.userId,
      detail: { reason: 'exception' },
    }).catch(() => undefined);
    return null;
  }
}
