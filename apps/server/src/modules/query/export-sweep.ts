import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { claimExpiredExports } from './export-repo.ts';
import type { ExportDeps } from './export-runner.ts';

/** Every hour a worker deletes the files of expired exports, every business's (and once when it starts). */
export const EXPORT_SWEEP_JOB = 'export.sweep';
export const EXPORT_SWEEP_CRON = '0 * * * *';
/** expired records claimed per statement */
const CHUNK = 500;

/**
 * Deletes the files of expired exports (`expires_at` passed, `file_path` still set) and clears their
 * `file_path`; the records stay and list as expired. `clientId` limits it to one business (the
 * export routes sweep the session's business as they go); without it every business is swept — the
 * scheduled job. Claims at most `chunk` records a statement (`for update skip locked`, so concurrent
 * sweeps share the work) and removes their files before that chunk commits: a crash rolls the claim
 * back and the next sweep retries, so no file is orphaned. A missing file is fine; any other removal
 * error is logged and the record is cleared anyway. Returns how many records it cleared.
 */
export async function sweepExpiredExports(
  deps: Pick<ExportDeps, 'db' | 'dataDir' | 'log'>,
  opts: { clientId?: number; chunk?: number } = {},
): Promise<number> {
  const chunk = opts.chunk ?? CHUNK;
  let total = 0;
  for (;;) {
    const n = await deps.db.transaction(async (tx) => {
      const rows = await claimExpiredExports(tx, opts.clientId, chunk);
      await Promise.all(
        rows.map((r) =>
          fs.rm(path.join(deps.dataDir, r.file_path), { force: true }).catch((err: unknown) => {
            deps.log?.error({ err, recordId: r.id }, 'expired export file not removed');
          }),
        ),
      );
      return rows.length;
    });
    total += n;
    if (n < chunk) return total;
  }
}

/** Registers the sweep: a pg-boss cron in worker processes; with jobs off nothing is scheduled. */
export function defineExportSweepJob(app: FastifyInstance): void {
  app.jobs.define(EXPORT_SWEEP_JOB, async () => {
    const n = await sweepExpiredExports({ db: app.db, dataDir: app.env.dataDir, log: app.log });
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral: only the log line
    if (n > 0) app.log.info({ removed: n }, 'expired export files removed');
  });
  if (!app.jobs.worker) return;
  app.addHook('onReady', async () => {
    // Stryker disable ArrowFunction,ObjectLiteral,StringLiteral: the .catch below only logs; a failed schedule is swallowed either way
    app.jobs
      .started()
      .then(() => app.boss.schedule(EXPORT_SWEEP_JOB, EXPORT_SWEEP_CRON))
      .then(() => app.boss.send(EXPORT_SWEEP_JOB, {}))
      .catch((err: unknown) => app.log.error({ err }, 'export sweep schedule failed'));
    // Stryker restore ArrowFunction,ObjectLiteral,StringLiteral
  });
}
