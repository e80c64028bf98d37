import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import PgBoss from 'pg-boss';

/**
 * Background jobs on pg-boss 10 (architecture.md §1: batch issuing, delivery, document rendering,
 * exports), in the `pgboss` schema of the app's own database.
 *
 * Usage from a module plugin (at registration time, before `ready`):
 *
 *   app.jobs.define('export.invoices', async ([job]) => { … }, { queue: { retryLimit: 2 } });
 *   …later, in a route or hook:  await app.boss.send('export.invoices', { clientId, … });
 *
 * `app.boss` is the plain PgBoss instance (send / sendAfter / insert / getJobById / …).
 * `app.jobs.define` creates the queue on start, and runs its handler only in a process whose
 * role (KAIPIAO_ROLE) is `worker` or `all`; a `web` process only enqueues.
 *
 * KAIPIAO_JOBS=on|off (default: off when NODE_ENV=test, else on). When off, pg-boss is never
 * started (tests build many apps; none of them pays for the schema and the polling), `app.jobs.enabled`
 * is false and `app.boss.send` throws — callers that merely fan out optional work (rendering,
 * delivery) check `app.jobs.enabled` first. A test that needs jobs passes
 * `buildTestApp({ env: { KAIPIAO_JOBS: 'on' } })`.
 */
export type JobHandler<T> = (jobs: PgBoss.Job<T>[]) => Promise<unknown>;

export type JobDefinition = {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: handlers are typed where they are defined
  handler: JobHandler<any>;
  queue?: Omit<PgBoss.Queue, 'name'>;
  work?: PgBoss.WorkOptions;
};

export type Jobs = {
  /** pg-boss is started in this process */
  readonly enabled: boolean;
  /** this process runs handlers (role worker | all) */
  readonly worker: boolean;
  define<T extends object>(
    name: string,
    handler: JobHandler<T>,
    opts?: { queue?: Omit<PgBoss.Queue, 'name'>; work?: PgBoss.WorkOptions },
  ): void;
  /** Resolves when every queue defined so far exists (after `ready`); rejects when jobs are off. */
  started(): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    boss: PgBoss;
    jobs: Jobs;
  }
}

const DEFAULT_QUEUE: Omit<PgBoss.Queue, 'name'> = {
  retryLimit: 3,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

export const bossPlugin = fp(
  async (app: FastifyInstance) => {
    const env = app.env;
    const enabled = env.KAIPIAO_JOBS === 'on' || (env.KAIPIAO_JOBS === undefined && env.NODE_ENV !== 'test');
    const worker = env.KAIPIAO_ROLE === 'worker' || env.KAIPIAO_ROLE === 'all';
    const polling = env.NODE_ENV === 'test' ? 0.5 : 2;
    const po = app.pool.options;
    const boss = new PgBoss({
      ...(po.connectionString
        ? { connectionString: po.connectionString }
        : {
            host: po.host,
            port: po.port,
            user: po.user,
            password: po.password as string | undefined,
            database: po.database,
          }),
      schema: 'pgboss',
      application_name: 'kaipiao-jobs',
      max: env.NODE_ENV === 'test' ? 3 : 8,
      // maintenance and cron belong to the processes that work the queues
      supervise: worker,
      schedule: worker,
    });
    boss.on('error', (err) => app.log.error({ err }, 'pg-boss error'));

    const definitions: JobDefinition[] = [];
    let startedPromise: Promise<void> | null = null;
    let stopped = false;

    const jobs: Jobs = {
      enabled,
      worker: enabled && worker,
      define(name, handler, opts = {}) {
        if (startedPromise) throw new Error(`job ${name} defined after start`);
        definitions.push({ name, handler, queue: opts.queue, work: opts.work });
      },
      started() {
        if (!enabled) return Promise.reject(new Error('jobs are off (KAIPIAO_JOBS)'));
        return startedPromise ?? Promise.reject(new Error('jobs not started yet'));
      },
    };
    app.decorate('boss', boss);
    app.decorate('jobs', jobs);

    if (!enabled) return;

    app.addHook('onReady', async () => {
      startedPromise = (async () => {
        await boss.start();
        for (const def of definitions) {
          await boss.createQueue(def.name, { name: def.name, ...DEFAULT_QUEUE, ...def.queue });
        }
        if (!worker || stopped) return;
        for (const def of definitions) {
          await boss.work(def.name, { pollingIntervalSeconds: polling, ...def.work }, def.handler);
        }
      })();
      await startedPromise;
    });
    app.addHook('onClose', async () => {
      stopped = true;
      if (!startedPromise) return;
      await startedPromise.catch(() => undefined);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    });
  },
  { name: 'kaipiao-boss' },
);
