import {
  type InvoiceFilter,
  LIBRARY_COUNT_CAP,
  type LibraryStatus,
  startOfBeijingDay,
} from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { RawRow } from '../../db/rows.ts';
import type { invoices } from '../../db/schema/index.ts';
import type { StoreScope } from '../../lib/scope.ts';
import { nextDay } from './scope.ts';
import { isCaseless, type SearchWay } from './search-plan.ts';

/**
 * The invoice library's SQL (issue 3 item 7, issue 25), shared by the list, the exports and the
 * benchmark. Every condition is written to match an index of migrations 0004 / 0018:
 * - order `coalesce(issued_at, created_at) desc, id desc` → invoices_lib_cover_idx /
 *   _store_cover_idx, which carry every filtered column, so a filtered ordered scan is index-only;
 * - buyer name contains → `strpos(...) > 0`, always; the search plan (search-plan.ts) may add
 *   `kp_name_grams(client_id, buyer_name) @> keys` on the GIN of migration 0018 (gramCondition);
 * - number by its last digits → `reverse(invoice_no) like '…%'` on invoices_lib_no_suffix_idx;
 * - rare states → invoices_lib_exceptional_idx (its predicate is implied by each status condition).
 */

/** The business and the stores listed (lib/scope.ts): `storeIds` null = every store of the business. */
export type LibraryScope = StoreScope;

/** The list's sort key: issue time, or submission time while not issued. */
export const SORT_TIME = sql.raw('coalesce(i.issued_at, i.created_at)');

const STATUS_SQL: Record<LibraryStatus, SQL> = {
  normal: sql.raw(`(i.status = 'issued' and i.red_status = 'none')`),
  issuing: sql.raw(`i.status = 'issuing'`),
  failed: sql.raw(`i.status = 'failed'`),
  unknown: sql.raw(`i.status = 'unknown'`),
  voided: sql.raw(`i.status = 'voided'`),
  partial_red: sql.raw(`(i.status = 'issued' and i.red_status = 'partial')`),
  full_red: sql.raw(`(i.status = 'issued' and i.red_status = 'full')`),
};

/** WHERE conditions (alias `i` for invoices) for a scope and the library filters. */
export function libraryConditions(scope: LibraryScope, f: InvoiceFilter): SQL {
  const parts: SQL[] = [sql`i.client_id = ${scope.clientId}`];
  if (scope.storeIds !== null) {
    if (scope.storeIds.length === 1) parts.push(sql`i.store_id = ${scope.storeIds[0]}`);
    else parts.push(sql`i.store_id = any(${`{${scope.storeIds.join(',')}}`}::int[])`);
  }
  if (f.date_from)
    parts.push(sql`${SORT_TIME} >= ${startOfBeijingDay(f.date_from).toISOString()}::timestamptz`);
  if (f.date_to)
    parts.push(sql`${SORT_TIME} < ${startOfBeijingDay(nextDay(f.date_to)).toISOString()}::timestamptz`);
  if (f.invoice_types?.length) {
    if (f.invoice_types.length === 1) parts.push(sql`i.invoice_type = ${f.invoice_types[0]}`);
    else parts.push(sql`i.invoice_type = any(${`{${f.invoice_types.join(',')}}`}::text[])`);
  }
  const no = f.invoice_no?.trim();
  if (no) {
    const reversed = [...no].reverse().join('');
    parts.push(sql`i.invoice_no is not null and reverse(i.invoice_no) like ${`${reversed}%`}`);
  }
  const name = f.buyer_name?.trim();
  if (name) {
    // a term without case is found as typed: no lower() on every row scanned (search-plan.ts)
    parts.push(
      isCaseless(name)
        ? sql`strpos(i.buyer_name, ${name}::text) > 0`
        : sql`strpos(lower(i.buyer_name), lower(${name}::text)) > 0`,
    );
  }
  const taxCode = f.buyer_tax_code?.trim();
  if (taxCode) parts.push(sql`i.buyer_tax_code = ${taxCode.toUpperCase()}`);
  if (f.statuses?.length) {
    const uniq = [...new Set(f.statuses)];
    parts.push(
      uniq.length === 1
        ? STATUS_SQL[uniq[0]!]
        : sql`(${sql.join(
            uniq.map((s) => STATUS_SQL[s]),
            sql` or `,
          )})`,
    );
  }
  if (f.amount_min) parts.push(sql`i.total_with_tax >= ${f.amount_min}::numeric`);
  if (f.amount_max) parts.push(sql`i.total_with_tax <= ${f.amount_max}::numeric`);
  if (f.direction) parts.push(sql`i.direction = ${f.direction}`);
  return sql.join(parts, sql` and `);
}

export const LIST_COLUMNS =
  sql.raw(`i.id, i.serial_no, i.invoice_type, i.invoice_code, i.invoice_no, i.direction,
  i.status, i.red_status, i.buyer_name, i.buyer_tax_code, i.buyer_email, i.total_amount, i.total_tax,
  i.total_with_tax, i.store_id, i.source, i.issued_at, i.created_at,
  (select s.name from client_stores s where s.id = i.store_id) as store_name`);

export type ListRow = Pick<
  RawRow<typeof invoices>,
  | 'id'
  | 'serial_no'
  | 'invoice_type'
  | 'invoice_code'
  | 'invoice_no'
  | 'direction'
  | 'status'
  | 'red_status'
  | 'buyer_name'
  | 'buyer_tax_code'
  | 'buyer_email'
  | 'total_amount'
  | 'total_tax'
  | 'total_with_tax'
  | 'store_id'
  | 'source'
  | 'issued_at'
  | 'created_at'
> & { store_name: string | null };

/**
 * Where a search reads its rows: the table, or (the `grams` way) the rows holding the term's GIN keys.
 * The keys carry the business, so the GIN alone narrows to it; the rows are materialised first so the
 * planner cannot AND the GIN's bitmap with a bitmap of the date range or the store — over hundreds
 * of thousands of rows that costs more than the whole search.
 */
export type SearchSource = { with: SQL; from: SQL };

export const TABLE_SOURCE: SearchSource = { with: sql``, from: sql.raw('invoices i') };

/** Every column libraryConditions and the list order read. */
const FILTERED_COLUMNS = sql.raw(`i.id, i.client_id, i.store_id, i.status, i.red_status, i.direction,
  i.invoice_type, i.total_with_tax, i.issued_at, i.created_at, i.buyer_name, i.buyer_tax_code, i.invoice_no`);

export function gramSource(keys: string[]): SearchSource {
  return {
    with: sql`with g as materialized (select ${FILTERED_COLUMNS} from invoices i where ${gramCondition(keys)}) `,
    from: sql.raw('g i'),
  };
}

/**
 * One page, newest first: the page's ids first (an index-only scan when the plan is `ordered`: every
 * filtered column is in the covering index), then their rows.
 */
export function listPageSql(
  where: SQL,
  page: number,
  pageSize: number,
  src: SearchSource = TABLE_SOURCE,
): SQL {
  return sql`${src.with}select ${LIST_COLUMNS} from (select i.id from ${src.from} where ${where}
      order by ${SORT_TIME} desc, i.id desc limit ${pageSize} offset ${(page - 1) * pageSize}) p
    join invoices i on i.id = p.id
    order by ${SORT_TIME} desc, i.id desc`;
}

/** The rows holding every one of these GIN keys (kp_name_grams of migration 0018). */
export function gramCondition(keys: string[]): SQL {
  return sql`kp_name_grams(i.client_id, i.buyer_name) @> ${`{${keys.map(arrayItem).join(',')}}`}::text[]`;
}

/** A text[] literal item, quoted: keys hold any character a buyer name may (commas, quotes, spaces). */
const arrayItem = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Each GIN key of a term with how often it occurs in the business, and the business's figures when
 * they were taken (invoices null: no figures yet). The keys come from the database's own kp_name_grams, so
 * they are lower-cased exactly as the rows' keys are.
 */
export function termGramsSql(clientId: number, term: string): SQL {
  return sql`select g.key, coalesce(t.n, 0)::int as n, s.invoices, s.first_at, s.last_at, s.store_invoices
    from (select distinct unnest(kp_name_grams(${clientId}::int, ${term}::text)) as key) g
    left join library_term_grams t on t.client_id = ${clientId} and t.gram = g.key
    left join library_term_stats s on s.client_id = ${clientId}`;
}

export type TermGramRow = {
  key: string;
  n: number;
  invoices: number | null;
  first_at: Date | string | null;
  last_at: Date | string | null;
  store_invoices: Record<string, number> | null;
};

/**
 * The planner settings that pin a search way for one transaction (SET LOCAL); no parallel workers
 * either: starting them costs more than these reads.
 */
export const SEARCH_WAY_SETTINGS: Record<SearchWay, SQL> = {
  ordered: sql.raw(
    `select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), ` +
      `set_config('max_parallel_workers_per_gather', '0', true)`,
  ),
  grams: sql.raw(
    `select set_config('enable_seqscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`,
  ),
  bitmap: sql.raw(
    `select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true), ` +
      `set_config('enable_indexonlyscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`,
  ),
};

/** The number of matches, counted up to LIBRARY_COUNT_CAP + 1 (so "more than the cap" is known). */
export function countSql(where: SQL, src: SearchSource = TABLE_SOURCE): SQL {
  return sql`${src.with}select count(*)::int as n from (select 1 from ${src.from} where ${where} limit ${LIBRARY_COUNT_CAP + 1}) m`;
}

/** A keyset batch after (time, id) for exports, newest first; `sort_time` comes back as text (µs kept). */
export function keysetBatchSql(where: SQL, after: { time: string; id: number } | null, limit: number): SQL {
  const cursor = after
    ? sql` and (${SORT_TIME}, i.id) < (${after.time}::timestamptz, ${after.id}::bigint)`
    : sql``;
  return sql`select ${LIST_COLUMNS}, ${SORT_TIME}::text as sort_time from invoices i where ${where}${cursor}
    order by ${SORT_TIME} desc, i.id desc limit ${limit}`;
}
