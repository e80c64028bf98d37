/**
 * The first screen's read caches (issue 11 item 6): answers kept in the process and forgotten the
 * moment a write may have changed them, here and — through `app.invalidate` (plugins/invalidation.ts,
 * LISTEN/NOTIFY) — in every other process.
 *
 * An answer is stored with what it depends on (`CacheTags`: a user, a business) and the generation
 * of each when its load began. Forgetting a user or a business bumps its generation: every answer
 * stamped with an older one is stale at once, however many there are, and so is an answer whose
 * load was already under way when the write committed (it is stored with the old stamp and never
 * served). A time-to-live bounds what nothing announces (a row written by hand in psql).
 */

/** What a cached answer depends on: a write for this user or this business forgets it. */
export type CacheTags = { userId?: number; clientId?: number };

type Stamp = { all: number; user: number; client: number };

type Entry<V> = { value: V; stamp: Stamp; tags: CacheTags; expires: number; until: number | null };

export type ReadCacheOptions<V> = {
  /** how long an answer may be served when no write is announced (the backstop, in real time) */
  ttlMs: number;
  maxEntries?: number;
  /**
   * An answer that turns on time (a login that lapses): when, on `now`'s clock, it stops being
   * true. null = not before a write or the TTL.
   */
  until?: (value: V) => number | null;
  /** the clock `until` is read on (the app's clock; the system clock by default) */
  now?: () => number;
};

/** The generations every cache of the process is checked against (one per app: `app.readCaches`). */
export class ReadCaches {
  private all = 0;
  private readonly users = new Map<number, number>();
  private readonly clients = new Map<number, number>();

  /** A cache of answers of one kind. */
  cache<V>(opts: ReadCacheOptions<V>): ReadCache<V> {
    return new ReadCache<V>(this, opts);
  }

  forgetUser(userId: number): void {
    this.users.set(userId, (this.users.get(userId) ?? 0) + 1);
  }

  forgetClient(clientId: number): void {
    this.clients.set(clientId, (this.clients.get(clientId) ?? 0) + 1);
  }

  /** Everything (the invalidation listener was away: what it missed is unknown). */
  forgetAll(): void {
    this.all += 1;
  }

  stamp(tags: CacheTags): Stamp {
    return {
      all: this.all,
      user: tags.userId === undefined ? 0 : (this.users.get(tags.userId) ?? 0),
      client: tags.clientId === undefined ? 0 : (this.clients.get(tags.clientId) ?? 0),
    };
  }

  current(stamp: Stamp, tags: CacheTags): boolean {
    const now = this.stamp(tags);
    return now.all === stamp.all && now.user === stamp.user && now.client === stamp.client;
  }
}

export class ReadCache<V> {
  private readonly map = new Map<string, Entry<V>>();
  /** loads under way, by key and stamp: concurrent misses share one load of the same generation */
  private readonly loading = new Map<string, Promise<V>>();
  private readonly maxEntries: number;

  constructor(
    private readonly registry: ReadCaches,
    private readonly opts: ReadCacheOptions<V>,
  ) {
    this.maxEntries = opts.maxEntries ?? 10_000;
  }

  /**
   * The answer for `key` (of the tags' user and business: they are part of the key) — the stored
   * one while nothing it depends on was written, else `load`'s.
   */
  async get(answerKey: string, tags: CacheTags, load: () => Promise<V>): Promise<V> {
    const key = `${tags.userId ?? ''}:${tags.clientId ?? ''}:${answerKey}`;
    const hit = this.map.get(key);
    if (hit && this.fresh(hit)) return hit.value;
    if (hit) this.map.delete(key);
    const stamp = this.registry.stamp(tags);
    const flight = `${key}\u0000${stamp.all}:${stamp.user}:${stamp.client}`;
    const running = this.loading.get(flight);
    if (running) return running;
    const p = load().then(
      (value) => {
        this.loading.delete(flight);
        this.store(key, { value, stamp, tags, expires: Date.now() + this.opts.ttlMs, until: null });
        return value;
      },
      (err: unknown) => {
        this.loading.delete(flight);
        throw err;
      },
    );
    this.loading.set(flight, p);
    return p;
  }

  private fresh(e: Entry<V>): boolean {
    if (e.expires <= Date.now()) return false;
    if (e.until !== null && (this.opts.now?.() ?? Date.now()) >= e.until) return false;
    return this.registry.current(e.stamp, e.tags);
  }

  private store(key: string, e: Entry<V>): void {
    e.until = this.opts.until?.(e.value) ?? null;
    this.map.delete(key);
    if (this.map.size >= this.maxEntries) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(key, e);
  }

  /** Stored answers (tests). */
  get size(): number {
    return this.map.size;
  }
}

/** A cache key part for a list of store ids (null = every store). */
export const storesKey = (ids: Iterable<number> | null): string =>
  ids === null ? '*' : [...ids].sort((a, b) => a - b).join(',');

const encodedBodies = new WeakMap<object, string>();

/**
 * The `ok` envelope of a cached answer as JSON text, made once per stored answer (the menu-list
 * way, modules/authority/routes.ts): the route's response schema parses it then — stripping what
 * is not in the contract — and every later call sends the same text without serialising again.
 * Send it with `sendEncoded`.
 */
export function encodedOk<V extends object>(answer: V, schema: { parse(data: unknown): unknown }): string {
  let body = encodedBodies.get(answer);
  if (body === undefined) {
    body = JSON.stringify({ code: 0, message: 'ok', data: schema.parse(answer) });
    encodedBodies.set(answer, body);
  }
  return body;
}

/**
 * Sends JSON text as it is (Fastify serialises only objects): the route's response schema, which
 * documents the answer, was applied by `encodedOk` when the text was made.
 */
export function sendEncoded<R extends { type(contentType: string): R }>(reply: R, body: string): R {
  // the route's typed send expects its schema's object; a string is sent as it is
  return (reply.type('application/json; charset=utf-8') as unknown as { send(text: string): R }).send(body);
}
