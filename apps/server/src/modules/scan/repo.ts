import type { publicSubmitBodySchema, ScanItem, ScanRequestStatus } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { LeftJoined, Prefixed, RawRow } from '../../db/rows.ts';
import type { clients, invoices, scanRequests, taxDevices } from '../../db/schema/index.ts';

/**
 * The SQL of scan-to-invoice (issue 19 item 4): settings, codes and the buyer's requests (the audit
 * queue's is in requests-repo.ts). The services (settings.ts, codes.ts, buyer.ts, requests.ts) hold
 * the rules, the repos the statements. Console reads are inside the business (`client_id`); the
 * buyer's calls reach rows only by token.
 */

export type HotelStay = { room_no: string; guest_name: string; check_in: string; check_out: string };

// ------------------------------------------------------------------------------------ settings

export type SettingsRow = {
  store_id: number;
  mode: 'audit' | 'immediate';
  device_id: number | null;
  invoice_type: string;
  default_valid_minutes: number;
};

export async function selectSettings(
  db: DbOrTx,
  clientId: number,
  storeId: number,
): Promise<SettingsRow | undefined> {
  const res =
    await db.execute<SettingsRow>(sql`select store_id, mode, device_id, invoice_type, default_valid_minutes
    from scan_settings where client_id = ${clientId} and store_id = ${storeId}`);
  return res.rows[0];
}

/** Whether the device is the business's and bound to the store (or granted to it through a trusteeship). */
export async function deviceServesStore(
  db: DbOrTx,
  clientId: number,
  storeId: number,
  deviceId: number,
): Promise<boolean> {
  const res = await db.execute<{ id: number }>(sql`select d.id from tax_devices d
    join (select device_id, store_id from device_stores
      union all select device_id, store_id from trusteeship_grants) ds on ds.device_id = d.id
    where d.id = ${deviceId} and d.client_id = ${clientId} and ds.store_id = ${storeId}
    limit 1`);
  return res.rows.length > 0;
}

export async function upsertSettings(
  db: DbOrTx,
  a: { clientId: number; storeId: number; userId: number | null },
  s: Omit<SettingsRow, 'store_id'>,
): Promise<void> {
  await db.execute(sql`
    insert into scan_settings (client_id, store_id, mode, device_id, invoice_type, default_valid_minutes, updated_by)
    values (${a.clientId}, ${a.storeId}, ${s.mode}, ${s.device_id}, ${s.invoice_type},
      ${s.default_valid_minutes}, ${a.userId})
    on conflict (client_id, store_id) do update set mode = excluded.mode, device_id = excluded.device_id,
      invoice_type = excluded.invoice_type, default_valid_minutes = excluded.default_valid_minutes,
      updated_by = excluded.updated_by, updated_at = now()`);
}

/**
 * The active device a store's requests are issued with: the chosen one when `deviceId` is given,
 * else the first that has `invoiceType` (else the first).
 */
export async function selectIssuingDevice(
  db: DbOrTx,
  clientId: number,
  storeId: number,
  deviceId: number | null,
  invoiceType: string,
): Promise<Pick<RawRow<typeof taxDevices>, 'id' | 'invoice_types'> | undefined> {
  const res = await db.execute<
    Pick<RawRow<typeof taxDevices>, 'id' | 'invoice_types'>
  >(sql`select d.id, d.invoice_types
    from tax_devices d
    -- bound to the store, or granted to it through a trusteeship (hosted device)
    join (select device_id, store_id from device_stores
      union all select device_id, store_id from trusteeship_grants) ds
      on ds.device_id = d.id and ds.store_id = ${storeId}
    where d.client_id = ${clientId} and d.status = 'active'
      ${deviceId !== null ? sql`and d.id = ${deviceId}` : sql``}
    order by (${invoiceType} = any(d.invoice_types)) desc, d.id
    limit 1`);
  return res.rows[0];
}

// ---------------------------------------------------------------------------------------- codes

export type CodeRow = {
  id: number;
  client_id: number;
  store_id: number;
  store_name: string;
  kind: 'store' | 'counter' | 'order';
  name: string;
  token: string;
  status: 'active' | 'disabled';
  order_no: string | null;
  amount: string | null;
  items: ScanItem[] | null;
  hotel_stay: HotelStay | null;
  remark: string;
  expires_at: Date | string | null;
  request_status: ScanRequestStatus | null;
  created_at: Date | string;
};

const codeSelect = sql`
  select c.id, c.client_id, c.store_id, s.name as store_name, c.kind, c.name, c.token, c.status, c.order_no,
    c.amount, c.items, c.hotel_stay, c.remark, c.expires_at, c.created_at,
    (select r.status from scan_requests r where r.code_id = c.id and c.kind = 'order'
      order by (r.status <> 'rejected') desc, r.id desc limit 1) as request_status
  from scan_codes c join client_stores s on s.id = c.store_id`;

/** The store's own static code unless it has one (one per store: scan_codes_store_uq). */
export async function insertStoreCode(db: DbOrTx, clientId: number, storeId: number, token: string) {
  await db.execute(sql`
    insert into scan_codes (client_id, store_id, kind, name, token)
    select ${clientId}, ${storeId}, 'store', '', ${token}
    where exists (select 1 from client_stores where id = ${storeId} and client_id = ${clientId})
    on conflict (client_id, store_id) where kind = 'store' do nothing`);
}

/** A page of a store's static (store and counter) or order codes, with the count of all of them. */
export async function selectCodes(
  db: DbOrTx,
  a: { clientId: number; storeId: number },
  q: { kind: 'static' | 'order'; keyword: string; limit: number; offset: number },
): Promise<{ list: CodeRow[]; total: number }> {
  const where = sql`c.client_id = ${a.clientId} and c.store_id = ${a.storeId}
    and ${q.kind === 'static' ? sql`c.kind in ('store', 'counter')` : sql`c.kind = 'order'`}
    ${q.keyword ? sql`and (c.order_no ilike ${`%${q.keyword}%`} or c.name ilike ${`%${q.keyword}%`})` : sql``}`;
  const list = await db.execute<CodeRow>(sql`${codeSelect} where ${where}
    order by (c.kind = 'store') desc, c.status, c.id desc
    limit ${q.limit} offset ${q.offset}`);
  const count = await db.execute<{ n: string }>(sql`select count(*) as n from scan_codes c where ${where}`);
  // Stryker disable next-line OptionalChaining: count(*) always answers one row
  return { list: list.rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function selectCode(db: DbOrTx, clientId: number, id: number): Promise<CodeRow | undefined> {
  const res = await db.execute<CodeRow>(sql`${codeSelect} where c.id = ${id} and c.client_id = ${clientId}`);
  return res.rows[0];
}

export async function insertCounterCode(
  db: DbOrTx,
  a: { clientId: number; storeId: number; userId: number | null },
  name: string,
  token: string,
): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`
    insert into scan_codes (client_id, store_id, kind, name, token, created_by)
    values (${a.clientId}, ${a.storeId}, 'counter', ${name}, ${token}, ${a.userId}) returning id`);
  return res.rows[0]!.id;
}

/** The business's tax code and taxpayer type, as the issuing checks read them. */
export async function selectSellerFacts(
  db: DbOrTx,
  clientId: number,
): Promise<Pick<RawRow<typeof clients>, 'tax_code' | 'taxpayer_type'> | undefined> {
  const res = await db.execute<Pick<RawRow<typeof clients>, 'tax_code' | 'taxpayer_type'>>(
    sql`select tax_code, taxpayer_type from clients where id = ${clientId}`,
  );
  return res.rows[0];
}

/** A new order code valid for `minutes` from now; undefined when the order number is taken. */
export async function insertOrderCode(
  db: DbOrTx,
  a: { clientId: number; storeId: number; userId: number | null },
  o: {
    token: string;
    orderNo: string;
    amount: string;
    items: ScanItem[];
    hotelStay: HotelStay | undefined;
    remark: string;
    minutes: number;
  },
): Promise<number | undefined> {
  const res = await db.execute<{ id: number }>(sql`
    insert into scan_codes (client_id, store_id, kind, name, token, order_no, amount, items, hotel_stay,
      remark, expires_at, created_by)
    values (${a.clientId}, ${a.storeId}, 'order', '', ${o.token}, ${o.orderNo}, ${o.amount},
      ${JSON.stringify(o.items)}::jsonb, ${o.hotelStay ? JSON.stringify(o.hotelStay) : null}::jsonb,
      ${o.remark}, now() + make_interval(mins => ${o.minutes}), ${a.userId})
    on conflict (client_id, order_no) where order_no is not null do nothing
    returning id`);
  return res.rows[0]?.id;
}

export async function disableCodeRow(db: DbOrTx, clientId: number, id: number): Promise<void> {
  await db.execute(
    sql`update scan_codes set status = 'disabled' where id = ${id} and client_id = ${clientId}`,
  );
}

// ------------------------------------------------------------------------------ public: buyer

export type PublicCodeRow = CodeRow & {
  seller_name: string;
  paused: boolean;
  expired: boolean;
  request_token: string | null;
};

/** A code by its token, with the seller's name and whether it is paused or expired now. */
export async function selectCodeByToken(db: DbOrTx, token: string): Promise<PublicCodeRow | undefined> {
  const res = await db.execute<PublicCodeRow>(sql`
    select c.id, c.client_id, c.store_id, s.name as store_name, c.kind, c.name, c.token, c.status, c.order_no,
      c.amount, c.items, c.hotel_stay, c.remark, c.expires_at, c.created_at, null as request_status,
      k.name as seller_name,
      coalesce(o.bookkeeping_expires_at < now(), false) as paused,
      coalesce(c.expires_at < now(), false) as expired,
      (select r.token from scan_requests r where r.code_id = c.id and c.kind = 'order' and r.status <> 'rejected'
        limit 1) as request_token
    from scan_codes c
    join client_stores s on s.id = c.store_id
    join clients k on k.id = c.client_id
    join orgs o on o.id = k.org_id
    where c.token = ${token}`);
  return res.rows[0];
}

export type NewRequest = {
  code: Pick<PublicCodeRow, 'id' | 'client_id' | 'store_id' | 'kind' | 'order_no'>;
  token: string;
  /** the buyer's submit (publicSubmitBodySchema) */
  buyer: Omit<z.output<typeof publicSubmitBodySchema>, 'token' | 'amount'>;
  amount: string | null;
  /** JSON text or null */
  items: string | null;
  /** JSON text or null */
  hotelStay: string | null;
  ip: string;
};

/** A pending request; undefined when the order already has a live one (scan_requests_order_uq). */
export async function insertRequest(
  db: DbOrTx,
  n: NewRequest,
): Promise<{ id: number; token: string } | undefined> {
  const { code: c, buyer: b } = n;
  const res = await db.execute<{ id: number; token: string }>(sql`
    insert into scan_requests (client_id, store_id, code_id, code_kind, order_no, token, status, title_type,
      buyer_name, buyer_tax_code, buyer_address, buyer_phone, buyer_bank_name, buyer_bank_account, email, mobile,
      buyer_remark, amount, items, hotel_stay, submit_ip)
    values (${c.client_id}, ${c.store_id}, ${c.id}, ${c.kind}, ${c.order_no}, ${n.token}, 'pending',
      ${b.title_type}, ${b.name}, ${b.tax_code}, ${b.address}, ${b.phone}, ${b.bank_name},
      ${b.bank_account}, ${b.email}, ${b.mobile}, ${b.remark}, ${n.amount},
      ${n.items}::jsonb, ${n.hotelStay}::jsonb, ${n.ip})
    on conflict (code_id, client_id) where code_kind = 'order' and status <> 'rejected' do nothing
    returning id, token`);
  return res.rows[0];
}

/** The status token of a code's live (not rejected) request. */
export async function selectLiveRequestToken(
  db: DbOrTx,
  codeId: number,
): Promise<{ token: string } | undefined> {
  const res = await db.execute<{ token: string }>(
    sql`select token from scan_requests where code_id = ${codeId} and status <> 'rejected' limit 1`,
  );
  return res.rows[0];
}

export async function selectRequestStatus(
  db: DbOrTx,
  id: number,
): Promise<{ status: ScanRequestStatus } | undefined> {
  const res = await db.execute<{ status: ScanRequestStatus }>(
    sql`select status from scan_requests where id = ${id}`,
  );
  return res.rows[0];
}

/** The request's columns, its business and store names, and its invoice's (left-joined: null before issuing). */
export type PublicRequestRow = Pick<
  RawRow<typeof scanRequests>,
  | 'id'
  | 'client_id'
  | 'title_type'
  | 'buyer_name'
  | 'buyer_tax_code'
  | 'email'
  | 'mobile'
  | 'order_no'
  | 'reject_reason'
  | 'created_at'
> & { status: ScanRequestStatus; seller_name: string; store_name: string } & LeftJoined<
    Pick<RawRow<typeof invoices>, 'invoice_type' | 'invoice_no' | 'issued_at' | 'total_with_tax'> &
      Prefixed<'invoice_', Pick<RawRow<typeof invoices>, 'id' | 'status'>>
  >;

/** A request by its status token, with its invoice once issuing has begun. */
export async function selectRequestByToken(db: DbOrTx, token: string): Promise<PublicRequestRow | undefined> {
  const res = await db.execute<PublicRequestRow>(sql`
    select r.id, r.client_id, r.status, k.name as seller_name, s.name as store_name, r.title_type, r.buyer_name,
      r.buyer_tax_code, r.email, r.mobile, r.order_no, r.reject_reason, r.created_at,
      i.id as invoice_id, i.invoice_type, i.status as invoice_status, i.invoice_no, i.issued_at,
      i.total_with_tax
    from scan_requests r
    join clients k on k.id = r.client_id
    join client_stores s on s.id = r.store_id
    left join invoices i on i.client_id = r.client_id and i.serial_no = r.serial_no
      and r.status in ('issuing', 'issued', 'failed')
    where r.token = ${token}`);
  return res.rows[0];
}

/** Registered businesses (name, tax code) by tax-code prefix or by a part of the name. */
export async function selectTitles(db: DbOrTx, match: { taxCodePrefix: string } | { namePart: string }) {
  const res = await db.execute<{ name: string; tax_code: string }>(sql`select name, tax_code from clients
    where ${
      'taxCodePrefix' in match
        ? sql`tax_code like ${`${match.taxCodePrefix}%`}`
        : sql`name ilike ${`%${match.namePart.replace(/[%_\\]/g, '')}%`}`
    }
    order by length(name), name limit 8`);
  return res.rows;
}
