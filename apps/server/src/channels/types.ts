import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './numbers.ts';

/** What the issuing service sends the channel for one invoice. */
export type ChannelIssueRequest = {
  clientId: number;
  deviceId: number;
  /** the business's 流水号: the channel's idempotency key and the key of query-by-serial */
  serialNo: string;
  invoiceType: string;
  /** 合计金额 (tax-exclusive): checked against the per-invoice limit and the monthly quota */
  totalAmount: string;
  totalWithTax: string;
};

export type ChannelIssued = {
  status: 'issued';
  invoiceCode: string;
  invoiceNo: string;
  checkCode: string;
  issuedAt: Date;
};
export type ChannelFailed = {
  status: 'failed';
  /** our envelope code (13100–13299) the service answers with */
  code: number;
  /** the bureau's own error code, or ours as text for refusals we detect */
  bureauCode: string;
  message: string;
};
/** Several invoices of one kind on one device, issued together by `issueAtOnce`. */
export type ChannelBatchRequest = {
  clientId: number;
  deviceId: number;
  invoiceType: string;
  items: Array<{ serialNo: string; totalAmount: string }>;
};

/** An invoice `issueAtOnce` issued and the caller's `recorded` CTE created. */
export type AtOnceIssued = { outcome: ChannelIssued; recordedId: number };

/** The channel could not say: a time-out, or an "unknown" answer. Reconciliation settles it. */
export type ChannelUnknown = { status: 'unknown'; reason: 'timeout' | 'unknown'; message: string };
export type ChannelOutcome = ChannelIssued | ChannelFailed | ChannelUnknown;

/** Query by serial (reconciliation): `pending` = the channel cannot tell yet; ask again later. */
export type ChannelQueryResult =
  | {
      state: 'issued';
      invoiceType: string;
      invoiceCode: string;
      invoiceNo: string;
      checkCode: string;
      issuedAt: Date;
    }
  | { state: 'not_issued' }
  | { state: 'pending' };

export type DeviceState = {
  deviceId: number;
  online: boolean;
  locked: boolean;
  active: boolean;
};

export type DeviceQuota = {
  deviceId: number;
  perInvoiceLimit: string;
  /** 数电 monthly 发票总额度 (tax-exclusive); null for stock-based discs */
  monthlyQuota: string | null;
  /** used this month (Beijing time); 0 when the stored month is an earlier one */
  quotaUsed: string;
  quotaMonth: string;
  /** remaining blank stock per invoice type (older kinds) */
  stock: Record<string, number>;
};

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
 *   with at least `serial_no` (text), `ord` (int: 1…n, the order the numbers follow) and
 *   `total_amount` (numeric: what the limit and the quota count, as ChannelIssueRequest's); the
 *   channel issues only when it returns every invoice asked for;
 * - `ctes`: data-modifying CTEs (comma-separated, no leading WITH) that read the allocated values
 *   from the CTE `issued` (serial_no, invoice_code, invoice_no, check_code, issued_at) and may read
 *   `guard`; one of them must be named `recorded` and return `id` and `serial_no` of every
 *   invoice it recorded.
 * The sandbox commits that statement without waiting for the WAL flush (the per-device locks are
 * released sooner) and then waits for a flush before it returns, so the caller never reports an
 * invoice that a crash could take back.
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

/**
 * The tax channel adapter (architecture.md §1): 数电 platform, tax-control discs, hosted devices.
 * The sandbox implementation (sandbox.ts) behaves like the real thing, with latency and faults.
 */
export interface TaxChannel {
  /**
   * The channel's records live in this database and every issue that reports an invoice has
   * forced a WAL flush first (the sandbox): the caller's writes before the call may commit without
   * waiting for their own flush. False for a remote channel: the caller's `issuing` row must be
   * durable before the bureau is asked.
   */
  readonly inDatabase: boolean;
  /**
   * Issues one invoice. The outcome is recorded through `recorder` inside the transaction that
   * allocates the number (a failure or an unknown result in a transaction of its own); if
   * recording fails, nothing is issued and the error propagates.
   */
  issue(req: ChannelIssueRequest, recorder: IssueRecorder): Promise<ChannelOutcome>;
  /**
   * An in-database channel may issue invoices that do not exist yet: `sql.ctes` create them (in
   * their final, issued state) in the statement that allocates the numbers, and `sql.guard` holds
   * the caller's checks (see IssuedSql). One statement and one commit for the whole batch instead
   * of an `issuing` row, a channel call and an update per invoice. All or nothing: null when
   * nothing happened (a refusal, a configured fault or latency, a concurrent request with one of
   * the serials), and the caller then takes the two-step path for each invoice, which names the
   * refusal or finds the other request's invoice. Older kinds: one invoice per batch.
   */
  issueAtOnce?(batch: ChannelBatchRequest, sql: IssuedSql): Promise<Map<string, AtOnceIssued> | null>;
  /** What the channel knows about a serial (reconciliation of unknown results). */
  querySerial(q: { clientId: number; serialNo: string }): Promise<ChannelQueryResult>;
  deviceState(deviceId: number): Promise<DeviceState | null>;
  quota(deviceId: number): Promise<DeviceQuota | null>;
}
