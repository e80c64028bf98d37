import {
  dec,
  formatAmount,
  INVOICE_TYPES,
  RED_FORM_KINDS,
  RED_REASONS,
  RESERVING_RED_STATES,
  type RedForm,
  type RedLine,
  type RedReason,
  redStateClass,
  redStateName,
  TERMS,
} from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { LeftJoined, Prefixed, RawRow } from '../../db/rows.ts';
import type { invoices, redForms } from '../../db/schema/index.ts';
import { type StoreScope, storeRefused, storeSql } from '../../lib/scope.ts';
import { isoOf } from '../query/scope.ts';
import { type BlueLine, NOTHING_TAKEN, type Taken } from './lines.ts';

/** The business and the stores reached (lib/scope.ts): `storeIds` null = every store of the business. */
export type RedScope = StoreScope;

const storeCond = (alias: string, storeIds: readonly number[] | null): SQL =>
  sql` and ${storeSql(storeIds, sql.raw(`${alias}.store_id`))}`;

/** A row found within the business: another store's is refused (12003 无权限操作该门店), not hidden. */
function inScope<T extends { store_id: number | string }>(scope: RedScope, row: T | undefined): T | null {
  if (!row) return null;
  if (scope.storeIds !== null && !scope.storeIds.includes(Number(row.store_id))) throw storeRefused();
  return row;
}

const reserving = sql.raw(`(${RESERVING_RED_STATES.map((s) => `'${s}'`).join(', ')})`);

type InvoiceRaw = RawRow<typeof invoices>;

export type BlueRow = Pick<
  InvoiceRaw,
  | 'id'
  | 'client_id'
  | 'store_id'
  | 'device_id'
  | 'invoice_type'
  | 'direction'
  | 'status'
  | 'red_status'
  | 'invoice_code'
  | 'invoice_no'
  | 'issued_at'
  | 'total_amount'
  | 'total_tax'
  | 'total_with_tax'
  | 'buyer_name'
  | 'buyer_tax_code'
  | 'seller_name'
  | 'seller_tax_code'
>;

/** The blue invoice, locked for the rest of the transaction when `lock`; null outside the business, 12003 outside the stores. */
export async function findBlue(
  db: DbOrTx,
  scope: RedScope,
  invoiceId: number,
  // Stryker disable next-line BooleanLiteral: outside a transaction a FOR UPDATE lock ends with its statement; callers that need it pass true in one
  lock = false,
): Promise<BlueRow | null> {
  const res = await db.execute<BlueRow>(sql`
    select i.id, i.client_id, i.store_id, i.device_id, i.invoice_type, i.direction, i.status, i.red_status,
      i.invoice_code, i.invoice_no, i.issued_at, i.total_amount, i.total_tax, i.total_with_tax,
      i.buyer_name, i.buyer_tax_code, i.seller_name, i.seller_tax_code
    from invoices i
    where i.id = ${invoiceId} and i.client_id = ${scope.clientId}
    ${lock ? sql`for update` : sql``}`);
  return inScope(scope, res.rows[0]);
}

export async function blueLines(db: DbOrTx, clientId: number, invoiceId: number): Promise<BlueLine[]> {
  const res = await db.execute<BlueLine>(sql`
    select line_no, line_kind, tax_class_code, short_name, item_name, full_name, spec, unit, quantity,
      unit_price, unit_price_with_tax, amount, tax_rate, tax_amount, amount_with_tax, preferential_code,
      zero_rate_flag
    from invoice_lines where invoice_id = ${invoiceId} and client_id = ${clientId} order by line_no`);
  return res.rows.map((l) => ({ ...l, line_no: Number(l.line_no), line_kind: Number(l.line_kind) }));
}

/**
 * What each blue line has given up (positive figures): the lines of forms that still reserve
 * (not void), and red invoices made without a form (seeded history; their line numbers follow the
 * blue invoice's), while they are or may become issued.
 */
export async function takenByLine(db: DbOrTx, clientId: number, blueId: number): Promise<Map<number, Taken>> {
  const res = await db.execute<{ line_no: number; q: string; a: string; t: string; w: string }>(sql`
    select (l ->> 'blue_line_no')::int as line_no,
      sum(abs(coalesce((l ->> 'quantity')::numeric, 0))) as q, sum(abs((l ->> 'amount')::numeric)) as a,
      sum(abs((l ->> 'tax_amount')::numeric)) as t, sum(abs((l ->> 'amount_with_tax')::numeric)) as w
    from red_forms f, jsonb_array_elements(f.lines) l
    where f.client_id = ${clientId} and f.blue_invoice_id = ${blueId} and f.state in ${reserving}
    group by 1
    union all
    select il.line_no, sum(abs(coalesce(il.quantity, 0))), sum(abs(il.amount)), sum(abs(il.tax_amount)),
      sum(abs(il.amount_with_tax))
    from invoices r join invoice_lines il on il.invoice_id = r.id
    where r.client_id = ${clientId} and r.original_invoice_id = ${blueId} and r.direction = 'red'
      and r.red_form_id is null and r.status in ('issued', 'issuing', 'unknown')
    group by 1`);
  const out = new Map<number, Taken>();
  for (const r of res.rows) {
    const t = out.get(Number(r.line_no)) ?? NOTHING_TAKEN();
    out.set(Number(r.line_no), {
      quantity: t.quantity.plus(r.q),
      amount: t.amount.plus(r.a),
      tax: t.tax.plus(r.t),
      withTax: t.withTax.plus(r.w),
    });
  }
  return out;
}

/** Σ of red invoices of a blue invoice that are, or may become, issued (negative or 0). */
export async function redInvoiceSums(db: DbOrTx, clientId: number, blueId: number) {
  const res = await db.execute<{ consuming: string; issued: string }>(sql`
    select coalesce(sum(total_with_tax) filter (where status in ('issued', 'issuing', 'unknown')), 0) as consuming,
      coalesce(sum(total_with_tax) filter (where status = 'issued'), 0) as issued
    from invoices
    where client_id = ${clientId} and original_invoice_id = ${blueId} and direction = 'red'`);
  const r = res.rows[0]!;
  return { consuming: dec(r.consuming), issued: dec(r.issued) };
}

export async function pendingFormOf(db: DbOrTx, clientId: number, blueId: number): Promise<number | null> {
  const res = await db.execute<Pick<RawRow<typeof redForms>, 'id'>>(sql`
    select id from red_forms where client_id = ${clientId} and blue_invoice_id = ${blueId}
      and state in ('02', '03') limit 1`);
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

export async function hasReservingForm(db: DbOrTx, clientId: number, blueId: number): Promise<boolean> {
  const res = await db.execute(sql`
    select 1 from red_forms where client_id = ${clientId} and blue_invoice_id = ${blueId}
      and state in ${reserving} limit 1`);
  return res.rows.length > 0;
}

/**
 * Pending 确认单 past their 72 hours become 07 (query-time check; the red-info.expire job sweeps
 * the rest). `clientId` omitted = every business. Returns how many expired.
 */
export async function expirePending(db: DbOrTx, clientId?: number): Promise<number> {
  // Stryker disable next-line ConditionalExpression,StringLiteral: expiring other businesses' overdue forms too gives them the state their next read or the sweep gives
  const ofClient = clientId === undefined ? sql`` : sql`and client_id = ${clientId}`;
  const res = await db.execute(sql`
    update red_forms set state = '07', decided_at = expires_at, updated_at = now()
    where state in ('02', '03') and expires_at <= now() ${ofClient}`);
  return res.rowCount ?? 0;
}

export type NewForm = {
  clientId: number;
  storeId: number;
  deviceId: number;
  blueInvoiceId: number;
  kind: string;
  initiator: 'seller' | 'buyer';
  reason: RedReason;
  full: boolean;
  state: string;
  totals: { amount: string; tax: string; withTax: string };
  lines: RedLine[];
  remark: string;
  expiresInHours: number | null;
  createdBy: number | null;
  /** builds the form number from the new id */
  formNo: (id: number) => string;
};

export async function insertForm(tx: DbOrTx, f: NewForm): Promise<number> {
  const expiresAt =
    // Stryker disable next-line ConditionalExpression: make_interval(hours => null) is null too
    f.expiresInHours === null ? null : sql`now() + make_interval(hours => ${f.expiresInHours})`;
  const res = await tx.execute<Pick<RawRow<typeof redForms>, 'id'>>(sql`
    insert into red_forms (client_id, store_id, device_id, blue_invoice_id, kind, initiator, reason, "full",
      state, total_amount, total_tax, total_with_tax, lines, remark, expires_at, decided_at, created_by)
    values (${f.clientId}, ${f.storeId}, ${f.deviceId}, ${f.blueInvoiceId}, ${f.kind}, ${f.initiator},
      ${f.reason}, ${f.full}, ${f.state}, ${f.totals.amount}, ${f.totals.tax}, ${f.totals.withTax},
      ${JSON.stringify(f.lines)}::jsonb, ${f.remark},
      ${expiresAt},
      ${f.state === '01' || f.state === 'approved' ? sql`now()` : null}, ${f.createdBy}::int)
    returning id`);
  const id = Number(res.rows[0]!.id);
  await tx.execute(sql`update red_forms set form_no = ${f.formNo(id)} where id = ${id}`);
  return id;
}

/** `select f.*` of a form; its jsonb lines are red lines. */
export type FormRow = Omit<RawRow<typeof redForms>, 'lines'> & { lines: RedLine[] };

export async function lockForm(tx: DbOrTx, scope: RedScope, formId: number): Promise<FormRow | null> {
  const res = await tx.execute<FormRow>(sql`
    select f.* from red_forms f
    where f.id = ${formId} and f.client_id = ${scope.clientId}
    for update`);
  return inScope(scope, res.rows[0]);
}

/** Moves a form from one of `from` to `to`; false when it was no longer in one of them. */
export async function moveForm(
  tx: DbOrTx,
  formId: number,
  from: readonly string[],
  to: string,
): Promise<boolean> {
  const list = sql.join(
    from.map((s) => sql`${s}`),
    sql`, `,
  );
  const res = await tx.execute(sql`
    update red_forms set state = ${to}, decided_at = now(), updated_at = now()
    where id = ${formId} and state in (${list})`);
  return (res.rowCount ?? 0) > 0;
}

type ViewRow = FormRow &
  Prefixed<
    'b_',
    Pick<
      InvoiceRaw,
      | 'invoice_type'
      | 'invoice_code'
      | 'invoice_no'
      | 'issued_at'
      | 'status'
      | 'red_status'
      | 'total_amount'
      | 'total_tax'
      | 'total_with_tax'
      | 'buyer_name'
      | 'buyer_tax_code'
      | 'seller_name'
      | 'seller_tax_code'
    >
  > &
  LeftJoined<
    Prefixed<'r_', Pick<InvoiceRaw, 'invoice_code' | 'invoice_no' | 'status' | 'issued_at' | 'error_message'>>
  > & {
    created_by_name: string | null;
  };

const VIEW_SELECT = sql`
  select f.*, b.invoice_type as b_invoice_type, b.invoice_code as b_invoice_code, b.invoice_no as b_invoice_no,
    b.issued_at as b_issued_at, b.status as b_status, b.red_status as b_red_status,
    b.total_amount as b_total_amount, b.total_tax as b_total_tax, b.total_with_tax as b_total_with_tax,
    b.buyer_name as b_buyer_name, b.buyer_tax_code as b_buyer_tax_code, b.seller_name as b_seller_name,
    b.seller_tax_code as b_seller_tax_code,
    r.invoice_code as r_invoice_code, r.invoice_no as r_invoice_no, r.status as r_status,
    r.issued_at as r_issued_at, r.error_message as r_error_message,
    u.nickname as created_by_name
  from red_forms f
  join invoices b on b.id = f.blue_invoice_id
  left join invoices r on r.id = f.red_invoice_id
  left join users u on u.id = f.created_by`;

function toView(r: ViewRow): RedForm {
  const redOpen = r.red_invoice_id === null || r.r_status === 'failed';
  const kind = r.kind as RedForm['kind'];
  return {
    form_id: Number(r.id),
    kind,
    kind_name: RED_FORM_KINDS[kind],
    form_no: r.form_no,
    initiator: r.initiator === 'buyer' ? 'buyer' : 'seller',
    reason: r.reason as RedReason,
    reason_name: RED_REASONS[r.reason as RedReason] ?? r.reason,
    full: r.full,
    state: r.state,
    state_name: redStateName(r.kind, r.state),
    state_class: redStateClass(r.state),
    blue: {
      invoice_id: Number(r.blue_invoice_id),
      invoice_type: r.b_invoice_type,
      invoice_type_name: INVOICE_TYPES[r.b_invoice_type as keyof typeof INVOICE_TYPES] ?? r.b_invoice_type,
      invoice_code: r.b_invoice_code,
      invoice_no: r.b_invoice_no,
      issued_at: isoOf(r.b_issued_at),
      status: r.b_status,
      red_status: r.b_red_status,
      total_amount: formatAmount(r.b_total_amount),
      total_tax: formatAmount(r.b_total_tax),
      total_with_tax: formatAmount(r.b_total_with_tax),
      buyer_name: r.b_buyer_name,
      buyer_tax_code: r.b_buyer_tax_code,
      seller_name: r.b_seller_name,
      seller_tax_code: r.b_seller_tax_code,
    },
    total_amount: formatAmount(r.total_amount),
    total_tax: formatAmount(r.total_tax),
    total_with_tax: formatAmount(r.total_with_tax),
    lines: r.lines,
    remark: r.remark,
    red_invoice:
      r.red_invoice_id === null
        ? null
        : {
            invoice_id: Number(r.red_invoice_id),
            // Stryker disable next-line StringLiteral: invoices.invoice_code is NOT NULL ('' for 数电)
            invoice_code: r.r_invoice_code ?? '',
            invoice_no: r.r_invoice_no,
            // Stryker disable next-line StringLiteral: red_invoice_id always joins its invoice row (foreign key), so r_status is never null
            status: r.r_status ?? 'issuing',
            issued_at: isoOf(r.r_issued_at),
            error_message: r.r_error_message,
          },
    expires_at: r.state === '02' || r.state === '03' ? isoOf(r.expires_at) : null,
    decided_at: isoOf(r.decided_at),
    created_at: isoOf(r.created_at),
    created_by_name: r.created_by_name ?? (r.initiator === 'buyer' ? TERMS.buyer : '系统'),
    actions: {
      confirm: r.state === '03',
      reject: r.state === '03',
      revoke:
        (r.state === '02' && r.initiator === 'seller') ||
        (['01', '04', 'approved'].includes(r.state) && redOpen),
      issue: ['01', '04', 'approved'].includes(r.state) && redOpen,
    },
  };
}

export async function getFormView(db: DbOrTx, scope: RedScope, formId: number): Promise<RedForm | null> {
  const res = await db.execute<ViewRow>(sql`${VIEW_SELECT}
    where f.id = ${formId} and f.client_id = ${scope.clientId}`);
  const row = inScope(scope, res.rows[0]);
  return row ? toView(row) : null;
}

export async function listForms(
  db: DbOrTx,
  scope: RedScope,
  q: { page: number; page_size: number; kind?: string; state?: string; keyword?: string },
): Promise<{ list: Omit<RedForm, 'lines'>[]; total: number }> {
  const conds: SQL[] = [sql`f.client_id = ${scope.clientId}`];
  if (scope.storeIds !== null) conds.push(sql`true${storeCond('f', scope.storeIds)}`);
  if (q.kind) conds.push(sql`f.kind = ${q.kind}`);
  if (q.state === 'pending') conds.push(sql`f.state in ('02', '03', 'applying')`);
  else if (q.state === 'confirmed') conds.push(sql`f.state in ('01', '04', 'approved')`);
  else if (q.state === 'void')
    conds.push(sql`f.state in ('05', '06', '07', '08', '09', '10', 'rejected', 'revoked')`);
  else if (q.state) conds.push(sql`f.state = ${q.state}`);
  if (q.keyword) {
    const k = q.keyword;
    conds.push(sql`(f.form_no = ${k} or b.invoice_no = ${k} or r.invoice_no = ${k}
      or b.buyer_name like ${`%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`);
  }
  const where = sql.join(conds, sql` and `);
  const [rows, count] = await Promise.all([
    db.execute<ViewRow>(sql`${VIEW_SELECT} where ${where}
      order by f.created_at desc, f.id desc
      limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`),
    db.execute<{ n: number | string }>(sql`select count(*) as n from red_forms f
      join invoices b on b.id = f.blue_invoice_id left join invoices r on r.id = f.red_invoice_id
      where ${where}`),
  ]);
  return {
    list: rows.rows.map((r) => {
      const { lines: _lines, ...rest } = toView(r);
      return rest;
    }),
    total: Number(count.rows[0]?.n ?? 0),
  };
}
