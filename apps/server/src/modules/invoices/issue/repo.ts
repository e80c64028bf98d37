import { qrRuleFor } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { IssuedSql } from '../../../channels/in-database.ts';
import type { DbOrTx } from '../../../channels/numbers.ts';
import type { Db } from '../../../db/client.ts';
import type { RawRow } from '../../../db/rows.ts';
import type { clients, invoices } from '../../../db/schema/index.ts';
import { executePrepared } from '../../../lib/prepared.ts';
import type { IssueContext, NewInvoice } from '../repo.ts';
import { eligibleSql, storeMayUseDeviceSql } from './eligibility-sql.ts';

/**
 * The 票面 QR text in SQL over the channel's CTE `issued`, recorded in the statement that allocates the
 * number; `amounts` are the invoice's own columns. The rule is the shared one (`qrRuleFor`, as
 * `invoiceQrText` applies it); `kp_invoice_qr` (migration 0017) only formats and adds the CRC.
 * 数电纸票 (85/86) are not issued through this statement (no channel allocates paper numbers).
 */
export function issuedQrSql(
  invoiceType: string,
  amounts: { totalAmount: SQL; totalWithTax: SQL },
  /** the rule's type code per row (a statement of several kinds of one form); the kind's own by default */
  typeCode?: SQL,
): SQL {
  const rule = qrRuleFor(invoiceType);
  if (!rule || rule.form === 'digital-paper') throw new Error(`发票类型 ${invoiceType} 没有票面二维码规则`);
  const code = typeCode ?? sql`${rule.typeCode}`;
  return rule.form === 'digital'
    ? sql`kp_invoice_qr(${code}, '', issued.invoice_no, ${amounts.totalWithTax}, issued.issued_at, '', '')`
    : sql`kp_invoice_qr(${code}, issued.invoice_code, issued.invoice_no, ${amounts.totalAmount},
        issued.issued_at, issued.check_code, ',')`;
}

/**
 * The invoices of a request as one JSON parameter, one object per invoice with its lines inside:
 * the statements below read it back with `requestRows`, so their text does not depend on the
 * number of invoices or lines (one prepared statement each).
 */
function requestJson(items: NewInvoice[]): string {
  return JSON.stringify(
    items.map((n, i) => {
      const { req } = n;
      const b = req.buyer;
      const info = req.invoice_info;
      return {
        ord: i + 1,
        req_client_id: n.clientId,
        device_id: n.deviceId,
        qr_type_code: qrRuleFor(req.invoice_type)?.typeCode ?? null,
        store_id: n.storeId,
        serial_no: n.serialNo,
        request_hash: n.requestHash,
        invoice_type: req.invoice_type,
        buyer_title_type: b.title_type,
        buyer_name: b.name,
        buyer_tax_code: b.tax_code,
        buyer_address: b.address,
        buyer_phone: b.phone,
        buyer_bank_name: b.bank_name,
        buyer_bank_account: b.bank_account,
        buyer_email: b.email,
        buyer_mobile: b.mobile,
        price_includes_tax: info.price_includes_tax,
        total_amount: info.total_amount,
        total_tax: info.total_tax,
        total_with_tax: info.total_price_with_tax,
        remark: info.remark,
        drawer: info.drawer,
        payee: info.payee,
        reviewer: info.reviewer,
        specific_business_code: info.specific_business_code ?? null,
        specific_business: n.specificBusiness,
        created_by: n.userId,
        // the `created` event's detail (reconciliation reads `send_email` from it)
        created_detail: { status: 'issuing', serial_no: n.serialNo, send_email: req.send_email },
        lines: n.lines.map((l) => ({
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
      };
    }),
  );
}

/** The rows of `requestJson`, as a FROM item aliased `r`. */
const requestRows = (items: NewInvoice[]) => sql`
  jsonb_to_recordset(${requestJson(items)}::jsonb) as r(
    ord int, req_client_id int, device_id int, qr_type_code text, store_id int, serial_no text, request_hash text, invoice_type text, buyer_title_type smallint,
    buyer_name text, buyer_tax_code text, buyer_address text, buyer_phone text, buyer_bank_name text,
    buyer_bank_account text, buyer_email text, buyer_mobile text, price_includes_tax boolean,
    total_amount numeric, total_tax numeric, total_with_tax numeric, remark text, drawer text, payee text,
    reviewer text, specific_business_code text, specific_business jsonb, created_by int, created_detail jsonb,
    lines jsonb)`;

/**
 * `insert into invoices … select … from <from>`: `from` provides `r` (requestRows) and the seller
 * (client_id, seller_name … seller_bank_account) as `seller`, an alias. With `qr` (the 票面 QR over the
 * channel's CTE `issued`, which `from` must then provide) the invoice is inserted issued;
 * otherwise it starts `issuing`.
 */
function invoicesInsert(from: SQL, seller: 's' | 'r', qr: SQL | null): SQL {
  const s = sql.raw(seller);
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
      ${s}.client_id, r.store_id, r.device_id, r.serial_no, r.request_hash, 'online', r.invoice_type, 'blue',
      r.buyer_title_type, r.buyer_name, r.buyer_tax_code, r.buyer_address, r.buyer_phone, r.buyer_bank_name,
      r.buyer_bank_account, r.buyer_email, r.buyer_mobile,
      ${s}.seller_name, ${s}.seller_tax_code, ${s}.seller_address, ${s}.seller_phone, ${s}.seller_bank_name,
      ${s}.seller_bank_account,
      r.price_includes_tax, r.total_amount, r.total_tax, r.total_with_tax, r.remark, r.drawer, r.payee, r.reviewer,
      r.specific_business_code, r.specific_business, r.created_by,
      ${
        qr
          ? sql`'issued', issued.invoice_code, issued.invoice_no, issued.check_code, issued.issued_at, ${qr}`
          : sql`'issuing', '', null, '', null, ''`
      }
    from ${from}
    order by r.ord`;
}

/** `insert into invoice_lines` from `from`, which provides `inv` (id, client_id) and `r` (its request). */
const linesInsert = (from: SQL) => sql`
  insert into invoice_lines (
    invoice_id, line_no, client_id, line_kind, goods_id, tax_class_code, short_name, item_name, full_name,
    spec, unit, quantity, unit_price, unit_price_with_tax, amount, tax_rate, tax_amount, amount_with_tax,
    preferential_code, zero_rate_flag)
  select inv.id, l.line_no, inv.client_id, l.line_kind, l.goods_id, l.tax_class_code, l.short_name,
    l.item_name, l.full_name, l.spec, l.unit, l.quantity, l.unit_price, l.unit_price_with_tax, l.amount,
    l.tax_rate, l.tax_amount, l.amount_with_tax, l.preferential_code, l.zero_rate_flag
  from ${from}, jsonb_to_recordset(r.lines) as l(
    line_no int, line_kind smallint, goods_id int, tax_class_code text, short_name text, item_name text,
    full_name text, spec text, unit text, quantity numeric, unit_price numeric, unit_price_with_tax numeric,
    amount numeric, tax_rate numeric, tax_amount numeric, amount_with_tax numeric, preferential_code text,
    zero_rate_flag text)`;

/** The seller's columns of the business row `c`. */
const SELLER = sql.raw(`c.id as client_id, c.name as seller_name, c.tax_code as seller_tax_code,
  c.address as seller_address, c.phone as seller_phone, c.bank_name as seller_bank_name,
  c.bank_account as seller_bank_account`);

/**
 * One round trip: reads the business (seller), the device with its binding, quota and stock and
 * the serial's invoice, and — when the serial is new and the device may issue this invoice —
 * inserts the invoice (status issuing, the seller from the business row), its lines and the
 * `created` event. `new_id` tells whether it did; otherwise the context says why (eligibility.ts
 * names the refusal from the context). Null when the business does not exist.
 */
export async function insertIssuing(db: Db, n: NewInvoice): Promise<IssueContext | null> {
  const { req } = n;
  const res = await executePrepared<IssueContext>(
    db,
    sql`
    with cfg as (select set_config('synchronous_commit', ${n.asyncCommit ? 'off' : 'on'}, true) as v),
    req as (select * from ${requestRows([n])}),
    ctx as (
      select ${SELLER}, c.taxpayer_type,
        d.id as device_id, d.status as device_status, d.online, d.locked, d.invoice_types,
        d.per_invoice_limit, d.monthly_quota,
        case when d.quota_month = ${n.month} then d.quota_used else 0 end as quota_used,
        ${storeMayUseDeviceSql(sql`d.id`, sql`${n.storeId}::int`)} as bound,
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
      -- the device rule (eligibility.ts), the same the service names a refusal by
      where inv_id is null and ${eligibleSql({ invoiceType: req.invoice_type, amount: req.invoice_info.total_amount })}
    ), inv as (
      ${invoicesInsert(sql`ok s, req r`, 's', null)}
      on conflict (client_id, serial_no) do nothing
      returning id, client_id
    ), lines as (
      ${linesInsert(sql`inv, req r`)}
    ), ev as (
      insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
      select inv.id, inv.client_id, 'created', r.created_by, r.created_detail from inv, req r
    )
    select ctx.*, (select id from inv) as new_id from ctx`,
  );
  return res.rows[0] ?? null;
}

/**
 * The SQL with which an in-database channel issues new 数电 invoices — of any businesses, devices
 * and 数电 kinds — in one statement (InDatabaseChannel.issueAtOnce), or one invoice of an older kind:
 * the guard yields each invoice whose serial is new in its business and whose store may use its
 * device (the channel checks the device itself); the CTEs insert the invoices already issued, their
 * lines and their `created` and `issued` events.
 */
export function issueAtOnceSql(items: NewInvoice[]): IssuedSql {
  const first = items[0]!;
  const form = (n: NewInvoice) => qrRuleFor(n.req.invoice_type)?.form;
  if (items.some((n) => form(n) !== form(first)))
    throw new Error('one statement issues kinds of one QR form');
  const qr = issuedQrSql(
    first.req.invoice_type,
    { totalAmount: sql`r.total_amount`, totalWithTax: sql`r.total_with_tax` },
    sql`r.qr_type_code`,
  );
  const mine = sql`r.client_id = issued.client_id and r.serial_no = issued.serial_no`;
  return {
    guard: sql`
      select r.*, ${SELLER}
      from ${requestRows(items)}
      -- the business by its key, per request row: the generic plan guesses 100 request rows and
      -- would otherwise hash every business of the database (LIMIT keeps the subquery a lateral probe)
      join lateral (select * from clients c where c.id = r.req_client_id limit 1) c on true
      -- a subquery per row, not an anti-join: the planner guesses 100 request rows and would hash
      -- the whole invoices table for a generic plan of this prepared statement
      where (select i.id from invoices i where i.client_id = c.id and i.serial_no = r.serial_no) is null
        and ${storeMayUseDeviceSql(sql`r.device_id`, sql`r.store_id`)}`,
    ctes: sql`
      recorded as (
        ${invoicesInsert(sql`guard r join issued on ${mine}`, 'r', qr)}
        returning id, client_id, serial_no, invoice_code, invoice_no
      ), at_once_lines as (
        ${linesInsert(sql`recorded inv join guard r on r.client_id = inv.client_id and r.serial_no = inv.serial_no`)}
      ), at_once_events as (
        insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
        select inv.id, inv.client_id, k.kind, r.created_by,
          case when k.kind = 'created' then r.created_detail
            else jsonb_build_object('invoice_code', inv.invoice_code, 'invoice_no', inv.invoice_no) end
        from recorded inv join guard r on r.client_id = inv.client_id and r.serial_no = inv.serial_no,
          (values (1, 'created'), (2, 'issued')) as k(o, kind)
        order by r.ord, k.o
      )`,
  };
}

/** The seller facts validation needs (tax code, taxpayer type); null when the business does not exist. */
export async function sellerRow(db: Db, clientId: number) {
  const res = await db.execute<Pick<RawRow<typeof clients>, 'tax_code' | 'taxpayer_type'>>(
    sql`select tax_code, taxpayer_type from clients where id = ${clientId}`,
  );
  return res.rows[0] ?? null;
}

/** The columns that go with a status move: the number of an issued invoice, or the error fields. */
export type MoveFields = {
  /** set the error fields (a failure, an unknown outcome); null clears them */
  error?: { code: string; message: string } | null;
  /** the number, check code, time and 票面 QR of an issued invoice (clears the error fields) */
  issued?: { invoiceCode: string; invoiceNo: string; checkCode: string; issuedAt: Date; qr: string };
};

/** The status move of transitions.ts, with its event, in one statement; false when nothing moved. */
export async function moveStatus(
  db: DbOrTx,
  q: MoveFields & {
    id: number;
    from: readonly string[];
    to: string;
    event: string;
    userId: number | null;
    detail: Record<string, unknown>;
  },
): Promise<boolean> {
  const from = sql.join(
    q.from.map((s) => sql`${s}`),
    sql`, `,
  );
  const n = q.issued;
  const fields: SQL[] = [sql`status = ${q.to}`];
  if (n) {
    fields.push(sql`invoice_code = ${n.invoiceCode}, invoice_no = ${n.invoiceNo}, check_code = ${n.checkCode},
      issued_at = ${n.issuedAt.toISOString()}, qr_string = ${n.qr}, error_code = null, error_message = null`);
  } else if (q.error === null) {
    fields.push(sql`error_code = null, error_message = null`);
  } else if (q.error) {
    fields.push(sql`error_code = ${q.error.code}, error_message = ${q.error.message}`);
  }
  const res = await db.execute(sql`
    with u as (
      update invoices set ${sql.join(fields, sql`, `)}, updated_at = now()
      where id = ${q.id} and status in (${from})
      returning id, client_id
    )
    insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
    select id, client_id, ${q.event}, ${q.userId}, ${JSON.stringify(q.detail)}::jsonb from u`);
  return (res.rowCount ?? 0) > 0;
}

/**
 * The in-database strategy's SQL (channels/in-database.ts IssuedSql) recording the issue of the
 * `issuing` invoice `c.id` in the channel's allocating statement.
 */
export function recordIssuedSql(c: {
  id: number;
  userId: number | null;
  invoiceType: string;
  totalAmount: string;
}): IssuedSql {
  return {
    guard: sql`
      select id, client_id, serial_no from invoices
      where id = ${c.id} and status = 'issuing' for update`,
    ctes: sql`
      recorded as (
        update invoices i set status = 'issued', invoice_code = issued.invoice_code,
          invoice_no = issued.invoice_no, check_code = issued.check_code, issued_at = issued.issued_at,
          qr_string = ${issuedQrSql(c.invoiceType, { totalAmount: sql`i.total_amount`, totalWithTax: sql`i.total_with_tax` })},
          error_code = null, error_message = null, updated_at = now()
        from issued
        where i.id = ${c.id} and i.status = 'issuing'
        returning i.id, i.serial_no, i.client_id, issued.invoice_code, issued.invoice_no
      ),
      issued_event as (
        insert into invoice_events (invoice_id, client_id, kind, user_id, detail)
        select id, client_id, 'issued', ${c.userId}::int,
          jsonb_build_object('invoice_code', invoice_code, 'invoice_no', invoice_no)
        from recorded
      )`,
  };
}

export type UnsettledRow = Pick<
  RawRow<typeof invoices>,
  'id' | 'client_id' | 'serial_no' | 'status' | 'invoice_type' | 'total_amount' | 'total_with_tax'
>;

/** Invoices whose outcome is not known: `unknown`, or `issuing` untouched for `staleMs`. */
export async function unsettledInvoices(
  db: Db,
  q: { staleMs: number; clientId?: number; storeIds: number[] | null; serialNo?: string; limit: number },
): Promise<UnsettledRow[]> {
  const res = await db.execute<UnsettledRow>(sql`
    select id, client_id, serial_no, status, invoice_type, total_amount, total_with_tax
    from invoices
    where (status = 'unknown' or (status = 'issuing' and updated_at < now() - make_interval(secs => ${q.staleMs / 1000})))
      ${q.clientId !== undefined ? sql`and client_id = ${q.clientId}` : sql``}
      ${q.storeIds ? sql`and store_id = any(${`{${q.storeIds.join(',')}}`}::int[])` : sql``}
      ${q.serialNo ? sql`and serial_no = ${q.serialNo}` : sql``}
    order by id
    limit ${q.limit}`);
  return res.rows;
}

/** Whether the request that made the invoice asked for e-mail delivery (and there is an address). */
export async function wantsEmail(db: Db, invoiceId: number): Promise<boolean> {
  const res = await db.execute<{ send: boolean }>(sql`
    select coalesce((e.detail ->> 'send_email')::boolean, false) and i.buyer_email <> '' as send
    from invoices i
    join lateral (
      select detail from invoice_events
      where invoice_id = i.id and kind in ('created', 'issuing') and detail ? 'send_email'
      order by id desc limit 1
    ) e on true
    where i.id = ${invoiceId}`);
  return res.rows[0]?.send ?? false;
}
