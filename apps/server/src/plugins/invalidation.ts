import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { ReadCaches } from '../lib/read-cache.ts';

export const INVALIDATE_CHANNEL = 'kp_invalidate';
// NOTIFY payloads stop at 8000 bytes; 64-char hashes in batches of 100 stay well under it
const BATCH = 100;
const RECONNECT_MS = 2_000;

/** ids per NOTIFY of the read caches' part: 2 × 300 ids of up to 11 characters stay under 8000 bytes */
const ID_BATCH = 300;
/**
 * `invalidateSoon`: the businesses and users forgotten within this window go to the other processes
 * in one NOTIFY at its end (issue 11: a NOTIFY per group of invoices issued cost 7–11% of the
 * issuing route's throughput at 10 connections, in PostgreSQL's notify queue and the listeners)
 */
export const SOON_MS = 50;

/**
 * What another process must stop trusting from its caches: sessions; a user's access (and the
 * user's read caches); the read caches (lib/read-cache.ts) of some users and businesses.
 */
export type Invalidation = { sessions?: string[]; userId?: number; users?: number[]; clients?: number[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A POST that only reads (the spec sends searches as POST: the library list, the detail): its
     * answer forgets no read cache and sends no NOTIFY.
     */
    readsOnly?: true;
  }
  interface FastifyInstance {
    /** Forgets sessions / a user's access here at once and in every other process via NOTIFY. */
    invalidate(what: Invalidation): Promise<void>;
    /** the first screen's read caches of this process (lib/read-cache.ts) */
    readCaches: ReadCaches;
    /**
     * Forgets the read caches of these users and businesses here at once and in every other process
     * within SOON_MS, in one NOTIFY with everything else forgotten in that window: for writes whose
     * answer does not wait for the announcement anyway (an issued invoice's hook runs after the
     * answer). Not awaited; a failure is logged.
     */
    invalidateSoon(what: { users?: number[]; clients?: number[] }): void;
  }
  interface FastifyRequest {
    /**
     * Set by a handler whose every write is announced otherwise: an invoice issued (the issued
     * hook forgets its business, modules/invoices/index.ts — here before the answer leaves, as the
     * hooks start in a microtask queued ahead of it, and in the other processes by its NOTIFY).
     * The request then does not forget the read caches itself: no NOTIFY of its own per invoice on
     * the issuing route. A refused, failed or unknown issue leaves it unset and forgets them as
     * any write does.
     */
    writesAnnounced: boolean;
  }
}

/**
 * Cross-process revocation (architecture.md §1: LISTEN/NOTIFY, no home-made cluster code): a
 * logout or password change in one web process reaches the 10 s session cache of all the others.
 */
export const invalidationPlugin = fp(async (app: FastifyInstance) => {
  /** this process's name on the channel */
  const origin = randomUUID();
  const reads = new ReadCaches();
  app.decorate('readCaches', reads);
  app.decorateRequest('writesAnnounced', false);
  const apply = (what: Invalidation) => {
    for (const hash of what.sessions ?? []) app.accessService.forgetSession(hash);
    if (what.userId !== undefined) {
      app.accessService.forgetUser(what.userId);
      reads.forgetUser(what.userId);
    }
    for (const id of what.users ?? []) reads.forgetUser(id);
    for (const id of what.clients ?? []) reads.forgetClient(id);
  };

  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closing = false;

  const listen = async (missedSome: boolean) => {
    const c = new pg.Client(app.pool.options);
    c.on('notification', (msg) => {
      if (msg.channel !== INVALIDATE_CHANNEL || !msg.payload) return;
      try {
        const what = JSON.parse(msg.payload) as Invalidation & { from?: string };
        // this process applied its own at once (a second time would only drop fresh answers again)
        if (what.from !== origin) apply(what);
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
    if (missedSome) {
      app.accessService.forgetAll();
      reads.forgetAll();
    }
  };
  const retry = (err: unknown) => {
    if (closing) return;
    app.log.warn({ err }, 'invalidation listener reconnect failed');
    timer = setTimeout(() => void listen(true).catch(retry), RECONNECT_MS);
  };

  await listen(false);

  // A NOTIFY's transaction takes an id and would wait for the disk at commit, although listeners
  // hear it at commit either way and a crash of PostgreSQL drops their connections (each then
  // forgets everything, `missedSome`): it commits without waiting (one WAL flush less per batch of
  // invoices issued).
  const notify = (batch: Invalidation) =>
    app.pool.query("select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [
      INVALIDATE_CHANNEL,
      JSON.stringify({ ...batch, from: origin }),
    ]);

  // The read caches' users and businesses of one turn of the event loop go out in one NOTIFY
  // (a burst of writes, a group of invoices issued together): every caller waits for that one.
  let pending: { users: Set<number>; clients: Set<number>; sent: Promise<void> } | null = null;
  const publishReads = (users: readonly number[], clients: readonly number[]): Promise<void> => {
    if (!pending) {
      const next = {
        users: new Set<number>(),
        clients: new Set<number>(),
        sent: new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
          if (pending === next) pending = null;
          const u = [...next.users];
          const c = [...next.clients];
          for (let i = 0; i < Math.max(u.length, c.length); i += ID_BATCH) {
            await notify({ users: u.slice(i, i + ID_BATCH), clients: c.slice(i, i + ID_BATCH) });
          }
        }),
      };
      pending = next;
    }
    for (const id of users) pending.users.add(id);
    for (const id of clients) pending.clients.add(id);
    return pending.sent;
  };

  let soon: { users: Set<number>; clients: Set<number>; timer: NodeJS.Timeout } | null = null;
  const sendSoon = () => {
    if (!soon) return;
    const { users, clients, timer } = soon;
    clearTimeout(timer);
    soon = null;
    publishReads([...users], [...clients]).catch((err: unknown) =>
      app.log.warn({ err }, 'read-cache invalidation not announced'),
    );
  };
  app.decorate('invalidateSoon', (what: { users?: number[]; clients?: number[] }) => {
    apply(what);
    soon ??= { users: new Set(), clients: new Set(), timer: setTimeout(sendSoon, SOON_MS) };
    for (const id of what.users ?? []) soon.users.add(id);
    for (const id of what.clients ?? []) soon.clients.add(id);
  });

  app.decorate('invalidate', async (what: Invalidation) => {
    apply(what);
    const sessions = what.sessions ?? [];
    const batches: Invalidation[] = [];
    for (let i = 0; i < sessions.length; i += BATCH) batches.push({ sessions: sessions.slice(i, i + BATCH) });
    if (what.userId !== undefined) batches.push({ userId: what.userId });
    const reads =
      (what.users?.length ?? 0) + (what.clients?.length ?? 0) > 0
        ? publishReads(what.users ?? [], what.clients ?? [])
        : undefined;
    for (const batch of batches) await notify(batch);
    await reads;
  });

  // Any request that may write (not GET/HEAD) forgets the read caches of its user and business
  // before it is answered — whatever the route wrote, so a new write route cannot be forgotten.
  // Failed requests too: a refusal after a partial write is still a write.
  app.addHook('onSend', async (req) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !req.session || req.writesAnnounced) return;
    if (req.routeOptions.config.readsOnly) return;
    await app.invalidate({ users: [req.session.userId], clients: req.scope ? [req.scope.clientId] : [] });
  });

  app.addHook('preClose', async () => {
    // what is still waiting goes out before the pool closes
    sendSoon();
    await pending?.sent;
  });

  app.addHook('onClose', async () => {
    closing = true;
    if (timer) clearTimeout(timer);
    await client?.end().catch(() => undefined);
  });
});
