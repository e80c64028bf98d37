import { describe, expect, it } from 'vitest';
import { createWalFlusher } from './wal-flush.ts';

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
