/**
 * The tax channel port (architecture.md §1): what issuing asks of the tax bureau, in the bureau's
 * own terms — issue an invoice under a serial, ask what became of a serial, a device's state and
 * its quota and stock, and for red-letter work and voids (RedChannel): whether the buyer has used
 * an invoice, and voiding one. An invoice is named by its numbers, never by our row id. Nothing here knows our database: a 乐企 connection, a vendor's API or a
 * tax-control disc agent implements this interface alone (channels/http.ts does, against a
 * separate bureau process). The outcome is the caller's to record.
 *
 * A channel whose records live in our own database may offer more (channels/in-database.ts):
 * recording in the statement that allocates the number, and group commit. Those are optimisations
 * behind this port, chosen by the issuing strategies (modules/invoices/issue/), never required.
 */
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

/** An issued invoice as the bureau knows it: the business and the invoice's numbers. */
export type BureauInvoiceRef = {
  clientId: number;
  /** 发票代码; '' for 数电 invoices */
  invoiceCode: string;
  invoiceNo: string;
};

/** 作废 of a paper invoice, asked of the device that issued it. */
export type VoidRequest = BureauInvoiceRef & { deviceId: number; reason: string };

/**
 * What the bureau said to a void:
 * - `voided`: the invoice is void at the bureau (also the answer to a repeat: voiding is idempotent);
 * - `refused`: it is not, with the bureau's code and words;
 * - `unknown`: no answer (time-out, no connection, an answer we cannot read): it may or may not be
 *   void at the bureau; asking again is safe.
 */
export type VoidOutcome =
  | { status: 'voided'; voidedAt: Date }
  | { status: 'refused'; bureauCode: string; message: string }
  | { status: 'unknown'; message: string };

/**
 * The bureau's side of red-letter forms and voids (domain.md §3), in its terms. The caller keeps
 * its own records and transactions: nothing here takes a database handle, so the bureau is asked
 * outside our transactions or while one merely holds a lock.
 */
export interface RedChannel {
  /**
   * The buyer has confirmed use of (勾选) or booked (入账) the invoice: a 数电 red form then needs
   * the buyer's confirmation. An unreachable bureau throws (AppError, Chinese message).
   */
  buyerUsed(q: BureauInvoiceRef): Promise<boolean>;
  /** Voids a paper invoice (作废) at the bureau. Never throws: a failure is `unknown`. */
  voidInvoice(q: VoidRequest): Promise<VoidOutcome>;
}

/** The tax channel adapter: 数电 platform, tax-control discs, hosted devices. */
export interface TaxChannel extends RedChannel {
  /**
   * Issues one invoice. Idempotent by serial: asking again for a serial the bureau already issued
   * answers that invoice. A time-out or an answer the bureau cannot give yet is `unknown`
   * (reconciliation asks `querySerial` later); a thrown error means the same.
   */
  issue(req: ChannelIssueRequest): Promise<ChannelOutcome>;
  /** What the channel knows about a serial (reconciliation of unknown results). */
  querySerial(q: { clientId: number; serialNo: string }): Promise<ChannelQueryResult>;
  deviceState(deviceId: number): Promise<DeviceState | null>;
  quota(deviceId: number): Promise<DeviceQuota | null>;
}
