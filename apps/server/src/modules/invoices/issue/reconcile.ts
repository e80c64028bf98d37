import type { IssueResult } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { runInvoiceIssuedHooks } from '../hooks.ts';
import { issuedFields } from './channel-call.ts';
import { current } from './index.ts';
import { unsettledInvoices, wantsEmail } from './repo.ts';
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
  const rows = await unsettledInvoices(app.db, {
    staleMs: stale,
    clientId: opts.clientId,
    storeIds: opts.storeIds ? [...opts.storeIds] : null,
    serialNo: opts.serialNo,
    limit: opts.limit ?? 500,
  });

  const summary: ReconcileSummary = { checked: 0, issued: 0, failed: 0, pending: 0, results: [] };
  const userId = opts.userId ?? null;
  for (const inv of rows) {
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
        issued: issuedFields(
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
        runInvoiceIssuedHooks(app, id, { sendEmail: await wantsEmail(app.db, id) });
      }
    } else {
      const moved = await transition(app.db, {
        id,
        from: ['unknown', 'issuing'],
        to: 'failed',
        error: { code: 'not_issued', message: '税局未开具该发票，可使用原流水号重新开具' },
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
