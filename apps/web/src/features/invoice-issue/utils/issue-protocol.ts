import { CODE, INVOICE_CODE, type IssueResult } from '@kaipiao/shared';
import { ApiError } from '../../../lib/api-error.ts';
import type { BlueInvoicePayload } from './build-request.ts';
import type { FieldErrors } from './types.ts';

// How one submit turns into an outcome (architecture.md §5). Pure async over injected calls, so
// the retry/poll rules are tested without a server or a browser. The server answers: code 0 with
// the result (issued, or still issuing); 10001 with field errors; 13111 when the channel's answer
// is unknown (data: the result); another code when nothing was issued (data: the failed result,
// which the same serial may retry); 13120 when the serial was used with another payload.

export type IssueCalls = {
  issue: (payload: BlueInvoicePayload) => Promise<IssueResult>;
  /** the serial's invoice; throws 13121 when there is none */
  result: (serialNo: string) => Promise<IssueResult>;
  /** asks the channel about an unknown outcome; the serial's result when it was checked */
  reconcile?: (serialNo: string) => Promise<IssueResult | null>;
  sleep: (ms: number) => Promise<void>;
};

export type Outcome =
  /** the invoice exists (now or from an earlier request with this serial) */
  | { kind: 'issued'; result: IssueResult }
  /** the server refused the fields (10001): no invoice; errors keyed by field path */
  | { kind: 'rejected'; errors: FieldErrors; message: string }
  /** a definitive failure (channel error, limit, device…): no invoice was made */
  | { kind: 'failed'; message: string; code?: number }
  /** the serial already carries another payload (another tab, an edited retry) */
  | { kind: 'conflict'; message: string }
  /** no answer we can trust (time-out, network, "unknown", still issuing): the invoice may exist */
  | { kind: 'unknown'; message: string; result?: IssueResult };

export const POLL = { attempts: 6, intervalMs: 2_000 } as const;

type ServerFieldError = { field?: unknown; message?: unknown };

/** `data.errors[{field, message}]` of a 10001 answer, as a field → message map. */
export function fieldErrorsOf(data: unknown): FieldErrors {
  const list = (data as { errors?: ServerFieldError[] } | null)?.errors;
  const out: FieldErrors = {};
  if (!Array.isArray(list)) return out;
  for (const e of list) {
    if (typeof e?.field !== 'string' || typeof e.message !== 'string') continue;
    // zod paths may come with brackets ("goods_info[1].amount"); the form uses dots
    const field = e.field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
    out[field] ??= e.message;
  }
  return out;
}

const UNSETTLED = '发票正在开具中，结果待确认';

/** What an IssueResult means for the form. */
export function outcomeOfResult(result: IssueResult): Outcome {
  if (result.status === 'issued' || result.status === 'voided') return { kind: 'issued', result };
  if (result.status === 'failed') return { kind: 'failed', message: result.error_message || '开票失败' };
  return { kind: 'unknown', message: UNSETTLED, result };
}

const isResult = (data: unknown): data is IssueResult =>
  typeof data === 'object' && data !== null && 'serial_no' in data && 'status' in data;

/** The serial's settled outcome, asking the channel about an unknown one; null when the server has none. */
async function lookUp(serialNo: string, calls: IssueCalls): Promise<Outcome | null> {
  let result: IssueResult;
  try {
    result = await calls.result(serialNo);
  } catch (error) {
    if (
      error instanceof ApiError &&
      (error.code === INVOICE_CODE.SERIAL_NOT_FOUND || error.code === CODE.NOT_FOUND)
    ) {
      return null;
    }
    return { kind: 'unknown', message: error instanceof Error ? error.message : UNSETTLED };
  }
  if (result.status === 'unknown' && calls.reconcile) {
    try {
      result = (await calls.reconcile(serialNo)) ?? result;
    } catch {
      // still unknown; the next round asks again
    }
  }
  return outcomeOfResult(result);
}

/** Asks for the serial's result until it is settled or the attempts run out. */
export async function pollResult(
  serialNo: string,
  calls: IssueCalls,
  opts: { attempts?: number; intervalMs?: number } = {},
): Promise<Outcome | null> {
  const attempts = opts.attempts ?? POLL.attempts;
  let last: Outcome | null = null;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await calls.sleep(opts.intervalMs ?? POLL.intervalMs);
    last = await lookUp(serialNo, calls);
    if (last?.kind !== 'unknown') return last;
  }
  return last;
}

/** Sends the payload; a lost or unsettled answer is followed by polling the serial's result. */
export async function sendIssue(payload: BlueInvoicePayload, calls: IssueCalls): Promise<Outcome> {
  let outcome: Outcome;
  try {
    outcome = outcomeOfResult(await calls.issue(payload));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.kind === 'code') {
      if (error.code === CODE.VALIDATION) {
        return { kind: 'rejected', errors: fieldErrorsOf(error.data), message: error.message };
      }
      if (error.code === INVOICE_CODE.SERIAL_CONFLICT) return { kind: 'conflict', message: error.message };
      if (error.code === INVOICE_CODE.CHANNEL_TIMEOUT) {
        outcome = {
          kind: 'unknown',
          message: error.message || UNSETTLED,
          result: isResult(error.data) ? error.data : undefined,
        };
      } else {
        // the server's word: nothing was issued for this request
        return { kind: 'failed', message: error.message, code: error.code };
      }
    } else {
      outcome = { kind: 'unknown', message: error.message };
    }
  }
  if (outcome.kind !== 'unknown') return outcome;
  const polled = await pollResult(payload.serial_no, calls);
  // null: the server never saw the request; still unknown to us, and a resend with this serial is safe
  return polled ?? outcome;
}
