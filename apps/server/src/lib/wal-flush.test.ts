import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { createWalFlusher, WAL_FLUSH_SQL } from './wal-flush.ts';

/** A flush the test ends by hand; `started` counts the flushes begun. */
function manualFlushes() {
  const ends: Array<(err?: Error) => void> = [];
  const run = () =>
    new Promise<void>((resolve, reject) => {
      ends.push((err) => (err ? reject(err) : resolve()));
    });
  return { run, ends, started: () => ends.length };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createWalFlusher', () => {
  it('starts a flush at once when none is in flight', async () => {
    const m = manualFlushes();
    const flush = createWalFlusher(m.run);
    const p = flush();
    expect(m.started()).toBe(1);
    m.ends[0]!();
    await expect(p).resolves.toBeUndefined();
  });

  it('a call during a flush waits for the next one, which all such calls share', async () => {
    const m = manualFlushes();
    const flush = createWalFlusher(m.run);
    let firstDone = false;
    let laterDone = 0;
    flush().then(() => {
      firstDone = true;
    });
    // these commits happened after the first flush began: it may not cover them
    const later = [flush(), flush(), flush()].map((p) => p.then(() => laterDone++));
    expect(m.started()).toBe(1);
    m.ends[0]!();
    await tick();
    expect(firstDone).toBe(true);
    expect(laterDone).toBe(0);
    // one more flush for the three of them
    expect(m.started()).toBe(2);
    m.ends[1]!();
    await Promise.all(later);
    expect(laterDone).toBe(3);
    expect(m.started()).toBe(2);
  });

  it('a failed flush fails its callers, and the next call starts a fresh one', async () => {
    const m = manualFlushes();
    const flush = createWalFlusher(m.run);
    const p = flush();
    const waiting = flush();
    m.ends[0]!(new Error('connection lost'));
    await expect(p).rejects.toThrow('connection lost');
    await tick();
    // the waiting caller still gets a flush of its own
    expect(m.started()).toBe(2);
    m.ends[1]!();
    await expect(waiting).resolves.toBeUndefined();
    const again = flush();
    expect(m.started()).toBe(3);
    m.ends[2]!();
    await expect(again).resolves.toBeUndefined();
  });
});

describe('the WAL flush statement (a real PostgreSQL)', () => {
  it('makes an asynchronous commit durable: the flushed WAL position passes it, every time', async () => {
    const t = await buildTestApp({ seed: false });
    const client = await t.pool.connect();
    try {
      await client.query('create table if not exists kp_flush_probe_t (n int)');
      let covered = 0;
      for (let i = 0; i < 40; i++) {
        await client.query('begin');
        await client.query("set local synchronous_commit = 'off'");
        await client.query('insert into kp_flush_probe_t values ($1)', [i]);
        await client.query('commit');
        // where the WAL ends now: the asynchronous commit record is before it
        const { rows } = await client.query<{ lsn: string }>(
          'select pg_current_wal_insert_lsn()::text as lsn',
        );
        await t.db.execute(WAL_FLUSH_SQL);
        const flushed = await client.query<{ ok: boolean }>(
          'select pg_current_wal_flush_lsn() >= $1::pg_lsn as ok',
          [rows[0]!.lsn],
        );
        if (flushed.rows[0]!.ok) covered++;
      }
      expect(covered).toBe(40);
    } finally {
      await client.query('drop table if exists kp_flush_probe_t');
      client.release();
    }
  });
});
