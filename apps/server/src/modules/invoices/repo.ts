import { createHash } from 'node:crypto';
import type { BlueInvoiceRequest, IssueResult } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { IssuedSql } from '../../channels/types.ts';
import type { Db } from '../../db/client.ts';
import { executePrepared } from '../../lib/prepared.ts';
import type { StoredLine } from './validate.ts';

/** JSON with object keys sorted, so equal payloads hash equally whatever the key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * sha256 of the canonical request (architecture.md §5): the parsed payload (defaults applied,
 * strings trimmed), without `send_email`, which decides delivery but not the invoice.
 */
export function requestHash(req: BlueInvoiceRequest): string {
  const { send_email: _ignored, ...rest } = req;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

export type InvoiceResultRow = {
  id: number | string;
  serial_no: string;
  status: IssueResult['status'];
  invoice_type: string;
  invoice_code: string;
  invoice_no: string | null;
  issued_at: Date | string | null;
  total_with_tax: string;
  error_message: string | null;
};

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
export type IssueContext = {
  seller_name: string;
  seller_tax_code: string;
  seller_address: string;
  seller_phone: string;
  seller_bank_name: string;
  seller_bank_account: string;
  taxpayer_type: string;
  device_id: number | null;
  device_status: string | null;
  online: boolean | null;
  locked: boolean | null;
  invoice_types: string[] | null;
  per_invoice_limit: string | null;
  monthly_quota: string | null;
  quota_used: string | null;
  bound: boolean;
  stock: number | string;
  inv_id: number | string | null;
  inv_hash: string | null;
  inv_status: IssueResult['status'] | null;
  /** the invoice this statement inserted, if it did */
  new_id: number | string | null;
};

export async function findResult(
  db: DbOrTx,
  q: { clientId: number; serialNo?: string; id?: number },
): Promise<(InvoiceResultRow & { request_hash: string; store_id: number }) | null> {
  const where = q.id !== undefined ? sql`i.id = ${q.id}` : sql`i.serial_no = ${q.serialNo ?? ''}`;
  const res = await db.execute<InvoiceResultRow & { request_hash: string; store_id: number }>(sql`
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
  /** commit without waiting for the WAL flush (the channel flushes before reporting an issue) */
  asyncCommit: boolean;
};

/** The invoice's stored lines as one JSON parameter, read back by `linesInsert`. */
function linesJson(n: NewInvoice): string {
  return JSON.stringify(
    n.lines.map((l) => ({
      line_no: l.lineNo,
      line_kind: l.lineKind,
      goods_id: l.goodsId,
      tax_class_code: l.taxClassCode,
      short_name: l.shortName,
      item_name: l.itemName,
      full_name: l.fullName,
      spec: l.spec,
      unit: l.unit,
      quantity: l.quantity,
      unit_price: l.unitPrice,
      unit_price_with_tax: l.unitPriceWithTax,
      amount: l.amount,
      tax_rate: l.taxRate,
      tax_amount: l.taxAmount,
      amount_with_tax: l.amountWithTax,
      preferential_code: l.preferentialCode,
      zero_rate_flag: l.zeroRateFlag,
    })),
  );
}

/**
 * `insert into invoices … select … from <src>`: the request's invoice, the seller taken from the
 * CTE `src` (columns seller_name … seller_bank_account, client_id). `issued` adds the number
 * columns from the channel's CTE `issued` and the 票面 QR; otherwise the row starts `issuing`.
 */
function invoiceInsert(n: NewInvoice, src: SQL, issued: SQL | null): SQL {
  const { req } = n;
  const b = req.buyer;
  const info = req.invoice_info;
  return sql`
    insert into invoices (
      client_id, store_id, device_id, serial_no, request_hash, source, invoice_type, direction,
      buyer_title_type, buyer_name, buyer_tax_code, buyer_address, buyer_phone, buyer_bank_name,
      buyer_bank_account, buyer_email, buyer_mobile,
      seller_name, seller_tax_code, seller_address, seller_phone, seller_bank_name, seller_bank_account,
      price_includes_tax, total_amount, total_tax, total_with_tax, remark, drawer, payee, reviewer,
      specific_business_code, specific_business, created_by,
      status, invoice_code, invoice_no, check_code, issued_at, qr_string)
    select
      src.client_id, ${n.storeId}, ${n.deviceId}, ${n.serialNo}, ${n.requestHash}, 'online', ${req.invoice_type},
      'blue',
      ${b.title_type}, ${b.name}, ${b.tax_code}, ${b.address}, ${b.phone}, ${b.bank_name},
      ${b.bank_account}, ${b.email}, ${b.mobile},
      src.seller_name, src.seller_tax_code, src.seller_address, src.seller_phone, src.seller_bank_name,
      src.seller_bank_account,
      ${info.price_includes_tax}, ${info.total_amount}, ${info.total_tax}, ${info.total_price_with_tax},
      ${info.remark}, ${info.drawer}, ${info.payee}, ${info.reviewer},
      ${info.specific_business_code},
      ${n.specificBusiness === null ? null : JSON.stringify(n.specificBusiness)}::jsonb,
      ${n.userId}::int,
      ${
        issued
          ? sql`'issued', issued.invoice_code, issued.invoice_no, issued.check_code, issued.issued_at, ${issued}`
          : sql`'issuing', '', null, '', null, ''`
      }
    from ${src} src${issued ? sql`, issued` : sql``}`;
}

/** `insert into invoice_lines` for the invoice returned (id, client_id) by the CTE `inv`. */
function linesInsert(n: NewInvoice, inv: SQL): SQL {
  return sql`
    insert into invoice_lines (
      invoice_id, line_no, client_id, line_kind, goods_id, tax_class_code, short_name, item_name, full_name,
      spec, unit, quantity, unit_price, unit_price_with_tax, amount, tax_rate, tax_amount, amount_with_tax,
      preferential_code, zero_rate_flag)
    select inv.id, l.line_no, inv.client_id, l.line_kind, l.goods_id, l.tax_class_code, l.short_name,
      l.item_name, l.full_name, l.spec, l.unit, l.quantity, l.unit_price, l.unit_price_with_tax, l.amount,
      l.tax_rate, l.tax_amount, l.amount_with_tax, l.preferential_code, l.zero_rate_flag
    from ${inv} inv, jsonb_to_recordset(${linesJson(n)}::jsonb) as l(
      line_no int, line_kind smallint, goods_id int, tax_class_code text, short_name text, item_name text,
      full_name text, spec text, unit text, quantity numeric, unit_price numeric, unit_price_with_tax numeric,
      amount numeric, tax_rate numeric, tax_amount numeric, amount_with_tax numeric, preferential_code text,
      zero_rate_flag text)`;
}

/** The `created` event's detail (also what reconciliation reads `send_email` from). */
const createdDetail = (n: NewInvoice) =>
  JSON.stringify({ status: 'issuing', serial_no: n.serialNo, send_email: n.req.send_email });

/** Whether the store may issue through the device: bound to it, or granted while it is hosted. */
const boundSql = (deviceId: SQL, storeId: number) => sql`
  (exists (select 1 from device_stores ds where ds.device_id = ${deviceId} and ds.store_id = ${storeId})
    -- or a store granted hosted issuing (trusteeship module; rows exist only while hosted)
    or exists (select 1 from trusteeship_grants tg where tg.device_id = ${deviceId} and tg.store_id = ${storeId}))`;

/**
 * One round trip: reads the business (seller), the device with its binding, quota and stock and
 * the serial's invoice, and — when the serial is new and the device may issue this invoice —
 * inserts the invoice (status issuing, the seller from the business row), its lines and the
 * `created` event. `new_id` tells whether it did; otherwise the context says why (device checks
 * are repeated in the service to name the refusal). Null when the business does not exist.
 */
export async function insertIssuing(db: Db, n: NewInvoice): Promise<IssueContext | null> {
  const { req } = n;
  const amount = req.invoice_info.total_amount;
  const res = await executePrepared<IssueContext>(
    db,
    sql`
    with cfg as (select set_config('synchronous_commit', ${n.asyncCommit ? 'off' : 'on'}, true) as v),
    ctx as (
      select c.id as client_id, c.name as seller_name, c.tax_code as seller_tax_code,
        c.address as seller_address, c.phone as seller_phone, c.bank_name as seller_bank_name,
        c.bank_account as seller_bank_account, c.taxpayer_type,
        d.id as device_id, d.status as device_status, d.online, d.locked, d.invoice_types,
        d.per_invoice_limit, d.monthly_quota,
        case when d.quota_month = ${n.month} then d.quota_used else 0 end as quota_used,
        ${boundSql(sql`d.id`, n.storeId)} as bound,
        (select coalesce(sum(r.end_no - r.next_no + 1), 0) from channel_number_ranges r
          where r.device_id = d.id and r.invoice_type = ${req.invoice_type} and r.next_no <= r.end_no) as stock,
        i.id as inv_id, i.request_hash as inv_hash, i.status as inv_status
      from clients c
      left join tax_devices d on d.id = ${n.deviceId} and d.client_id = c.id
      left join invoices i on i.client_id = c.id and i.serial_no = ${n.serialNo}
      cross join cfg
      where c.id = ${n.clientId}
    ), ok as (
      select * from ctx
      where inv_id is null and device_id is not null and bound and ${req.invoice_type} = any(invoice_types)
        and device_status = 'active' and online and not locked
        and per_invoice_limit >= ${amount}::numeric
        and (monthly_quota is null or quota_used + ${amount}::numeric <= monthly_quota)
        and (${n.digital} or stock > 0)
    ), inv as (
      ${invoiceInsert(n, sql`ok`, null)}
      on conflict (client_id, serial_no) do nothing
      returning id, client_id
    ), lines as (
      ${linesInsert(n, sql`inv`)}
    ), ev as (
      insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
      select inv.id, inv.client_id, 'created', ${n.userId}::int, ${createdDetail(n)}::jsonb from inv
    )
    select ctx.*, (select id from inv) as new_id from ctx`,
  );
  return res.rows[0] ?? null;
}

/**
 * The SQL with which an in-database channel issues a new invoice in one statement
 * (TaxChannel.issueAtOnce): the guard passes while the serial is new and the store may use the
 * device (the channel checks the device itself); the CTEs insert the invoice already issued, its
 * lines and its `created` and `issued` events. `qr` is the 票面 QR expression over `issued`.
 */
export function issueAtOnceSql(n: NewInvoice, qr: SQL): IssuedSql {
  return {
    guard: sql`
      select c.id as client_id, c.name as seller_name, c.tax_code as seller_tax_code,
        c.address as seller_address, c.phone as seller_phone, c.bank_name as seller_bank_name,
        c.bank_account as seller_bank_account
      from clients c
      where c.id = ${n.clientId}
        and not exists (select 1 from invoices i where i.client_id = c.id and i.serial_no = ${n.serialNo})
        and ${boundSql(sql`${n.deviceId}::int`, n.storeId)}`,
    ctes: sql`
      recorded as (
        ${invoiceInsert(n, sql`guard`, qr)}
        returning id, client_id, invoice_code, invoice_no
      ), at_once_lines as (
        ${linesInsert(n, sql`recorded`)}
      ), at_once_events as (
        insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
        select r.id, r.client_id, k.kind, ${n.userId}::int,
          case when k.kind = 'created' then ${createdDetail(n)}::jsonb
            else jsonb_build_object('invoice_code', r.invoice_code, 'invoice_no', r.invoice_no) end
        from recorded r, (values (1, 'created'), (2, 'issued')) as k(o, kind)
        order by k.o
      )`,
  };
}

/**
 * Moves an invoice from one of `from` to a new status with its event, in one statement; false when
 * the invoice was no longer in one of `from` (another request or reconciliation got there first).
 */
export async function transition(
  db: DbOrTx,
  q: {
    id: number;
    from: readonly string[];
    set: SQL;
    event: string;
    userId: number | null;
    detail: Record<string, unknown>;
  },
): Promise<boolean> {
  const from = sql.join(
    q.from.map((s) => sql`${s}`),
    sql`, `,
  );
  const res = await db.execute(sql`
    with u as (
      update invoices set ${q.set}, updated_at = now()
      where id = ${q.id} and status in (${from})
      returning id, client_id
    )
    insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
    select id, client_id, ${q.event}, ${q.userId}, ${JSON.stringify(q.detail)}::jsonb from u`);
  return (res.rowCount ?? 0) > 0;
}
