import { sql } from 'drizzle-orm';

/**
 * Makes commits durable that were made with `synchronous_commit = off`, shared between callers:
 * committing a transaction that has an id flushes the WAL up to its commit record, which covers
 * every commit made before it began. Each call resolves after a flush that *started* after the
 * call, so concurrent callers share one flush instead of queueing one each (group commit on our
 * side of the connection).
 */
export function createWalFlusher(runFlush: () => Promise<unknown>): () => Promise<void> {
  /** the flush in flight, if any: it may have begun before the caller's commit */
  let current: Promise<void> | null = null;
  /** the flush that begins when `current` ends, shared by everyone who asked meanwhile */
  let next: Promise<void> | null = null;

  const start = (): Promise<void> => {
    const p = runFlush().then(() => undefined);
    current = p;
    p.then(
      () => {
        if (current === p) current = null;
      },
      () => {
        if (current === p) current = null;
      },
    );
    return p;
  };

  return () => {
    if (!current) return start();
    if (!next) {
      next = current
        .catch(() => undefined)
        .then(() => {
          next = null;
          return start();
        });
    }
    return next;
  };
}

/**
 * The statement a flush runs. It must write WAL inside a transaction of its own and commit it
 * synchronously: only then does PostgreSQL flush the WAL up to its commit record. A transaction that
 * only takes an id (`select pg_current_xact_id()`, what this was until issue 11's profile) writes no
 * WAL, commits asynchronously and flushes nothing. A transactional logical-decoding message writes
 * one small record at any `wal_level` and is ignored by everything but a decoding plugin; the
 * commit is made synchronous whatever the server's default (the test clusters run without it).
 */
export const WAL_FLUSH_SQL = sql`
  select set_config('synchronous_commit', 'on', true), pg_logical_emit_message(true, 'kaipiao', 'flush')`;
