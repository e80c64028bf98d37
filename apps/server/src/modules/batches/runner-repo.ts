import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../../channels/numbers.ts';
import type { RawRow } from '../../db/rows.ts';
import type { batches, batchRows } from '../../db/schema/index.ts';

/**
 * The SQL of the batch runner (runner.ts; the rest of the batches' is in repo.ts): the liveness
 * lock, the claim of rows, the recording and giving back of their outcomes, the settling of a
 * batch and the sweep's statements.
 */

/** Advisory-lock class of the runners' liveness locks (`pg_advisory_lock(727002, key)`). */
export const LIVENESS_CLASS = 727002;

export type ClaimedRow = Pick<RawRow<typeof batchRows>, 'batch_id' | 'seq' | 'serial_no' | 'request'> &
  Pick<RawRow<typeof batches>, 'client_id' | 'store_id' | 'created_by'> & {
    /** the runner key the row was claimed under */
    worker: number;
  };

/** Takes the runner's session-level liveness lock on its own connection (held until it closes). */
export async function takeLivenessLock(client: pg.Client, key: number): Promise<void> {
  await client.query('select pg_advisory_lock($1, $2)', [LIVENESS_CLASS, key]);
}

/**
 * Takes the next pending rows (up to `n`, in order) of a running batch whose bookkeeping service
 * is active, marked `issuing` under `key`; other lanes and processes skip the locked ones.
 */
export async function claimRows(
  db: DbOrTx,
  batchId: number,
  n: number,
  key: number,
): Promise<Omit<ClaimedRow, 'worker'>[]> {
  const res = await db.execute<Omit<ClaimedRow, 'worker'>>(sql`
      with b as (
        select b.id, b.client_id, b.store_id, b.created_by
        from batches b
        join clients c on c.id = b.client_id
        join orgs o on o.id = c.org_id
        where b.id = ${batchId} and b.status = 'running'
          and (o.bookkeeping_expires_at is null or o.bookkeeping_expires_at > now())
      ), pick as (
        select r.batch_id, r.seq from batch_rows r
        where r.batch_id = (select id from b) and r.status = 'pending'
        order by r.seq
        limit ${n}
        for update skip locked
      )
      update batch_rows r set status = 'issuing', worker = ${key}, attempts = r.attempts + 1, updated_at = now()
      from pick, b
      where r.batch_id = pick.batch_id and r.seq = pick.seq
      returning r.batch_id, r.seq, r.serial_no, r.request, b.client_id, b.store_id, b.created_by`);
  return res.rows;
}

/** The outcome of one claimed row, as recorded. */
export type RowOutcomeRecord = {
  seq: number;
  worker: number;
  status: 'issued' | 'failed';
  invoice_id: number | null;
  invoice_code: string;
  invoice_no: string | null;
  issued_at: string | null;
  error_code: string | null;
  error_message: string | null;
};

/** Records the outcomes of claimed rows of a batch, in one statement. */
export async function recordOutcomes(
  db: DbOrTx,
  batchId: number,
  done: readonly RowOutcomeRecord[],
): Promise<void> {
  const outcomes = JSON.stringify(done);
  await db.execute(sql`
      with o as (
        select * from jsonb_to_recordset(${outcomes}::jsonb) as o(seq int, worker int, status text,
          invoice_id bigint, invoice_code text, invoice_no text, issued_at timestamptz, error_code text,
          error_message text)
      )
      update batch_rows r set status = o.status, worker = null, invoice_id = o.invoice_id,
        invoice_code = o.invoice_code, invoice_no = o.invoice_no, issued_at = o.issued_at,
        error_code = o.error_code, error_message = o.error_message, updated_at = now()
      from o
      where r.batch_id = ${batchId} and r.seq = o.seq and r.worker = o.worker and r.status = 'issuing'`);
}

/** Gives claimed rows back: to the queue, or skipped when the batch was cancelled meanwhile. */
export async function releaseRows(
  db: DbOrTx,
  batchId: number,
  seqs: readonly number[],
  worker: number,
): Promise<void> {
  await db.execute(sql`
      update batch_rows r set worker = null, updated_at = now(),
        status = case when b.status = 'cancelled' then 'skipped' else 'pending' end,
        error_code = case when b.status = 'cancelled' then 'cancelled' end,
        error_message = case when b.status = 'cancelled' then '批次已取消' end
      from batches b
      where b.id = r.batch_id and r.batch_id = ${batchId}
        and r.seq = any(${`{${seqs.join(',')}}`}::int[])
        and r.worker = ${worker} and r.status = 'issuing'`);
}

/**
 * After the lanes stop: the batch's invoices are marked as made by a batch (one set-based
 * statement, not one more write per invoice), then the batch pauses for an expired bookkeeping
 * service or closes when nothing is left.
 */
export async function settleBatch(db: DbOrTx, batchId: number): Promise<void> {
  await db.execute(sql`
      update invoices i set source = 'batch'
      from batch_rows r
      where r.batch_id = ${batchId} and r.status = 'issued' and i.id = r.invoice_id
        and i.client_id = r.client_id and i.source = 'online'`);
  await db.execute(sql`
      update batches b set status = 'paused', pause_reason = 'bookkeeping', updated_at = now()
      from clients c join orgs o on o.id = c.org_id
      where b.id = ${batchId} and c.id = b.client_id and b.status = 'running'
        and o.bookkeeping_expires_at is not null and o.bookkeeping_expires_at <= now()`);
  await db.execute(sql`
      update batches set status = 'done', finished_at = now(), updated_at = now()
      where id = ${batchId} and status = 'running'
        and not exists (select 1 from batch_rows where batch_id = ${batchId} and status in ('pending', 'issuing'))`);
}

export type StrandedRow = {
  batch_id: number;
  seq: number;
  worker: number;
  batch_status: string;
};

/**
 * `issuing` rows of live (or lately cancelled) batches whose runner's liveness lock is gone; `me`
 * is this process's key (0 when it holds no lock).
 */
export async function strandedRows(db: DbOrTx, me: number): Promise<StrandedRow[]> {
  const stranded = await db.execute<StrandedRow>(sql`
      select r.batch_id, r.seq, r.worker, b.status as batch_status
      from batches b
      join batch_rows r on r.batch_id = b.id and r.status = 'issuing'
      where (b.status in ('running', 'paused') or (b.status = 'cancelled' and b.updated_at > now() - interval '1 day'))
        and r.worker is distinct from ${me}
        and not exists (
          select 1 from pg_locks l
          where l.locktype = 'advisory' and l.classid = ${LIVENESS_CLASS}::oid and l.objsubid = 2
            and l.objid::bigint = r.worker
            and l.database = (select oid from pg_database where datname = current_database()))`);
  return stranded.rows;
}

/**
 * A stranded row of a cancelled batch (it will not run again): settled from the invoice its serial
 * has, if any; `unknownMessage` is the message of an invoice whose outcome is not known.
 */
export async function settleCancelledRow(db: DbOrTx, r: StrandedRow, unknownMessage: string): Promise<void> {
  await db.execute(sql`
          update batch_rows r set worker = null, updated_at = now(),
            status = case when i.status = 'issued' then 'issued' when i.id is null then 'skipped' else 'failed' end,
            invoice_id = i.id, invoice_code = coalesce(i.invoice_code, ''), invoice_no = i.invoice_no,
            issued_at = i.issued_at,
            error_code = case when i.status = 'issued' then null when i.id is null then 'cancelled' else 'unknown' end,
            error_message = case when i.status = 'issued' then null when i.id is null then '批次已取消'
                                 else ${unknownMessage} end
          from batch_rows r0
          left join invoices i on i.client_id = r0.client_id and i.serial_no = r0.serial_no
          where r.batch_id = ${r.batch_id} and r.seq = ${r.seq} and r0.batch_id = r.batch_id and r0.seq = r.seq
            and r.status = 'issuing' and r.worker = ${r.worker}`);
}

/** A stranded row back to the queue. */
export async function requeueRow(db: DbOrTx, r: StrandedRow): Promise<void> {
  await db.execute(sql`
          update batch_rows set status = 'pending', worker = null, updated_at = now()
          where batch_id = ${r.batch_id} and seq = ${r.seq} and status = 'issuing' and worker = ${r.worker}`);
}

/** Spec §1: running batches pause while their bookkeeping service is expired. */
export async function pauseExpiredBookkeeping(db: DbOrTx): Promise<void> {
  await db.execute(sql`
      update batches b set status = 'paused', pause_reason = 'bookkeeping', updated_at = now()
      from clients c join orgs o on o.id = c.org_id
      where c.id = b.client_id and b.status = 'running'
        and o.bookkeeping_expires_at is not null and o.bookkeeping_expires_at <= now()`);
}

/** Spec §1: batches paused for bookkeeping resume once the service is restored. */
export async function resumeRestoredBookkeeping(db: DbOrTx): Promise<void> {
  await db.execute(sql`
      update batches b set status = 'running', pause_reason = '', updated_at = now()
      from clients c join orgs o on o.id = c.org_id
      where c.id = b.client_id and b.status = 'paused' and b.pause_reason = 'bookkeeping'
        and (o.bookkeeping_expires_at is null or o.bookkeeping_expires_at > now())`);
}

/** The running batches (the first 50 by id). */
export async function runningBatchIds(db: DbOrTx): Promise<number[]> {
  const running = await db.execute<{ id: number }>(
    sql`select id from batches where status = 'running' order by id limit 50`,
  );
  return running.rows.map((b) => Number(b.id));
}
