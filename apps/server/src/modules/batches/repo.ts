import type { BatchProgress, BatchRow, BatchRowStatus, BatchStatus } from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { RawRow } from '../../db/rows.ts';
import type { batches, batchRows } from '../../db/schema/index.ts';

/** `select * from batches` (its timestamps are text, as a raw execute returns them). */
export type BatchRecord = Omit<RawRow<typeof batches>, 'status'> & { status: BatchStatus };

export async function findBatch(db: DbOrTx, clientId: number, id: number): Promise<BatchRecord | null> {
  const res = await db.execute<BatchRecord>(
    sql`select * from batches where id = ${id} and client_id = ${clientId}`,
  );
  return res.rows[0] ?? null;
}

export type NewBatch = {
  clientId: number;
  storeId: number;
  deviceId: number;
  invoiceType: string;
  fileName: string;
  fileSha256: string;
  sendEmail: boolean;
  sourceCount: number;
  invoiceCount: number;
  lineCount: number;
  splitSources: number;
  totalAmount: string;
  totalTax: string;
  totalWithTax: string;
  createdBy: number | null;
};

export async function insertBatch(tx: DbOrTx, b: NewBatch): Promise<number> {
  const res = await tx.execute<{ id: number }>(sql`
    insert into batches (client_id, store_id, device_id, invoice_type, file_name, file_sha256, send_email,
      source_count, invoice_count, line_count, split_sources, total_amount, total_tax, total_with_tax, created_by)
    values (${b.clientId}, ${b.storeId}, ${b.deviceId}, ${b.invoiceType}, ${b.fileName}, ${b.fileSha256},
      ${b.sendEmail}, ${b.sourceCount}, ${b.invoiceCount}, ${b.lineCount}, ${b.splitSources}, ${b.totalAmount},
      ${b.totalTax}, ${b.totalWithTax}, ${b.createdBy})
    returning id`);
  return Number(res.rows[0]!.id);
}

export type NewBatchRow = {
  seq: number;
  source_serial: string;
  source_row: number;
  part_no: number;
  part_count: number;
  serial_no: string;
  invoice_type: string;
  buyer_name: string;
  line_count: number;
  total_amount: string;
  total_tax: string;
  total_with_tax: string;
  request: unknown;
};

/** Inserts the rows in chunks (one statement per chunk through jsonb_to_recordset). */
export async function insertRows(
  tx: DbOrTx,
  batchId: number,
  clientId: number,
  rows: readonly NewBatchRow[],
) {
  const CHUNK = 500;
  // Stryker disable next-line EqualityOperator: one more pass inserts an empty chunk, that is nothing
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + CHUNK));
    await tx.execute(sql`
      insert into batch_rows (batch_id, seq, client_id, source_serial, source_row, part_no, part_count, serial_no,
        invoice_type, buyer_name, line_count, total_amount, total_tax, total_with_tax, request)
      select ${batchId}, r.seq, ${clientId}, r.source_serial, r.source_row, r.part_no, r.part_count, r.serial_no,
        r.invoice_type, r.buyer_name, r.line_count, r.total_amount, r.total_tax, r.total_with_tax, r.request
      from jsonb_to_recordset(${chunk}::jsonb) as r(seq int, source_serial text, source_row int, part_no smallint,
        part_count smallint, serial_no text, invoice_type text, buyer_name text, line_count int,
        total_amount numeric, total_tax numeric, total_with_tax numeric, request jsonb)`);
  }
}

export type RowCounts = Record<BatchRowStatus, number> & { total: number; issued_with_tax: string };

export async function rowCounts(db: DbOrTx, batchId: number): Promise<RowCounts> {
  const res = await db.execute<{ status: BatchRowStatus; n: number; with_tax: string }>(sql`
    select status, count(*)::int as n, coalesce(sum(total_with_tax), 0)::text as with_tax
    from batch_rows where batch_id = ${batchId} group by status`);
  const out: RowCounts = {
    total: 0,
    pending: 0,
    issuing: 0,
    issued: 0,
    failed: 0,
    skipped: 0,
    issued_with_tax: '0.00',
  };
  for (const r of res.rows) {
    out[r.status] = Number(r.n);
    out.total += Number(r.n);
    if (r.status === 'issued') out.issued_with_tax = Number(r.with_tax).toFixed(2);
  }
  return out;
}

type ProgressRow = BatchRecord & {
  device_name: string | null;
  store_name: string | null;
  created_by_name: string | null;
  bookkeeping_expired: boolean;
};

const PROGRESS_SELECT = sql`
  select b.*, d.name as device_name, s.name as store_name,
    coalesce(nullif(u.nickname, ''), u.account) as created_by_name,
    (o.bookkeeping_expires_at is not null and o.bookkeeping_expires_at <= now()) as bookkeeping_expired
  from batches b
  join clients c on c.id = b.client_id
  join orgs o on o.id = c.org_id
  left join tax_devices d on d.id = b.device_id
  left join client_stores s on s.id = b.store_id
  left join users u on u.id = b.created_by`;

export async function listBatches(
  db: DbOrTx,
  q: { clientId: number; storeIds: readonly number[] | null; page: number; pageSize: number },
): Promise<{ total: number; rows: ProgressRow[] }> {
  // Stryker disable next-line StringLiteral: the empty fragment adds nothing to the statement either way
  const scope: SQL = q.storeIds ? sql`and b.store_id = any(${`{${q.storeIds.join(',')}}`}::int[])` : sql``;
  const total = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from batches b where b.client_id = ${q.clientId} ${scope}`,
  );
  const res = await db.execute<ProgressRow>(sql`
    ${PROGRESS_SELECT}
    where b.client_id = ${q.clientId} ${scope}
    order by b.created_at desc, b.id desc
    limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`);
  // Stryker disable next-line OptionalChaining: count(*) always answers one row
  return { total: Number(total.rows[0]?.n ?? 0), rows: res.rows };
}

export async function progressRow(db: DbOrTx, clientId: number, id: number): Promise<ProgressRow | null> {
  const res = await db.execute<ProgressRow>(
    sql`${PROGRESS_SELECT} where b.id = ${id} and b.client_id = ${clientId}`,
  );
  return res.rows[0] ?? null;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function toProgress(b: ProgressRow, c: RowCounts, notice: string | null): BatchProgress {
  const settled = c.issued + c.failed + c.skipped;
  return {
    batch_id: b.id,
    status: b.status,
    pause_reason: b.pause_reason,
    notice,
    file_name: b.file_name,
    // Stryker disable StringLiteral: the batch's device, store and author are never deleted (the joins always find them)
    device_name: b.device_name ?? '',
    store_id: b.store_id,
    store_name: b.store_name ?? '',
    created_by_name: b.created_by_name ?? '',
    // Stryker restore StringLiteral
    created_at: iso(b.created_at)!,
    started_at: iso(b.started_at),
    finished_at: iso(b.finished_at),
    source_count: b.source_count,
    total: c.total,
    pending: c.pending,
    issuing: c.issuing,
    issued: c.issued,
    failed: c.failed,
    skipped: c.skipped,
    percent: c.total ? Math.floor((settled / c.total) * 100) : 0,
    total_with_tax: Number(b.total_with_tax).toFixed(2),
    issued_with_tax: c.issued_with_tax,
  };
}

/** Counts of many batches at once (the history page). */
export async function rowCountsMany(db: DbOrTx, ids: readonly number[]): Promise<Map<number, RowCounts>> {
  const out = new Map<number, RowCounts>();
  // Stryker disable next-line ConditionalExpression: an empty id list matches no row either way
  if (ids.length === 0) return out;
  const res = await db.execute<{ batch_id: number; status: BatchRowStatus; n: number; with_tax: string }>(sql`
    select batch_id, status, count(*)::int as n, coalesce(sum(total_with_tax), 0)::text as with_tax
    from batch_rows where batch_id = any(${`{${ids.join(',')}}`}::int[]) group by batch_id, status`);
  for (const id of ids) {
    out.set(id, {
      total: 0,
      pending: 0,
      issuing: 0,
      issued: 0,
      failed: 0,
      skipped: 0,
      issued_with_tax: '0.00',
    });
  }
  for (const r of res.rows) {
    const c = out.get(Number(r.batch_id))!;
    c[r.status] = Number(r.n);
    c.total += Number(r.n);
    if (r.status === 'issued') c.issued_with_tax = Number(r.with_tax).toFixed(2);
  }
  return out;
}

type RowRecord = Pick<
  RawRow<typeof batchRows>,
  | 'seq'
  | 'source_serial'
  | 'source_row'
  | 'part_no'
  | 'part_count'
  | 'serial_no'
  | 'invoice_type'
  | 'buyer_name'
  | 'line_count'
  | 'total_amount'
  | 'total_with_tax'
  | 'attempts'
  | 'invoice_id'
  | 'invoice_code'
  | 'invoice_no'
  | 'issued_at'
  | 'error_message'
> & { status: BatchRowStatus };

export function toBatchRow(r: RowRecord): BatchRow {
  return {
    seq: r.seq,
    source_serial: r.source_serial,
    source_row: r.source_row,
    part_no: r.part_no,
    part_count: r.part_count,
    serial_no: r.serial_no,
    invoice_type: r.invoice_type,
    buyer_name: r.buyer_name,
    line_count: r.line_count,
    total_amount: Number(r.total_amount).toFixed(2),
    total_with_tax: Number(r.total_with_tax).toFixed(2),
    status: r.status,
    attempts: r.attempts,
    invoice_id: r.invoice_id === null ? null : Number(r.invoice_id),
    invoice_code: r.invoice_code,
    invoice_no: r.invoice_no,
    error_message: r.error_message,
  };
}

const ROW_COLUMNS = sql.raw(`seq, source_serial, source_row, part_no, part_count, serial_no, invoice_type,
  buyer_name, line_count, total_amount, total_with_tax, status, attempts, invoice_id, invoice_code, invoice_no,
  issued_at, error_message`);

export async function listRows(
  db: DbOrTx,
  q: { batchId: number; status: BatchRowStatus | ''; page: number; pageSize: number },
): Promise<{ total: number; rows: RowRecord[] }> {
  const filter = q.status ? sql`and status = ${q.status}` : sql``;
  const total = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from batch_rows where batch_id = ${q.batchId} ${filter}`,
  );
  const res = await db.execute<RowRecord>(sql`
    select ${ROW_COLUMNS} from batch_rows where batch_id = ${q.batchId} ${filter}
    order by seq limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`);
  // Stryker disable next-line OptionalChaining: count(*) always answers one row
  return { total: Number(total.rows[0]?.n ?? 0), rows: res.rows };
}

/** Every row of a batch in order, in pages (the result download). */
export async function* allRows(db: DbOrTx, batchId: number, pageSize = 2000): AsyncGenerator<RowRecord[]> {
  let after = 0;
  for (;;) {
    const res = await db.execute<RowRecord>(sql`
      select ${ROW_COLUMNS} from batch_rows where batch_id = ${batchId} and seq > ${after}
      order by seq limit ${pageSize}`);
    if (res.rows.length === 0) return;
    yield res.rows;
    after = res.rows[res.rows.length - 1]!.seq;
  }
}

/** What each state change of a batch sets. */
const TRANSITIONS = {
  start: sql`status = 'running', pause_reason = '', started_at = now()`,
  pause: sql`status = 'paused', pause_reason = 'user'`,
  resume: sql`status = 'running', pause_reason = ''`,
  cancel: sql`status = 'cancelled', pause_reason = '', finished_at = now()`,
  retry: sql`status = 'running', pause_reason = '', finished_at = null`,
} as const;

export type BatchTransition = keyof typeof TRANSITIONS;

/** Moves a batch between states; false when it was not in one of `from`. */
export async function setStatus(
  db: DbOrTx,
  q: { id: number; clientId: number; from: readonly BatchStatus[]; to: BatchTransition },
): Promise<boolean> {
  const from = sql.join(
    q.from.map((s) => sql`${s}`),
    sql`, `,
  );
  const res = await db.execute(sql`
    update batches set ${TRANSITIONS[q.to]}, updated_at = now()
    where id = ${q.id} and client_id = ${q.clientId} and status in (${from})`);
  return (res.rowCount ?? 0) > 0;
}

/** A cancelled batch's rows not yet claimed are skipped. */
export async function skipPendingRows(tx: DbOrTx, batchId: number): Promise<void> {
  await tx.execute(sql`
      update batch_rows set status = 'skipped', error_code = 'cancelled', error_message = '批次已取消', updated_at = now()
      where batch_id = ${batchId} and status = 'pending'`);
}

/** The failed rows of a batch back in the queue (same serials); answers how many. */
export async function requeueFailedRows(tx: DbOrTx, batchId: number): Promise<number> {
  const res = await tx.execute(sql`
      update batch_rows set status = 'pending', worker = null, error_code = null, error_message = null,
        updated_at = now()
      where batch_id = ${batchId} and status = 'failed'`);
  return res.rowCount ?? 0;
}

export async function bookkeepingExpired(db: DbOrTx, clientId: number): Promise<boolean> {
  const res = await db.execute<{ expired: boolean }>(sql`
    select (o.bookkeeping_expires_at is not null and o.bookkeeping_expires_at <= now()) as expired
    from clients c join orgs o on o.id = c.org_id where c.id = ${clientId}`);
  // Stryker disable next-line BooleanLiteral,OptionalChaining: the session's business always exists
  return res.rows[0]?.expired ?? false;
}
