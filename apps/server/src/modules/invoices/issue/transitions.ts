import type { DbOrTx } from '../../../channels/numbers.ts';
import { type MoveFields, moveStatus } from './repo.ts';

/**
 * The invoice's status machine, in one place (architecture.md §5). Every status change of an
 * invoice goes through `transition`, which checks it against this table at compile time (the
 * literal `from` and `to`) and again at run time, and writes the status itself.
 *
 * - issuing → issued | failed | unknown: the channel's outcome (or a call that broke off → unknown)
 * - failed → issuing: a retry of the same serial (blue or red) claims the invoice again
 * - unknown → issued | failed: reconciliation asked the bureau by serial
 * - issuing → issued | failed also by reconciliation of a stranded `issuing` row
 * - issued → voided: 作废 of a paper invoice
 */
export const INVOICE_TRANSITIONS = {
  issuing: ['issued', 'failed', 'unknown'],
  failed: ['issuing'],
  unknown: ['issued', 'failed'],
  issued: ['voided'],
  voided: [],
} as const satisfies Record<string, readonly string[]>;

export type InvoiceStatus = keyof typeof INVOICE_TRANSITIONS;

type Intersect<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
/** The statuses every one of `F` may move to. */
export type TargetOf<F extends InvoiceStatus> =
  Intersect<F extends unknown ? { to: (typeof INVOICE_TRANSITIONS)[F][number] } : never> extends {
    to: infer T;
  }
    ? T
    : never;

/** Whether the table allows `from` → `to`. */
export const mayMove = (from: InvoiceStatus, to: InvoiceStatus): boolean =>
  (INVOICE_TRANSITIONS[from] as readonly InvoiceStatus[]).includes(to);

/**
 * Moves an invoice from one of `from` to `to` with its event, in one statement (issue/repo.ts
 * `moveStatus`), with the fields that go with it. False when the invoice was no longer in one of
 * `from` (another request or reconciliation got there first).
 */
export async function transition<F extends InvoiceStatus>(
  db: DbOrTx,
  q: MoveFields & {
    id: number;
    from: readonly F[];
    to: TargetOf<F>;
    event: string;
    userId: number | null;
    detail: Record<string, unknown>;
  },
): Promise<boolean> {
  const to = q.to as InvoiceStatus;
  const wrong = q.from.filter((f) => !mayMove(f, to));
  if (wrong.length > 0 || q.from.length === 0) {
    throw new Error(`invoice status ${q.from.join('|')} → ${to} is not a transition (issue/transitions.ts)`);
  }
  return moveStatus(db, { ...q, to });
}
