import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';

export const INVALIDATE_CHANNEL = 'kp_invalidate';
// NOTIFY payloads stop at 8000 bytes; 64-char hashes in batches of 100 stay well under it
const BATCH = 100;
const RECONNECT_MS = 2_000;

/** What another process must stop trusting from its caches. */
export type Invalidation = { sessions?: string[]; userId?: number };

declare module 'fastify' {
  interface FastifyInstance {
    /** Forgets sessions / a user's access here at once and in every other process via NOTIFY. */
    invalidate(what: Invalidation): Promise<void>;
  }
}

/**
 * Cross-process revocation (architecture.md §1: LISTEN/NOTIFY, no home-made cluster code): a
 * logout or password change in one web process reaches the 10 s session cache of all the others.
 */
export const invalidationPlugin = fp(async (app: FastifyInstance) => {
  const apply = (what: Invalidation) => {
    for (const hash of what.sessions ?? []) app.accessService.forgetSession(hash);
    if (what.userId !== undefined) app.accessService.forgetUser(what.userId);
  };

  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closing = false;

  const listen = async (missedSome: boolean) => {
    const c = new pg.Client(app.pool.options);
    c.on('notification', (msg) => {
      if (msg.channel !== INVALIDATE_CHANNEL || !msg.payload) return;
      try {
        apply(JSON.parse(msg.payload) as Invalidation);
      } catch (err) {
        app.log.warn({ err }, 'bad invalidation payload');
      }
    });
    c.on('error', (err) => {
      if (closing) return;
      app.log.warn({ err }, 'invalidation listener lost; reconnecting');
      client = null;
      c.end().catch(() => undefined);
      timer = setTimeout(() => void listen(true).catch(retry), RECONNECT_MS);
    });
    await c.connect();
    await c.query(`LISTEN ${INVALIDATE_CHANNEL}`);
    client = c;
    // whatever was published while we were not listening is lost: drop every cached session
    if (missedSome) app.accessService.forgetAll();
  };
  const retry = (err: unknown) => {
    if (closing) return;
    app.log.warn({ err }, 'invalidation listener reconnect failed');
    timer = setTimeout(() => void listen(true).catch(retry), RECONNECT_MS);
  };

  await listen(false);

  app.decorate('invalidate', async (what: Invalidation) => {
    apply(what);
    const sessions = what.sessions ?? [];
    const batches: Invalidation[] = [];
    for (let i = 0; i < sessions.length; i += BATCH) batches.push({ sessions: sessions.slice(i, i + BATCH) });
    if (what.userId !== undefined) batches.push({ userId: what.userId });
    for (const batch of batches) {
      await app.pool.query('select pg_notify($1, $2)', [INVALIDATE_CHANNEL, JSON.stringify(batch)]);
    }
  });

  app.addHook('onClose', async () => {
    closing = true;
    if (timer) clearTimeout(timer);
    await client?.end().catch(() => undefined);
  });
});
