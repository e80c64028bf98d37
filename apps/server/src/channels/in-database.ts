import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './numbers.ts';
import type { ChannelIssued, ChannelIssueRequest, ChannelOutcome, TaxChannel } from './port.ts';

/**
 * What a channel whose records live in our own database (the sandbox) can offer beyond the port
 * (port.ts): not part of what a bureau connection implements. The issuing strategies
 * (modules/invoices/issue/group-commit.ts, channel-call.ts) use it when `isInDatabase(channel)`, and otherwise record
 * the outcome the port answers in a transaction of their own.
 */

/**
 * New 数电 invoices issued together by `issueAtOnce`, of any businesses, devices and 数电 kinds (each
 * device's numbers still follow one counter, in the items' order); an older kind goes alone (one
 * item: stock ranges).
 */
export type ChannelBatchRequest = {
  items: Array<{
    clientId: number;
    deviceId: number;
    invoiceType: string;
    serialNo: string;
    /** 合计金额, what the limit and the quota count (as ChannelIssueRequest's) */
    totalAmount: string;
  }>;
};

/** An invoice `issueAtOnce` issued and the caller's `recorded` CTE created. */
export type AtOnceIssued = { outcome: ChannelIssued; recordedId: number };

/** The key of `issueAtOnce`'s answer: a serial is unique within its business only. */
export const atOnceKey = (clientId: number, serialNo: string): string => `${clientId}:${serialNo}`;

/**
 * Records the outcome on the caller's side (the invoice row and its event) inside the channel's
 * transaction, so a number is never handed out without the invoice that carries it and an invoice
 * never becomes issued without its number (architecture.md §5). Throwing undoes the issue.
 */
export type RecordOutcome = (tx: DbOrTx, outcome: ChannelOutcome) => Promise<void>;

/**
 * SQL the caller hands a channel whose numbers live in this database (the sandbox), so that
 * invoices are recorded in the very statement that allocates their numbers and the per-device
 * lock is held for one statement only:
 * - `guard`: a SELECT returning one row per invoice that may be issued (locking what it needs),
 *   with at least `client_id` (int) and `serial_no` (text); the channel issues only invoices it
 *   returns (the amounts, kinds and order are the channel's request's);
 * - `ctes`: data-modifying CTEs (comma-separated, no leading WITH) that read the allocated values
 *   from the CTE `issued` (client_id, serial_no, invoice_code, invoice_no, check_code, issued_at)
 *   and may read `guard`; one of them must be named `recorded` and return `id`, `client_id` and
 *   `serial_no` of every invoice it recorded.
 * The sandbox commits that statement synchronously, whatever the server's default (its WAL is on
 * disk before it returns), so the caller never reports an invoice that a crash could take back.
 * (Issue 11 measured the alternative it replaced — an asynchronous commit followed by a shared
 * flush statement — as one round trip and one transaction more per batch for nothing: at 10
 * connections 24% of the bare route against 30–33%, CPU per invoice 0.56 against 0.48 ms.)
 */
export type IssuedSql = { guard: SQL; ctes: SQL };

/**
 * The caller's side of an issue. `record` always works; `issuedSql` (see IssuedSql) records an
 * issued invoice in the allocating statement when the channel can.
 */
export type IssueRecorder = {
  record: RecordOutcome;
  issuedSql?: IssuedSql;
};

/** A channel sharing our database: it records the caller's outcome with the number it allocates. */
export interface InDatabaseChannel extends TaxChannel {
  /**
   * The channel's records live in this database and every issue that reports an invoice has
   * committed synchronously, which flushes the WAL before it: the caller's writes before the call
   * may commit without waiting for their own flush (a remote channel needs the caller's `issuing`
   * row durable first).
   */
  readonly inDatabase: true;
  /**
   * Issues one invoice and records the outcome through `recorder` inside the transaction that
   * allocates the number (a failure or an unknown result in a transaction of its own); if
   * recording fails, nothing is issued and the error propagates.
   */
  issueRecorded(req: ChannelIssueRequest, recorder: IssueRecorder): Promise<ChannelOutcome>;
  /**
   * Issues invoices that do not exist yet: `sql.ctes` create them (in their final, issued state)
   * in the statement that allocates the numbers, and `sql.guard` holds the caller's checks (see
   * IssuedSql). One statement and one commit for the whole batch — of many businesses and devices
   * — instead of an `issuing` row, a channel call and an update per invoice. All or none per
   * device: of the invoices the guard passes, a device issues all (state, kind, largest amount
   * under the limit, sum within the quota; no simulated fault or latency) or none, and the other
   * devices' are issued regardless. Answers what was issued, by
   * `atOnceKey` (the caller takes the two-step path for the rest, which names the refusal or finds
   * another request's invoice); null when the statement was undone (a concurrent request with one
   * of the serials), and throws when it failed. Older kinds: one invoice per batch.
   */
  issueAtOnce(batch: ChannelBatchRequest, sql: IssuedSql): Promise<Map<string, AtOnceIssued> | null>;
}

export const isInDatabase = (c: TaxChannel): c is InDatabaseChannel =>
  (c as Partial<InDatabaseChannel>).inDatabase === true;
