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
 * never becomes issued without its number (architecture.md §5).
 */
export type RecordOutcome = (tx: DbOrTx, outcome: ChannelOutcome) => Promise<void>;

/**
 * The tax channel adapter (architecture.md §1): 数电 platform, tax-control discs, hosted devices.
 * The sandbox implementation (sandbox.ts) behaves like the real thing, with latency and faults.
 */
export interface TaxChannel {
  /**
   * Issues one invoice. `record` runs inside the transaction that allocates the number (or, for a
   * failure or an unknown result, in a transaction of its own); if it throws, nothing is issued.
   */
  issue(req: ChannelIssueRequest, record: RecordOutcome): Promise<ChannelOutcome>;
  /** What the channel knows about a serial (reconciliation of unknown results). */
  querySerial(q: { clientId: number; serialNo: string }): Promise<ChannelQueryResult>;
  deviceState(deviceId: number): Promise<DeviceState | null>;
  quota(deviceId: number): Promise<DeviceQuota | null>;
}
