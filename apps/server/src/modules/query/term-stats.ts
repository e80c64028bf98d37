import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { dueTermStats, refreshTermStats } from './term-stats-repo.ts';

/** Every ten minutes a worker refreshes the term statistics that are due (and once when it starts). */
export const TERM_STATS_JOB = 'library.term-stats';
export const TERM_STATS_CRON = '*/10 * * * *';
/**
 * Invoices sampled per business: the shares the plan compares are a few per cent and up, which
 * 20,000 names estimate well; a key the sample misses is rare, and rare is what the plan needs to know.
 */
export const TERM_SAMPLE_SIZE = 20_000;

/**
 * Refreshes the figures of every business that is due (dueTermStats), a chunk at a time; returns how
 * many it refreshed. Figures only steer the plan, so a business refreshed late searches slower, never
 * differently.
 */
export async function refreshDueTermStats(
  db: Db,
  opts: { staleAfter?: string; maxAge?: string; chunk?: number; sampleSize?: number } = {},
): Promise<number> {
  const settings = {
    staleAfter: opts.staleAfter ?? '1 hour',
    maxAge: opts.maxAge ?? '1 day',
    limit: opts.chunk ?? 100,
  };
  let total = 0;
  for (;;) {
    const due = await dueTermStats(db, settings);
    for (const clientId of due) await refreshTermStats(db, clientId, opts.sampleSize ?? TERM_SAMPLE_SIZE);
    total += due.length;
    if (due.length < settings.limit) return total;
  }
}

/** Registers the refresh: a pg-boss cron in worker processes; with jobs off nothing is scheduled. */
export function defineTermStatsJob(app: FastifyInstance): void {
  app.jobs.define(TERM_STATS_JOB, async () => {
    const n = await refreshDueTermStats(app.db);
    if (n > 0) app.log.info({ businesses: n }, 'library term statistics refreshed');
  });
  if (!app.jobs.worker) return;
  app.addHook('onReady', async () => {
    app.jobs
      .started()
      .then(() => app.boss.schedule(TERM_STATS_JOB, TERM_STATS_CRON))
      .then(() => app.boss.send(TERM_STATS_JOB, {}))
      .catch((err: unknown) => app.log.error({ err }, 'term statistics schedule failed'));
  });
}
