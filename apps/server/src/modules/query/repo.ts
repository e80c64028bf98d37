import {
  dec,
  fixed,
  formatAmount,
  INVOICE_EVENT_NAMES,
  INVOICE_TYPES,
  type InvoiceDetail,
  type InvoiceFilter,
  type InvoiceRow,
  LIBRARY_COUNT_CAP,
  LIBRARY_STATUS,
  libraryStatusOf,
  rateLabel,
  SMALL_SCALE_3_PERCENT_REASONS,
  type SmallScaleReason,
  SPECIFIC_BUSINESS,
  startOfBeijingDay,
} from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { RawRow } from '../../db/rows.ts';
import type { invoiceEvents, invoiceFiles, invoiceLines, invoices } from '../../db/schema/index.ts';
import { refuseIfOtherStore } from '../../lib/scope.ts';
import { fileNameFor } from '../documents/service.ts';
import {
  countSql,
  gramSource,
  type LibraryScope,
  type ListRow,
  libraryConditions,
  listPageSql,
  SEARCH_WAY_SETTINGS,
  TABLE_SOURCE,
} from './library-sql.ts';
import { isoOf, nextDay } from './scope.ts';
import { chooseSearchPlan, type SearchPlan, type SearchWay } from './search-plan.ts';
import { termGrams } from './term-stats-repo.ts';

const iso = isoOf;

export function toInvoiceRow(r: ListRow): InvoiceRow {
  const statusKey = libraryStatusOf(r.status, r.red_status);
  return {
    invoice_id: Number(r.id),
    serial_no: r.serial_no,
    invoice_type: r.invoice_type,
    invoice_type_name: INVOICE_TYPES[r.invoice_type as keyof typeof INVOICE_TYPES] ?? r.invoice_type,
    invoice_code: r.invoice_code,
    invoice_no: r.invoice_no,
    direction: r.direction === 'red' ? 'red' : 'blue',
    status: r.status,
    red_status: r.red_status,
    status_key: statusKey,
    status_name: LIBRARY_STATUS[statusKey],
    buyer_name: r.buyer_name,
    buyer_tax_code: r.buyer_tax_code,
    buyer_email: r.buyer_email,
    total_amount: formatAmount(r.total_amount),
    total_tax: formatAmount(r.total_tax),
    total_with_tax: formatAmount(r.total_with_tax),
    store_id: r.store_id,
    store_name: r.store_name ?? '',
    source: r.source,
    issued_at: iso(r.issued_at),
    created_at: iso(r.created_at),
  };
}

/** One page of the library and the (capped) number of matches, read concurrently. */
export async function listInvoices(
  db: Db,
  scope: LibraryScope,
  filter: InvoiceFilter,
  page: number,
  pageSize: number,
) {
  // Stryker disable next-line ConditionalExpression,BlockStatement: a scope of no stores matches no row (store_id = any('{0}')), so the query gives the same empty page
  if (scope.storeIds !== null && scope.storeIds.length === 0) {
    return { list: [], total: 0, total_capped: false, page, page_size: pageSize };
  }
  const plan = await searchPlan(db, scope, filter, page * pageSize);
  return readLibraryPage(db, scope, filter, page, pageSize, plan);
}

/**
 * One page and the capped count, read the ways a plan says (null: the planner's own choice). Every
 * way gives the same rows and count (library-search.test.ts); only the time differs.
 */
export async function readLibraryPage(
  db: Db,
  scope: LibraryScope,
  filter: InvoiceFilter,
  page: number,
  pageSize: number,
  plan: Pick<SearchPlan, 'page' | 'count' | 'keys'> | null,
) {
  const where = libraryConditions(scope, filter);
  const source = (way: SearchWay | undefined) =>
    way === 'grams' && plan ? gramSource(plan.keys) : TABLE_SOURCE;
  const [rows, count] = await Promise.all([
    readWith<ListRow>(db, plan?.page, listPageSql(where, page, pageSize, source(plan?.page))),
    readWith<{ n: number }>(db, plan?.count, countSql(where, source(plan?.count))),
  ]);
  // Stryker disable next-line OptionalChaining: count(*) always returns one row
  const n = Number(count.rows[0]?.n ?? 0);
  return {
    list: rows.rows.map(toInvoiceRow),
    total: Math.min(n, LIBRARY_COUNT_CAP),
    total_capped: n > LIBRARY_COUNT_CAP,
    page,
    page_size: pageSize,
  };
}

const NO_ESTIMATE: SearchPlan['estimate'] = { rarest: 0, invoices: null, ordered: [0, 0], grams: [0, 0] };
const ONE_DIGIT_PLAN: SearchPlan = { page: 'ordered', count: 'ordered', keys: [], estimate: NO_ESTIMATE };
const LONG_SUFFIX_PLAN: SearchPlan = { page: 'bitmap', count: 'bitmap', keys: [], estimate: NO_ESTIMATE };

const dateOf = (v: Date | string | null) => (v === null ? null : new Date(v));

/**
 * The plan of a buyer-name search (issue 25): from the term's GIN keys and how often each occurs in the
 * business, its invoices' span and stores (term-stats-repo.ts), and the search's dates and stores.
 * Without a name: the ordered scan for a one-digit invoice-number suffix, bitmap scans (its index) for
 * three digits or more, else no plan (the planner's own choice: two digits, the tax-code index).
 */
export async function searchPlan(
  db: Db,
  scope: LibraryScope,
  filter: InvoiceFilter,
  wanted: number,
): Promise<SearchPlan | null> {
  const name = filter.buyer_name?.trim();
  if (!name) {
    // one last digit matches a tenth of the numbers: the suffix index would hand ~10% of the business
    // to a sort, where the ordered scan stops at the page / the cap (bench: count 68 → 19 ms); three
    // or more match a thousandth or less, which the planner's ordered scan would look for through the
    // whole range (bench: page 33–66 ms) where the suffix index finds them at once
    const no = filter.invoice_no?.trim();
    if (no?.length === 1) return ONE_DIGIT_PLAN;
    if (no && no.length >= 3) return LONG_SUFFIX_PLAN;
    return null;
  }
  const rows = await termGrams(db, scope.clientId, name);
  const first = rows[0];
  const stats =
    first && first.invoices !== null && first.invoices !== undefined
      ? {
          invoices: Number(first.invoices),
          firstAt: dateOf(first.first_at),
          lastAt: dateOf(first.last_at),
          storeInvoices: first.store_invoices ?? {},
        }
      : null;
  return chooseSearchPlan(
    rows.map((g) => ({ key: g.key, n: Number(g.n) })),
    stats,
    {
      termLength: Array.from(name).length,
      wanted,
      countCap: LIBRARY_COUNT_CAP,
      from: filter.date_from ? startOfBeijingDay(filter.date_from) : undefined,
      to: filter.date_to ? startOfBeijingDay(nextDay(filter.date_to)) : undefined,
      storeIds: scope.storeIds,
    },
  );
}

/** One read, with the planner pinned to a search way for its transaction when a plan gives one. */
async function readWith<T extends Record<string, unknown>>(db: Db, way: SearchWay | undefined, query: SQL) {
  if (!way) return db.execute<T>(query);
  return db.transaction(
    async (tx) => {
      await tx.execute(SEARCH_WAY_SETTINGS[way]);
      return tx.execute<T>(query);
    },
    { accessMode: 'read only' },
  );
}

type InvoiceRaw = RawRow<typeof invoices>;

/** `select i.*` with the store's and the creator's names. */
type DetailRow = InvoiceRaw & { store_name: string | null; created_by_name: string | null };

type RelatedRow = Pick<
  InvoiceRaw,
  | 'id'
  | 'invoice_type'
  | 'invoice_code'
  | 'invoice_no'
  | 'status'
  | 'total_amount'
  | 'total_tax'
  | 'total_with_tax'
  | 'issued_at'
>;

const related = (r: RelatedRow) => ({
  invoice_id: Number(r.id),
  invoice_type: r.invoice_type,
  invoice_code: r.invoice_code,
  invoice_no: r.invoice_no,
  status: r.status,
  total_amount: formatAmount(r.total_amount),
  total_tax: formatAmount(r.total_tax),
  total_with_tax: formatAmount(r.total_with_tax),
  issued_at: iso(r.issued_at),
});

/** States of a red invoice that use up the blue invoice's remainder (it is, or may become, issued). */
const RED_CONSUMING = new Set(['issued', 'issuing', 'unknown']);

/** Refuses (store not permitted) when the invoice exists in the business but outside the caller's stores. */
export async function refuseOtherStoreInvoice(db: Db, clientId: number, invoiceId: number): Promise<void> {
  await refuseIfOtherStore(
    db,
    sql`select 1 from invoices where id = ${invoiceId} and client_id = ${clientId}`,
  );
}

/**
 * One invoice with its lines, special-business block, events (with who), files and red remainder,
 * or null when it is not the business's or not in the caller's stores.
 */
export async function getInvoiceDetail(
  db: Db,
  scope: LibraryScope,
  invoiceId: number,
): Promise<InvoiceDetail | null> {
  const storeCond =
    scope.storeIds === null
      ? sql``
      : // Stryker disable next-line StringLiteral: an empty array literal matches no store, as '{0}' does
        sql` and i.store_id = any(${`{${scope.storeIds.join(',') || '0'}}`}::int[])`;
  const head = await db.execute<DetailRow>(sql`
    select i.*, (select s.name from client_stores s where s.id = i.store_id) as store_name,
      (select u.nickname from users u where u.id = i.created_by) as created_by_name
    from invoices i
    where i.id = ${invoiceId} and i.client_id = ${scope.clientId}${storeCond}`);
  const inv = head.rows[0];
  if (!inv) return null;

  const [lines, events, files, reds, original] = await Promise.all([
    db.execute<
      RawRow<typeof invoiceLines>
    >(sql`select * from invoice_lines where invoice_id = ${invoiceId} and client_id = ${scope.clientId}
      order by line_no`),
    db.execute<
      Pick<RawRow<typeof invoiceEvents>, 'id' | 'kind' | 'user_id' | 'created_at'> & {
        user_name: string | null;
        // jsonb is `unknown` in the schema; an event's detail is an object
        detail: Record<string, unknown> | null;
      }
    >(sql`select e.id, e.kind, e.user_id, u.nickname as user_name, e.detail, e.created_at
      from invoice_events e left join users u on u.id = e.user_id
      where e.invoice_id = ${invoiceId} and e.client_id = ${scope.clientId}
      order by e.id`),
    db.execute<Pick<RawRow<typeof invoiceFiles>, 'kind' | 'file_name' | 'size' | 'created_at'>>(
      sql`select kind, file_name, size, created_at from invoice_files
        where invoice_id = ${invoiceId} and client_id = ${scope.clientId}`,
    ),
    inv.direction === 'blue'
      ? db.execute<RelatedRow>(sql`select id, invoice_type, invoice_code, invoice_no, status, total_amount,
          total_tax, total_with_tax, issued_at from invoices
          where client_id = ${scope.clientId} and original_invoice_id = ${invoiceId} and direction = 'red'
          order by id`)
      : null,
    inv.original_invoice_id
      ? db.execute<RelatedRow>(sql`select id, invoice_type, invoice_code, invoice_no, status, total_amount,
          total_tax, total_with_tax, issued_at from invoices
          where client_id = ${scope.clientId} and id = ${inv.original_invoice_id}`)
      : null,
  ]);

  const base = toInvoiceRow(inv);
  const fileRows = new Map(files.rows.map((f) => [f.kind, f]));
  const docName = (kind: 'pdf' | 'xml') =>
    fileNameFor(
      {
        invoiceType: inv.invoice_type,
        invoiceCode: inv.invoice_code,
        invoiceNo: inv.invoice_no ?? inv.serial_no,
        red: inv.direction === 'red',
      },
      kind,
    );
  const fileList =
    (inv.invoice_no && inv.issued_at) || fileRows.size > 0
      ? (['pdf', 'xml'] as const).map((kind) => {
          const f = fileRows.get(kind);
          return {
            kind,
            ready: Boolean(f),
            file_name: f?.file_name ?? docName(kind),
            size: f ? Number(f.size) : null,
            created_at: f ? iso(f.created_at) : null,
          };
        })
      : [];

  let red: InvoiceDetail['red'] = null;
  if (reds) {
    let amount = dec(0);
    let tax = dec(0);
    let withTax = dec(0);
    for (const r of reds.rows) {
      if (!RED_CONSUMING.has(r.status)) continue;
      amount = amount.plus(dec(r.total_amount));
      tax = tax.plus(dec(r.total_tax));
      withTax = withTax.plus(dec(r.total_with_tax));
    }
    red = {
      red_invoices: reds.rows.map(related),
      reddened_amount: fixed(amount),
      reddened_tax: fixed(tax),
      reddened_with_tax: fixed(withTax),
      remaining_amount: fixed(dec(inv.total_amount).plus(amount)),
      remaining_tax: fixed(dec(inv.total_tax).plus(tax)),
      remaining_with_tax: fixed(dec(inv.total_with_tax).plus(withTax)),
    };
  }

  const sbCode = inv.specific_business_code;
  return {
    invoice: {
      ...base,
      device_id: inv.device_id,
      check_code: inv.check_code,
      buyer_title_type: inv.buyer_title_type,
      buyer_address: inv.buyer_address,
      buyer_phone: inv.buyer_phone,
      buyer_bank_name: inv.buyer_bank_name,
      buyer_bank_account: inv.buyer_bank_account,
      buyer_mobile: inv.buyer_mobile,
      seller_name: inv.seller_name,
      seller_tax_code: inv.seller_tax_code,
      seller_address: inv.seller_address,
      seller_phone: inv.seller_phone,
      seller_bank_name: inv.seller_bank_name,
      seller_bank_account: inv.seller_bank_account,
      price_includes_tax: inv.price_includes_tax,
      remark: inv.remark,
      drawer: inv.drawer,
      payee: inv.payee,
      reviewer: inv.reviewer,
      qr_string: inv.qr_string,
      error_code: inv.error_code,
      error_message: inv.error_message,
      created_by: inv.created_by,
      created_by_name: inv.created_by_name ?? '',
      small_scale_reason: smallScaleReasonText(inv.specific_business),
    },
    lines: lines.rows.map((l) => ({
      line_no: l.line_no,
      line_kind: l.line_kind,
      tax_class_code: l.tax_class_code,
      short_name: l.short_name,
      name: l.item_name,
      full_name: l.full_name,
      spec: l.spec,
      unit: l.unit,
      quantity: l.quantity,
      unit_price: l.unit_price,
      unit_price_with_tax: l.unit_price_with_tax,
      amount: formatAmount(l.amount),
      tax_rate: l.tax_rate,
      tax_rate_label: rateLabel(l.tax_rate, l.zero_rate_flag, l.preferential_code),
      tax_amount: formatAmount(l.tax_amount),
      amount_with_tax: formatAmount(l.amount_with_tax),
      preferential_code: l.preferential_code,
      zero_rate_flag: l.zero_rate_flag,
    })),
    specific_business: sbCode
      ? {
          code: sbCode,
          name: SPECIFIC_BUSINESS[sbCode as keyof typeof SPECIFIC_BUSINESS] ?? sbCode,
          data: inv.specific_business ?? null,
        }
      : null,
    events: events.rows.map((e) => ({
      id: Number(e.id),
      kind: e.kind,
      kind_name: INVOICE_EVENT_NAMES[e.kind] ?? e.kind,
      user_id: e.user_id,
      user_name: e.user_name ?? '系统',
      detail: e.detail ?? {},
      created_at: iso(e.created_at),
    })),
    files: fileList,
    original: original?.rows[0] ? related(original.rows[0]) : null,
    red,
  };
}

/** The text of the small-scale 3% reason kept with the invoice (specific_business.small_scale_reason). */
function smallScaleReasonText(specificBusiness: unknown): string | null {
  const code = (specificBusiness as { small_scale_reason?: unknown } | null)?.small_scale_reason;
  return typeof code === 'string' && code in SMALL_SCALE_3_PERCENT_REASONS
    ? SMALL_SCALE_3_PERCENT_REASONS[code as SmallScaleReason]
    : null;
}
