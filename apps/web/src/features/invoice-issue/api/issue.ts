import type { IssueResult } from '@kaipiao/shared';
import { api } from '../../../lib/api.ts';
import type { BlueInvoicePayload } from '../utils/build-request.ts';

// POST v3/online-invoicing/blue (spec §7), the result by serial number and the reconciliation of
// an unknown outcome. Errors are not shown by the client here: the form maps 10001 field errors
// onto its fields and decides what the other answers mean (utils/issue-protocol.ts).
export const ISSUE_TIMEOUT_MS = 30_000;

export const issueBlueInvoice = (payload: BlueInvoicePayload) =>
  api.post<IssueResult>('/v3/online-invoicing/blue', payload, {
    showError: false,
    timeout: ISSUE_TIMEOUT_MS,
  });

/** The invoice made for a serial number (13121 when there is none). */
export const getIssueResult = (serial_no: string) =>
  api.get<IssueResult>('/v3/online-invoicing/result', { params: { serial_no }, showError: false });

type ReconcileSummary = { results: IssueResult[] };

/** Asks the channel about the serial's unknown outcome; its result once checked. */
export async function reconcileSerial(serial_no: string): Promise<IssueResult | null> {
  const summary = await api.post<ReconcileSummary>(
    '/v3/online-invoicing/reconcile',
    { serial_no },
    { showError: false },
  );
  return summary.results.find((r) => r.serial_no === serial_no) ?? null;
}
