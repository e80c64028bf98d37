import { randomInt } from 'node:crypto';
import { type BlueInvoiceRequest, INVOICE_CODE, type IssueResult } from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { AppError } from '../../lib/app-error.ts';
import { issueBlue, reconcileInvoices, UNKNOWN_MESSAGE } from '../invoices/service.ts';
import type { ClaimedRow } from './runner-repo.ts';
import * as repo from './runner-repo.ts';

/**
 * The batch runner: issues the rows of running batches, in every process whose role is `worker` or
 * `all` (architecture.md §1).
 *
 * Exactly once, across crashes:
 * - A row is claimed with `UPDATE … WHERE (batch_id, seq) = (SELECT … FOR UPDATE SKIP LOCKED)`: two
 *   lanes, or two processes, never take the same row. The claim marks it `issuing` with the runner's
 *   key. Each runner holds a session-level advisory lock (class 727002, its key) on a connection of
 *   its own for as long as it lives; when the process dies, PostgreSQL drops that connection and the
 *   lock with it. The sweep finds `issuing` rows whose runner's lock is gone and puts them back to
 *   `pending` (at start-up and every few seconds), so a killed server's rows are re-driven at once —
 *   without waiting for a job or lease to expire.
 * - A re-driven row goes through the issuing service with the same deterministic serial: the service
 *   answers the invoice that serial already has, or (left `issuing` by the dead process, or
 *   `unknown`) reconciliation asks the channel by serial and either records the number the channel
 *   gave or retries the failed invoice on the same row. The database's unique (client_id,
 *   serial_no) on invoices is the last word: one serial, one invoice.
 *
 * A batch pauses itself when its organisation's bookkeeping service has expired (spec §1: the claim
 * takes no row then) and resumes by itself once the service is restored.
 */

export { type ClaimedRow, LIVENESS_CLASS } from './runner-repo.ts';

/**
 * Concurrent rows per batch per process. The lanes' issues on one device meet in the issuing
 * group commit (invoices/at-once.ts), so more lanes make bigger statements: 8 lanes issue 10,000
 * rows at 1.06× the single-invoice API's rate in bench/batch-issue.ts, 4 lanes at 0.93×.
 */
export const BATCH_LANES = 8;
/** Batches one process works on at once; more wait for the sweep. */
export const MAX_ACTIVE_BATCHES = 2;

export type RowOutcome = {
  status: 'issued' | 'failed';
  invoiceId: number | null;
  invoiceCode: string;
  invoiceNo: string | null;
  issuedAt: string | null;
  errorCode: string | null;
  errorMessage: string | null;
};

function fromResult(r: IssueResult): RowOutcome {
  if (r.status === 'issued') {
    return {
      status: 'issued',
      invoiceId: r.invoice_id,
      invoiceCode: r.invoice_code,
      invoiceNo: r.invoice_no,
      issuedAt: r.issued_at,
      errorCode: null,
      errorMessage: null,
    };
  }
  return {
    status: 'failed',
    invoiceId: r.invoice_id,
    invoiceCode: '',
    invoiceNo: null,
    issuedAt: null,
    // Stryker disable next-line ConditionalExpression,StringLiteral: issueBlue never resolves with 'failed' (it throws), so that side is never taken
    errorCode: r.status === 'failed' ? 'failed' : 'unknown',
    // Stryker disable next-line ConditionalExpression,StringLiteral,LogicalOperator: as above
    errorMessage: r.status === 'failed' ? (r.error_message ?? '开票失败') : UNKNOWN_MESSAGE,
  };
}

/**
 * Issues one batch row through the single-invoice service (`issueBlue`) — the batch has no issuing
 * path of its own. The adapter: the row's stored request, the batch's store and uploader as the
 * actor, and the settling of an outcome left open (`issuing` after a crash, `unknown` after a time-out)
 * by reconciling that one serial with the channel.
 */
export async function issueBatchRow(app: FastifyInstance, row: ClaimedRow): Promise<RowOutcome> {
  // stored as the contract schema's own output at upload (defaults applied), so it is taken as is
  const req = row.request as BlueInvoiceRequest;
  const actor = { clientId: row.client_id, storeId: row.store_id, userId: row.created_by };
  const settle = async () => {
    // the row is ours (claimed), so an `issuing` invoice of its serial has nobody else working on it
    const s = await reconcileInvoices(app, {
      clientId: row.client_id,
      serialNo: req.serial_no,
      staleIssuingMs: 0,
      limit: 1,
      userId: row.created_by,
    });
    return s.results[0] ?? null;
  };
  try {
    let result = await issueBlue(app, actor, req);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: issueBlue throws CHANNEL_TIMEOUT for an unknown outcome, and settling an issued serial finds nothing
    if (result.status === 'issuing' || result.status === 'unknown') {
      const settled = await settle();
      // Stryker disable next-line ConditionalExpression: issuing a settled serial again answers its invoice as settled (`issuing` while the bureau does not show it)
      result = settled?.status === 'failed' ? await issueBlue(app, actor, req) : (settled ?? result);
    }
    return fromResult(result);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const data = (err.data ?? null) as Partial<IssueResult> | null;
    // Stryker disable next-line ConditionalExpression: after any other refusal the serial's invoice is failed or was never made, which reconciliation does not select
    if (err.code === INVOICE_CODE.CHANNEL_TIMEOUT) {
      const settled = await settle();
      if (settled?.status === 'issued') return fromResult(settled);
    }
    return {
      status: 'failed',
      invoiceId: typeof data?.invoice_id === 'number' ? data.invoice_id : null,
      invoiceCode: '',
      invoiceNo: null,
      issuedAt: null,
      errorCode: String(err.code),
      errorMessage: err.message,
    };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Stryker disable next-line ArithmeticOperator: the two more keys (2^31 - 1, and 2^31, which pg_advisory_lock(int, int) refuses) come once in 10^9 runners
const newKey = () => randomInt(1, 2 ** 31 - 1);

/**
 * Rows a lane claims at once (their outcomes are recorded together: fewer round trips per invoice).
 * Sized so a claim takes about CLAIM_TARGET_MS at the rate rows have been going: many rows with a
 * fast channel, one at a time with a slow one (an RPA channel takes seconds per invoice), so a
 * pause from another process takes effect within a fraction of a second either way.
 */
export const CLAIM_ROWS = { first: 4, min: 1, max: 32 } as const;
export const CLAIM_TARGET_MS = 250;

export type RunnerOptions = {
  lanes: number;
  sweepMs: number;
  /** fixed rows per claim (benchmarks) */
  claim?: number;
  /**
   * The clock rows are timed with to size the next claim, in milliseconds (`performance.now` by
   * default): tests give their own, so claim sizes do not depend on the machine's load.
   */
  now?: () => number;
};

export class BatchRunner {
  private key = newKey();
  private liveness: pg.Client | null = null;
  private livenessPromise: Promise<number> | null = null;
  private readonly active = new Map<number, Promise<void>>();
  /** batches paused or cancelled through this process: lanes give back the rows they hold */
  private readonly interrupted = new Set<number>();
  private stopped = false;
  private started = false;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly app: FastifyInstance,
    readonly opts: RunnerOptions,
  ) {}

  /** Sweeps now and every `sweepMs` (re-driving rows of dead runners, resuming restored batches). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => void this.sweep(), this.opts.sweepMs);
    this.timer.unref();
    void this.sweep();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // Stryker disable next-line ConditionalExpression: clearInterval(null) does nothing
    if (this.timer) clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
    await Promise.allSettled([...this.active.values()]);
    const c = this.liveness;
    this.liveness = null;
    if (c) await c.end().catch(() => undefined);
  }

  /** The runner's key, once its liveness lock is held (taken on first use). */
  private async liveKey(): Promise<number> {
    if (this.liveness) return this.key;
    this.livenessPromise ??= (async () => {
      const key = newKey();
      const o = this.app.pool.options;
      const client = new pg.Client({
        connectionString: o.connectionString,
        host: o.host,
        port: o.port,
        user: o.user,
        password: o.password as string | undefined,
        database: o.database,
        application_name: 'kaipiao-batch-runner',
      });
      client.on('error', (err) => {
        // the lock is gone with the connection: claim nothing more under this key
        this.app.log.error({ err }, 'batch runner liveness connection lost');
        // Stryker disable next-line ConditionalExpression: a lost connection's errors (the FATAL message, then its end) come together, before a new connection can be made
        if (this.liveness === client) this.liveness = null;
      });
      await client.connect();
      await repo.takeLivenessLock(client, key);
      this.key = key;
      this.liveness = client;
      return key;
    })().finally(() => {
      this.livenessPromise = null;
    });
    return this.livenessPromise;
  }

  isActive(batchId: number): boolean {
    return this.active.has(batchId);
  }

  /** Starts working on a running batch in this process (no-op when already on it or too busy). */
  ensure(batchId: number): boolean {
    this.interrupted.delete(batchId);
    if (this.stopped || this.active.has(batchId)) return !this.stopped;
    if (this.active.size >= MAX_ACTIVE_BATCHES) return false;
    const run = this.run(batchId)
      .catch((err) => this.app.log.error({ err, batchId }, 'batch run failed'))
      .finally(() => {
        // a batch waiting for a slot is taken by the next sweep
        this.active.delete(batchId);
      });
    this.active.set(batchId, run);
    return true;
  }

  /** Resolves once this process has stopped working on `batchId` (or on every batch). */
  async idle(batchId?: number): Promise<void> {
    for (;;) {
      const runs = batchId === undefined ? [...this.active.values()] : [this.active.get(batchId)];
      const pending = runs.filter((r): r is Promise<void> => r !== undefined);
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  private async run(batchId: number): Promise<void> {
    await this.liveKey();
    await Promise.all(Array.from({ length: this.opts.lanes }, () => this.lane(batchId)));
    this.interrupted.delete(batchId);
    await this.settle(batchId);
  }

  /**
   * Stops this process's lanes on a batch between two rows (pause, cancel): the rows they claimed
   * and did not start go back to the queue. Other processes notice at their next claim.
   */
  interrupt(batchId: number): void {
    // Stryker disable next-line ConditionalExpression: ensure() forgets an interruption before it starts a run
    if (this.active.has(batchId)) this.interrupted.add(batchId);
  }

  private async lane(batchId: number): Promise<void> {
    let errors = 0;
    let msPerRow: number | null = null;
    const now = this.opts.now ?? (() => performance.now());
    while (!this.stopped && !this.interrupted.has(batchId)) {
      // Stryker disable next-line ConditionalExpression: liveKey() answers at once while the lock is held
      if (!this.liveness) {
        try {
          await this.liveKey();
        } catch (err) {
          this.app.log.error({ err }, 'batch runner cannot take its liveness lock');
          return;
        }
      }
      const n =
        this.opts.claim ??
        (msPerRow === null
          ? CLAIM_ROWS.first
          : Math.max(
              CLAIM_ROWS.min,
              Math.min(CLAIM_ROWS.max, Math.floor(CLAIM_TARGET_MS / Math.max(msPerRow, 0.1))),
            ));
      const rows = await this.claim(batchId, n);
      if (rows.length === 0) return;
      const done: { row: ClaimedRow; outcome: RowOutcome }[] = [];
      const started = now();
      try {
        for (const row of rows) {
          if (this.stopped || this.interrupted.has(batchId)) break;
          done.push({ row, outcome: await issueBatchRow(this.app, row) });
        }
        await this.finish(done);
        // Stryker disable next-line MethodExpression: giving back touches only rows still issuing under the lane's key, which the recorded ones are not
        await this.release(rows.slice(done.length));
        if (done.length > 0) {
          const ms = (now() - started) / done.length;
          msPerRow = msPerRow === null ? ms : 0.7 * msPerRow + 0.3 * ms;
        }
        errors = 0;
      } catch (err) {
        // the database or the process is going away: record what was issued, give the rest back
        this.app.log.error({ err, batchId }, 'batch rows could not be issued');
        await this.finish(done).catch(() => undefined);
        // Stryker disable next-line MethodExpression: as above
        await this.release(rows.slice(done.length)).catch(() => undefined);
        if (++errors >= 3 || this.stopped) return;
        await sleep(1000);
      }
    }
  }

  /**
   * Takes the next pending rows (up to `n`, in order) of a running batch whose bookkeeping service
   * is active; other lanes and processes skip the locked ones.
   */
  private async claim(batchId: number, n: number): Promise<ClaimedRow[]> {
    const key = this.key;
    const rows = await repo.claimRows(this.app.db, batchId, n, key);
    return rows.map((row) => ({ ...row, worker: key })).sort((a, b) => a.seq - b.seq);
  }

  /** Records the outcomes of claimed rows, in one statement. */
  private async finish(done: readonly { row: ClaimedRow; outcome: RowOutcome }[]): Promise<void> {
    if (done.length === 0) return;
    const first = done[0]!.row;
    await repo.recordOutcomes(
      this.app.db,
      first.batch_id,
      done.map(({ row, outcome: o }) => ({
        seq: row.seq,
        worker: row.worker,
        status: o.status,
        invoice_id: o.invoiceId,
        invoice_code: o.invoiceCode,
        invoice_no: o.invoiceNo,
        issued_at: o.issuedAt,
        error_code: o.errorCode,
        error_message: o.errorMessage,
      })),
    );
  }

  /** Gives claimed rows back: to the queue, or skipped when the batch was cancelled meanwhile. */
  private async release(rows: readonly ClaimedRow[]): Promise<void> {
    if (rows.length === 0) return;
    const first = rows[0]!;
    await repo.releaseRows(
      this.app.db,
      first.batch_id,
      rows.map((r) => r.seq),
      first.worker,
    );
  }

  /**
   * After the lanes stop: the batch's invoices are marked as made by a batch (one set-based
   * statement, not one more write per invoice), then the batch pauses for an expired bookkeeping
   * service or closes when nothing is left.
   */
  private async settle(batchId: number): Promise<void> {
    await repo.settleBatch(this.app.db, batchId);
  }

  /**
   * Housekeeping of every process that runs batches: rows of dead runners back to the queue (or,
   * in a cancelled batch, settled from their invoice), bookkeeping pauses and resumes, and running
   * batches nobody in this process works on yet.
   */
  sweep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.sweeping ??= this.sweepOnce()
      .catch((err) => {
        if (!this.stopped) this.app.log.warn({ err }, 'batch sweep failed');
      })
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const db = this.app.db;
    const me = this.liveness ? this.key : 0;
    const stranded = await repo.strandedRows(db, me);
    for (const r of stranded) {
      if (r.batch_status === 'cancelled') {
        // the batch will not run again: settle the row from the invoice its serial has, if any
        await repo.settleCancelledRow(db, r, UNKNOWN_MESSAGE);
      } else {
        await repo.requeueRow(db, r);
      }
    }
    if (stranded.length) {
      this.app.log.info({ rows: stranded.length }, 'batch rows of a stopped runner re-queued');
    }

    // spec §1: paused while the bookkeeping service is expired, resumed once it is restored
    await repo.pauseExpiredBookkeeping(db);
    await repo.resumeRestoredBookkeeping(db);

    for (const id of await repo.runningBatchIds(db)) {
      // Stryker disable next-line ConditionalExpression: ensure() refuses once stopped
      if (this.stopped) return;
      this.ensure(id);
    }
  }
}
