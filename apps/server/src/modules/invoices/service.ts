import type { IssueResult } from '@kaipiao/shared';
import { INVOICE_CODE } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { storeRefused } from '../../lib/scope.ts';
import { findResult, toIssueResult } from './repo.ts';

export { callChannel, UNKNOWN_MESSAGE } from './issue/channel-call.ts';
/**
 * The invoices module's service: issuing lives in issue/ (index.ts the path, eligibility.ts the
 * device rule, group-commit.ts and channel-call.ts the strategies, transitions.ts the status
 * machine, reconcile.ts the unknown outcomes); what other modules call is exported here.
 */
export { type Actor, issueBlue } from './issue/index.ts';
export { reconcileInvoices, STALE_ISSUING_MS } from './issue/reconcile.ts';

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
