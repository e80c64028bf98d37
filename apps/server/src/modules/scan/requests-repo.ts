import type { BlueInvoiceRequest, ScanItem, ScanRequestStatus } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { LeftJoined, RawRow } from '../../db/rows.ts';
import type { invoices, scanRequests } from '../../db/schema/index.ts';
import { refuseIfOtherStore } from '../../lib/scope.ts';
import type { HotelStay } from './repo.ts';

/**
 * The SQL of the audit queue (issue 19 item 4; the rest of scan's is in repo.ts): the clerk's list
 * and detail, the claims pending/failed → issuing, the outcome of issuing, the rejection. Every read
 * is inside the business (`client_id`) and the caller's stores.
 */

/** A request's columns (its jsonb and kinds typed), its store, code and business names, its invoice's number. */
export type RequestRow = Pick<
  RawRow<typeof scanRequests>,
  | 'id'
  | 'client_id'
  | 'store_id'
  | 'code_id'
  | 'order_no'
  | 'token'
  | 'title_type'
  | 'buyer_name'
  | 'buyer_tax_code'
  | 'buyer_address'
  | 'buyer_phone'
  | 'buyer_bank_name'
  | 'buyer_bank_account'
  | 'email'
  | 'mobile'
  | 'buyer_remark'
  | 'amount'
  | 'invoice_type'
  | 'serial_no'
  | 'invoice_id'
  | 'reject_reason'
  | 'error_message'
  | 'reviewed_at'
  | 'created_at'
> & {
  code_kind: 'store' | 'counter' | 'order';
  status: ScanRequestStatus;
  items: ScanItem[] | null;
  hotel_stay: HotelStay | null;
  issue_request: BlueInvoiceRequest | null;
  store_name: string;
  code_name: string;
  seller_name: string;
  reviewed_by_name: string | null;
} & LeftJoined<Pick<RawRow<typeof invoices>, 'invoice_no'>>;

const requestSelect = sql`
  select r.id, r.client_id, r.store_id, s.name as store_name, r.code_id, r.code_kind, c.name as code_name,
    r.order_no, r.token, r.status, r.title_type, r.buyer_name, r.buyer_tax_code, r.buyer_address, r.buyer_phone,
    r.buyer_bank_name, r.buyer_bank_account, r.email, r.mobile, r.buyer_remark, r.amount, r.items, r.hotel_stay,
    r.invoice_type, r.serial_no, r.issue_request, r.invoice_id, i.invoice_no, r.reject_reason, r.error_message,
    u.nickname as reviewed_by_name, r.reviewed_at, r.created_at, k.name as seller_name
  from scan_requests r
  join client_stores s on s.id = r.store_id
  join clients k on k.id = r.client_id
  join scan_codes c on c.id = r.code_id
  left join users u on u.id = r.reviewed_by
  left join invoices i on i.id = r.invoice_id`;

/** The requests' stores: every store (null), else those given. */
const storeScope = (storeIds: ReadonlySet<number> | null): SQL =>
  storeIds === null ? sql`` : sql`and r.store_id = any(${`{${[...storeIds].join(',') || 0}}`}::int[])`;

/** A page of the queue (newest first) with the count of all the requests it filters to. */
export async function selectRequests(
  db: DbOrTx,
  a: { clientId: number; storeIds: ReadonlySet<number> | null; sid: number },
  q: { status: ScanRequestStatus | ''; keyword: string; code_id?: number; limit: number; offset: number },
): Promise<{ list: RequestRow[]; total: number }> {
  const kw = q.keyword ? `%${q.keyword.replace(/[%_\\]/g, '')}%` : null;
  const where = sql`r.client_id = ${a.clientId} ${storeScope(a.storeIds)}
    ${
      // Stryker disable next-line EqualityOperator: store ids start at 1; the all-stores view sends -1
      a.sid > 0 ? sql`and r.store_id = ${a.sid}` : sql``
    }
    ${q.status ? sql`and r.status = ${q.status}` : sql``}
    ${q.code_id ? sql`and r.code_id = ${q.code_id}` : sql``}
    ${kw ? sql`and (r.buyer_name ilike ${kw} or r.buyer_tax_code ilike ${kw} or r.order_no ilike ${kw})` : sql``}`;
  const list = await db.execute<RequestRow>(sql`${requestSelect} where ${where} order by r.id desc
    limit ${q.limit} offset ${q.offset}`);
  const count = await db.execute<{ n: string }>(
    sql`select count(*) as n from scan_requests r where ${where}`,
  );
  // Stryker disable next-line OptionalChaining: count(*) always answers one row
  return { list: list.rows, total: Number(count.rows[0]?.n ?? 0) };
}

/**
 * A request of the business in one of `storeIds` (null = any store); a request of the business in
 * another store is refused (12003), an unknown one answers undefined.
 */
export async function selectRequest(
  db: DbOrTx,
  clientId: number,
  storeIds: ReadonlySet<number> | null,
  id: number,
): Promise<RequestRow | undefined> {
  const res = await db.execute<RequestRow>(
    sql`${requestSelect} where r.id = ${id} and r.client_id = ${clientId} ${storeScope(storeIds)}`,
  );
  if (res.rows[0]) return res.rows[0];
  await refuseIfOtherStore(db, sql`select 1 from scan_requests where id = ${id} and client_id = ${clientId}`);
  return undefined;
}

/** pending → issuing with the payload it is issued with; false when another call took it first. */
export async function claimPending(
  db: DbOrTx,
  r: Pick<RequestRow, 'id' | 'client_id'>,
  c: {
    payload: BlueInvoiceRequest;
    items: ScanItem[];
    hotelStay: HotelStay | undefined;
    invoiceType: string;
    amount: string;
    userId: number | null;
  },
): Promise<boolean> {
  const res = await db.execute<{ id: number }>(sql`
    update scan_requests set status = 'issuing', serial_no = ${c.payload.serial_no},
      issue_request = ${JSON.stringify(c.payload)}::jsonb, items = ${JSON.stringify(c.items)}::jsonb,
      hotel_stay = ${c.hotelStay ? JSON.stringify(c.hotelStay) : null}::jsonb, invoice_type = ${c.invoiceType},
      amount = ${c.amount}, error_message = null, reviewed_by = ${c.userId}, reviewed_at = now(),
      updated_at = now()
    where id = ${r.id} and client_id = ${r.client_id} and status = 'pending'
    returning id`);
  return res.rows.length > 0;
}

/** failed → issuing for a retry with the stored payload; false when another call took it first. */
export async function claimFailed(
  db: DbOrTx,
  r: Pick<RequestRow, 'id' | 'client_id'>,
  userId: number | null,
): Promise<boolean> {
  const res = await db.execute<{ id: number }>(sql`
    update scan_requests set status = 'issuing', error_message = null, reviewed_by = ${userId},
      reviewed_at = now(), updated_at = now()
    where id = ${r.id} and client_id = ${r.client_id} and status = 'failed' returning id`);
  return res.rows.length > 0;
}

/** Marks the invoice as made from a scan request (`onlyIfOther`: unless it already is). */
export async function markInvoiceFromScan(
  db: DbOrTx,
  invoiceId: number,
  onlyIfOther: boolean,
): Promise<void> {
  await db.execute(
    onlyIfOther
      ? sql`update invoices set source = 'scan' where id = ${invoiceId} and source <> 'scan'`
      : sql`update invoices set source = 'scan' where id = ${invoiceId}`,
  );
}

export async function setRequestInvoice(db: DbOrTx, requestId: number, invoiceId: number): Promise<void> {
  await db.execute(
    sql`update scan_requests set invoice_id = ${invoiceId}, updated_at = now() where id = ${requestId}`,
  );
}

/** The invoice row of a serial, if issuing made one. */
export async function selectInvoiceBySerial(
  db: DbOrTx,
  clientId: number,
  serialNo: string,
): Promise<{ id: number; status: string } | undefined> {
  const res = await db.execute<{ id: number; status: string }>(
    sql`select id, status from invoices where client_id = ${clientId} and serial_no = ${serialNo}`,
  );
  return res.rows[0];
}

/** issuing → failed, keeping the invoice the channel saw (a retry re-sends the same serial). */
export async function failIssuing(db: DbOrTx, requestId: number, invoiceId: number, message: string) {
  await db.execute(sql`update scan_requests set status = 'failed', invoice_id = ${invoiceId},
    error_message = ${message}, updated_at = now() where id = ${requestId} and status = 'issuing'`);
}

/** issuing → pending, forgetting the serial and payload (no invoice was made). */
export async function returnToPending(db: DbOrTx, requestId: number, message: string) {
  await db.execute(sql`update scan_requests set status = 'pending', serial_no = null, issue_request = null,
    error_message = ${message}, updated_at = now() where id = ${requestId} and status = 'issuing'`);
}

/** issuing/failed → issued for the request of an issued invoice; answers what the buyer's SMS says. */
export async function markRequestIssued(db: DbOrTx, invoiceId: number) {
  // an issued invoice has its number
  const res = await db.execute<
    Pick<RawRow<typeof scanRequests>, 'mobile'> &
      Pick<RawRow<typeof invoices>, 'total_with_tax'> & { invoice_no: string; seller_name: string }
  >(sql`update scan_requests r set status = 'issued', invoice_id = i.id, error_message = null, updated_at = now()
    from invoices i join clients k on k.id = i.client_id
    where i.id = ${invoiceId} and i.status = 'issued' and r.client_id = i.client_id and r.serial_no = i.serial_no
      and r.status in ('issuing', 'failed')
    returning r.mobile, k.name as seller_name, i.invoice_no, i.total_with_tax`);
  return res.rows;
}

/** pending/failed → rejected with the reason; false when the request was handled meanwhile. */
export async function rejectRow(
  db: DbOrTx,
  r: Pick<RequestRow, 'id' | 'client_id'>,
  reason: string,
  userId: number | null,
): Promise<boolean> {
  const res = await db.execute<{ id: number }>(sql`
    update scan_requests set status = 'rejected', reject_reason = ${reason}, reviewed_by = ${userId},
      reviewed_at = now(), updated_at = now()
    where id = ${r.id} and client_id = ${r.client_id} and status in ('pending', 'failed') returning id`);
  return res.rows.length > 0;
}
