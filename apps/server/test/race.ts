import pg from 'pg';

/**
 * A lock the test holds from a connection of its own: rows selected `for update` (or `for no key
 * update`) in a transaction left open. Requests that need those rows queue behind it at the very
 * statement that takes them — after everything they read before — and go on together when it is
 * released: a real race, whatever order the requests happened to start in.
 */
export type HeldLock = {
  /** the rows the lock statement returned */
  rows: Record<string, unknown>[];
  /** how many sessions of the database wait for a lock now */
  waiting(): Promise<number>;
  /** resolves once `n` sessions of the database wait for a lock; fails after `timeoutMs` */
  waiters(n: number, timeoutMs?: number): Promise<void>;
  /** what the database's other busy sessions are doing (for the message of a race that did not happen) */
  busy(): Promise<string>;
  /** ends the transaction: the queued statements go on */
  release(): Promise<void>;
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function holdLock(url: string, lockSql: string, params: unknown[] = []): Promise<HeldLock> {
  const client = new pg.Client(url);
  await client.connect();
  await client.query('begin');
  const locked = await client.query(lockSql, params);
  if (locked.rowCount === 0) {
    await client.query('rollback');
    await client.end();
    throw new Error(`holdLock: no row to lock (${lockSql})`);
  }
  let released = false;
  const held: HeldLock = {
    rows: locked.rows,
    async waiting() {
      // pg_stat_activity is read once per transaction unless the snapshot is cleared
      await client.query('select pg_stat_clear_snapshot()');
      const r = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      return r.rows[0]!.n;
    },
    async waiters(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      let seen = 0;
      while (!released) {
        seen = await held.waiting();
        if (seen >= n) return;
        if (Date.now() > until) break;
        await pause(5);
      }
      throw new Error(`holdLock: ${seen} of ${n} sessions came to wait for the lock; ${await held.busy()}`);
    },
    async busy() {
      await client.query('select pg_stat_clear_snapshot()');
      const r = await client.query<{ state: string; wait: string | null; query: string }>(
        `select state, wait_event_type || ':' || wait_event as wait, left(query, 80) as query
         from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
      );
      return JSON.stringify(r.rows);
    },
    async release() {
      if (released) return;
      released = true;
      await client.query('commit');
      await client.end();
    },
  };
  return held;
}

/**
 * Runs `calls` at once behind a held lock (`holdLock`): once every one of them is queued for a
 * lock (or has already answered: it did not need the locked rows, which the caller's assertions
 * will tell), releases them together and answers their results in order. Fails after `timeoutMs`
 * when some call neither queues nor answers.
 */
export async function raceBehindLock<T>(opts: {
  url: string;
  lock: string;
  params?: unknown[];
  calls: (() => Promise<T>)[];
  timeoutMs?: number;
}): Promise<T[]> {
  const held = await holdLock(opts.url, opts.lock, opts.params);
  let answered = 0;
  const running = opts.calls.map((call) =>
    call().finally(() => {
      answered++;
    }),
  );
  const settled = Promise.allSettled(running);
  try {
    const until = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      const waiting = await held.waiting();
      if (waiting + answered >= running.length) break;
      if (Date.now() > until) {
        throw new Error(
          `raceBehindLock: ${waiting} of ${running.length} calls came to wait for the lock, ${answered} answered; ${await held.busy()}`,
        );
      }
      await pause(5);
    }
  } finally {
    await held.release();
  }
  await settled;
  return Promise.all(running);
}
