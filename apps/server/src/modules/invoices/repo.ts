import { createHash } from 'node:crypto';
import type { BlueInvoiceRequest, IssueResult } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { LeftJoined, Prefixed, RawRow } from '../../db/rows.ts';
import type { clients, invoices } from '../../db/schema/index.ts';
import type { DeviceFacts } from './issue/eligibility.ts';
import type { StoredLine } from './validate.ts';

/** Sorted key lists by object shape, and quoted keys: payloads of one schema repeat both. */
const sortedKeysByShape = new Map<string, string[]>();
const quotedKeys = new Map<string, string>();

// Stryker disable next-line BlockStatement: a cache of key lists: declining a cached list only recomputes it (request-hash.test.ts checks the hash against the reference)
function sameKeys(list: readonly string[], o: Record<string, unknown>, n: number): boolean {
  // Stryker disable next-line ConditionalExpression: a cache of key lists: declining a cached list only recomputes it (request-hash.test.ts checks the hash against the reference)
  if (list.length !== n) return false;
  // Stryker disable next-line ConditionalExpression: a cache of key lists: declining a cached list only recomputes it (request-hash.test.ts checks the hash against the reference)
  for (const k of list) if (!Object.hasOwn(o, k)) return false;
  // Stryker disable next-line BooleanLiteral: a cache of key lists: declining a cached list only recomputes it (request-hash.test.ts checks the hash against the reference)
  return true;
}

/**
 * JSON with object keys sorted, so equal payloads hash equally whatever the key order (stored
 * hashes depend on this exact text: undefined members are left out, as JSON.stringify does).
 */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + (canonical(v[i]) ?? '');
    return `${out}]`;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  // Stryker disable next-line StringLiteral: the shape is only a cache key, checked by sameKeys before use
  const shape = keys.join('\u0000');
  let sorted = sortedKeysByShape.get(shape);
  // a key holding the separator could make two shapes look alike: use the list only if it holds
  // exactly this object's keys
  // Stryker disable next-line ConditionalExpression: a cache of key lists: declining a cached list only recomputes it (request-hash.test.ts checks the hash against the reference)
  if (sorted && !sameKeys(sorted, o, keys.length)) sorted = undefined;
  // Stryker disable next-line ConditionalExpression: a cache of key lists: declining a cached list only recomputes it (request-hash.test.ts checks the hash against the reference)
  if (!sorted) {
    sorted = [...keys].sort();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the cache's size bound; another bound only changes what is cached
    if (sortedKeysByShape.size < 1000) sortedKeysByShape.set(shape, sorted);
  }
  let out = '{';
  for (const k of sorted) {
    const x = o[k];
    if (x === undefined) continue;
    let q = quotedKeys.get(k);
    // Stryker disable next-line ConditionalExpression: quoting a key again gives the same text
    if (q === undefined) {
      q = JSON.stringify(k);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the cache's size bound; another bound only changes what is cached
      if (quotedKeys.size < 5000) quotedKeys.set(k, q);
    }
    out += `${out.length > 1 ? ',' : ''}${q}:${canonical(x)}`;
  }
  return `${out}}`;
}

/**
 * sha256 of the canonical request (architecture.md §5): the parsed payload (defaults applied,
 * strings trimmed), without `send_email`, which decides delivery but not the invoice.
 */
export function requestHash(req: BlueInvoiceRequest): string {
  const { send_email: _ignored, ...rest } = req;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

type InvoiceRaw = RawRow<typeof invoices>;
type ClientRaw = RawRow<typeof clients>;

export type InvoiceResultRow = Pick<
  InvoiceRaw,
  | 'id'
  | 'serial_no'
  | 'invoice_type'
  | 'invoice_code'
  | 'invoice_no'
  | 'issued_at'
  | 'total_with_tax'
  | 'error_message'
> & { status: IssueResult['status'] };

type FoundResultRow = InvoiceResultRow & Pick<InvoiceRaw, 'request_hash' | 'store_id'>;

export function toIssueResult(r: InvoiceResultRow): IssueResult {
  return {
    invoice_id: Number(r.id),
    serial_no: r.serial_no,
    status: r.status,
    invoice_type: r.invoice_type,
    invoice_code: r.invoice_code,
    invoice_no: r.invoice_no,
    issued_at: r.issued_at ? new Date(r.issued_at).toISOString() : null,
    total_price_with_tax: r.total_with_tax,
    error_message: r.error_message,
  };
}

const RESULT_COLUMNS = sql.raw(
  'i.id, i.serial_no, i.status, i.invoice_type, i.invoice_code, i.invoice_no, i.issued_at, i.total_with_tax, i.error_message',
);

/** What issuing checks, read in the statement that inserts the invoice: seller, device, binding, stock, the serial's invoice. */
export type IssueContext = Prefixed<
  'seller_',
  Pick<ClientRaw, 'name' | 'tax_code' | 'address' | 'phone' | 'bank_name' | 'bank_account'>
> &
  Pick<ClientRaw, 'taxpayer_type'> &
  DeviceFacts &
  LeftJoined<{ inv_id: InvoiceRaw['id']; inv_hash: InvoiceRaw['request_hash'] }> & {
    inv_status: IssueResult['status'] | null;
    /** the invoice this statement inserted, if it did */
    new_id: InvoiceRaw['id'] | null;
  };

export async function findResult(
  db: DbOrTx,
  q: { clientId: number; serialNo?: string; id?: number },
): Promise<FoundResultRow | null> {
  // Stryker disable next-line StringLiteral: every caller passes an id or a serial; the fallback only satisfies the type
  const serialNo = q.serialNo ?? '';
  const where = q.id !== undefined ? sql`i.id = ${q.id}` : sql`i.serial_no = ${serialNo}`;
  const res = await db.execute<FoundResultRow>(sql`
    select ${RESULT_COLUMNS}, i.request_hash, i.store_id from invoices i
    where i.client_id = ${q.clientId} and ${where}`);
  return res.rows[0] ?? null;
}

export type NewInvoice = {
  clientId: number;
  storeId: number;
  deviceId: number;
  serialNo: string;
  requestHash: string;
  userId: number | null;
  req: BlueInvoiceRequest;
  lines: StoredLine[];
  specificBusiness: Record<string, unknown> | null;
  /** Beijing month of the quota check, 'YYYY-MM' */
  month: string;
  digital: boolean;
  /** commit without waiting for the WAL flush (the channel's synchronous commit flushes it before reporting an issue) */
  asyncCommit: boolean;
};

/** The business of an invoice (the issued hooks after reconciliation, which know only its id). */
export async function clientOfInvoice(db: DbOrTx, invoiceId: number): Promise<number | undefined> {
  const res = await db.execute<Pick<InvoiceRaw, 'client_id'>>(
    sql`select client_id from invoices where id = ${invoiceId}`,
  );
  return res.rows[0]?.client_id;
}
