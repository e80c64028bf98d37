import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { batchRoutes } from './routes.ts';
import { BATCH_LANES, BatchRunner } from './runner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the batch runner of this process; null in a `web`-role process */
    batchRunner: BatchRunner | null;
    /** hands a running batch to a runner: this process's, or a worker's through pg-boss */
    batchKick: (batchId: number) => void;
    /** tells this process's runner a batch was paused or cancelled */
    batchInterrupt: (batchId: number) => void;
  }
}

/** pg-boss queue that carries "this batch is running" from a web process to a worker. */
export const BATCH_JOB = 'batch-issue';

/**
 * Batch issuing (spec §2 /invoice/batch, domain.md §9 item 5): the routes, and the runner in
 * processes that run background work (KAIPIAO_ROLE worker | all). In a `web` process a started
 * batch is handed to the workers as a pg-boss job; the workers' sweep also finds it.
 */
export const batchesModule = fp(async (app: FastifyInstance) => {
  const runsHere = app.env.KAIPIAO_ROLE !== 'web';
  const poolMax = app.pool.options.max ?? 10;
  const runner = runsHere
    ? new BatchRunner(app, {
        // each lane uses one pooled connection at a time; leave some for the requests
        lanes: Math.max(1, Math.min(BATCH_LANES, poolMax - 2)),
        sweepMs: 2000,
      })
    : null;
  app.decorate('batchRunner', runner);
  app.decorate('batchKick', (batchId: number) => {
    if (runner) {
      runner.ensure(batchId);
      return;
    }
    if (app.jobs.enabled) {
      app.boss
        .send(BATCH_JOB, { batchId })
        .catch((err: unknown) => app.log.error({ err, batchId }, 'could not queue the batch'));
    }
  });

  app.decorate('batchInterrupt', (batchId: number) => runner?.interrupt(batchId));

  app.jobs.define<{ batchId: number }>(
    BATCH_JOB,
    async ([job]) => {
      if (!job || !runner) return;
      runner.ensure(job.data.batchId);
      await runner.idle(job.data.batchId);
    },
    { queue: { retryLimit: 0, expireInSeconds: 4 * 3600 } },
  );

  if (runner) {
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());
  }
  await app.register(batchRoutes);
});
