import type { IssueResult } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { runInvoiceIssuedHooks } from '../hooks.ts';
import { issuedSet } from './channel-call.ts';
import { current } from './index.ts';
import { transition } from './transitions.ts';

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
        to: 'issued',
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
        to: 'failed',
        set: sql`error_code = 'not_issued',
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
