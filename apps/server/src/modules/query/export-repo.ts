import type { InvoiceFilter } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { RawRow } from '../../db/rows.ts';
import type { exportRecords, invoiceLines } from '../../db/schema/index.ts';
import { type Scope, storeArraySql } from '../../lib/scope.ts';
import { keysetBatchSql, type ListRow, libraryConditions } from './library-sql.ts';

/**
 * The SQL of exports (the library's is in repo.ts and library-sql.ts): what an export covers and
 * counts, the records' claim, progress, outcome, list and download, the invoices and lines the
 * runner reads in keyset batches, and the sweep's claim of expired files.
 */

/** The filters + scope + selection of a record as one WHERE. */
export function exportConditions(rec: {
  clientId: number;
  storeIds: readonly number[] | null;
  filters: InvoiceFilter;
  invoiceIds: readonly number[] | null;
  pdfOnly: boolean;
}): SQL {
  const parts = [libraryConditions({ clientId: rec.clientId, storeIds: rec.storeIds }, rec.filters)];
  // Stryker disable next-line StringLiteral: the create route stores null, never an empty list; `any('{}')` matches nothing as `any('{0}')` does
  if (rec.invoiceIds) parts.push(sql`i.id = any(${`{${rec.invoiceIds.join(',') || '0'}}`}::bigint[])`);
  // only issued invoices have documents
  if (rec.pdfOnly) parts.push(sql`i.status = 'issued' and i.invoice_no is not null`);
  return sql.join(parts, sql` and `);
}

/** The invoices an export covers (`where`: exportConditions), counted up to `max + 1`. */
export async function countExportable(db: DbOrTx, where: SQL, max: number): Promise<number> {
  const counted = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from invoices i where ${where} limit ${max + 1}) m`,
  );
  // Stryker disable next-line OptionalChaining: count(*) always returns one row
  return Number(counted.rows[0]?.n ?? 0);
}

/** The business's exports queued or running, created within the hour. */
export async function activeExportCount(db: DbOrTx, clientId: number): Promise<number> {
  const active = await db.execute<{ n: number }>(sql`
        select count(*)::int as n from export_records
        where client_id = ${clientId} and status in ('queued', 'running')
          and created_at > now() - interval '1 hour'`);
  // Stryker disable next-line OptionalChaining: count(*) always returns one row
  return Number(active.rows[0]?.n ?? 0);
}

type RecordRaw = RawRow<typeof exportRecords>;

export type ExportRecordRow = Pick<
  RecordRaw,
  'id' | 'client_id' | 'kind' | 'filters' | 'invoice_ids' | 'store_ids' | 'status'
>;

/** Claims a queued (or re-run) export: running, progress 0; undefined when it is not queued or running. */
export async function claimExport(db: DbOrTx, recordId: number): Promise<ExportRecordRow | undefined> {
  const claimed = await db.execute<ExportRecordRow>(sql`
    update export_records set status = 'running', started_at = now(), progress = 0, error = null
    where id = ${recordId} and status in ('queued', 'running')
    returning id, client_id, kind, filters, invoice_ids, store_ids, status`);
  return claimed.rows[0];
}

export async function setExportProgress(db: DbOrTx, id: number, pct: number): Promise<void> {
  await db.execute(sql`update export_records set progress = ${pct} where id = ${id}`);
}

/** The export is done: its file and row count. */
export async function finishExport(
  db: DbOrTx,
  id: number,
  f: { total: number; filePath: string; fileSize: number; fileName: string },
): Promise<void> {
  await db.execute(sql`
      update export_records set status = 'done', progress = 100, row_count = ${f.total},
        file_path = ${f.filePath}, file_size = ${f.fileSize}, file_name = ${f.fileName},
        finished_at = now()
      where id = ${id}`);
}

/** The export failed with `message`. */
export async function failExport(db: DbOrTx, id: number, message: string): Promise<void> {
  await db.execute(sql`
      update export_records set status = 'failed', error = ${message}, finished_at = now() where id = ${id}`);
}

export type ExportBatchRow = ListRow & { sort_time: string };

/** A keyset batch of the matches after (time, id), newest first. */
export async function keysetBatch(
  db: DbOrTx,
  where: SQL,
  after: { time: string; id: number } | null,
  limit: number,
): Promise<ExportBatchRow[]> {
  return (await db.execute<ExportBatchRow>(keysetBatchSql(where, after, limit))).rows;
}

export type ExportLineRow = Pick<
  RawRow<typeof invoiceLines>,
  | 'invoice_id'
  | 'line_no'
  | 'full_name'
  | 'spec'
  | 'unit'
  | 'quantity'
  | 'unit_price'
  | 'amount'
  | 'tax_rate'
  | 'tax_amount'
  | 'amount_with_tax'
  | 'tax_class_code'
  | 'zero_rate_flag'
  | 'preferential_code'
>;

/** The lines of the business's invoices `invoiceIds`, newest invoice first. */
export async function exportLines(
  db: DbOrTx,
  clientId: number,
  invoiceIds: readonly number[],
): Promise<ExportLineRow[]> {
  const lines =
    await db.execute<ExportLineRow>(sql`select invoice_id, line_no, full_name, spec, unit, quantity, unit_price, amount, tax_rate, tax_amount,
        amount_with_tax, tax_class_code, zero_rate_flag, preferential_code
      from invoice_lines
      where client_id = ${clientId} and invoice_id = any(${`{${invoiceIds.join(',')}}`}::bigint[])
      order by invoice_id desc, line_no`);
  return lines.rows;
}

export type RecordListRow = Pick<
  RecordRaw,
  | 'id'
  | 'progress'
  | 'row_count'
  | 'file_name'
  | 'file_size'
  | 'error'
  | 'invoice_ids'
  | 'created_at'
  | 'finished_at'
  | 'expires_at'
> & {
  kind: 'pdf_zip' | 'excel';
  status: 'queued' | 'running' | 'done' | 'failed';
  filters: InvoiceFilter;
  created_by_name: string | null;
};

/** A page of the exports the scope sees (all the stores they cover are in it), newest first, and their count. */
export async function listExportRecords(
  db: DbOrTx,
  scope: Scope,
  page: number,
  page_size: number,
): Promise<{ rows: RecordListRow[]; total: number }> {
  // an export belongs to the stores it covers: listed only when all of them are in the scope
  const visible = sql`r.client_id = ${scope.clientId} and ${storeArraySql(scope, sql`r.store_ids`)}`;
  const [rows, count] = await Promise.all([
    db.execute<RecordListRow>(sql`
          select r.id, r.kind, r.status, r.progress, r.row_count, r.file_name, r.file_size, r.error, r.filters,
            r.invoice_ids, u.nickname as created_by_name, r.created_at, r.finished_at, r.expires_at
          from export_records r left join users u on u.id = r.created_by
          where ${visible}
          order by r.created_at desc, r.id desc
          limit ${page_size} offset ${(page - 1) * page_size}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from export_records r where ${visible}`),
  ]);
  return {
    rows: rows.rows,
    // Stryker disable next-line OptionalChaining: count(*) always returns one row
    total: Number(count.rows[0]?.n ?? 0),
  };
}

export type ExportFileRow = Pick<
  RecordRaw,
  'status' | 'file_path' | 'file_name' | 'kind' | 'expires_at' | 'store_ids'
>;

/** The business's export `recordId` as its download needs it (undefined when there is none). */
export async function exportFileOf(
  db: DbOrTx,
  clientId: number,
  recordId: number,
): Promise<ExportFileRow | undefined> {
  const res =
    await db.execute<ExportFileRow>(sql`select status, file_path, file_name, kind, expires_at, store_ids from export_records
        where id = ${recordId} and client_id = ${clientId}`);
  return res.rows[0];
}

/**
 * Claims up to `chunk` expired exports whose file is still there (`for update skip locked`) and
 * clears their `file_path`, in the caller's transaction; `clientId` undefined = every business.
 * Answers the claimed records with the file each had.
 */
export async function claimExpiredExports(
  tx: DbOrTx,
  clientId: number | undefined,
  chunk: number,
): Promise<{ id: number; file_path: string }[]> {
  const res = await tx.execute<{ id: number; file_path: string }>(sql`
        with old as (
          select id, file_path from export_records
          where expires_at <= now() and file_path is not null
            ${clientId === undefined ? sql`` : sql`and client_id = ${clientId}`}
          limit ${chunk}
          for update skip locked)
        update export_records r set file_path = null from old where r.id = old.id
        returning old.id, old.file_path`);
  return res.rows;
}
