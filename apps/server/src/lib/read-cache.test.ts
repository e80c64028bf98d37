import { describe, expect, it } from 'vitest';
import { ReadCaches, storesKey } from './read-cache.ts';

describe('read caches (lib/read-cache.ts)', () => {
  const counter = () => {
    let n = 0;
    return async () => ++n;
  };

  it('serves a stored answer until its user or business is forgotten, and only theirs', async () => {
    const caches = new ReadCaches();
    const cache = caches.cache<number>({ ttlMs: 60_000 });
    const load = counter();
    const tags = { userId: 1, clientId: 10 };
    expect(await cache.get('a', tags, load)).toBe(1);
    expect(await cache.get('a', tags, load)).toBe(1);
    caches.forgetUser(2);
    caches.forgetClient(11);
    expect(await cache.get('a', tags, load)).toBe(1);
    caches.forgetClient(10);
    expect(await cache.get('a', tags, load)).toBe(2);
    caches.forgetUser(1);
    expect(await cache.get('a', tags, load)).toBe(3);
    caches.forgetAll();
    expect(await cache.get('a', tags, load)).toBe(4);
  });

  it('never serves an answer whose load was under way when its business was forgotten', async () => {
    const caches = new ReadCaches();
    const cache = caches.cache<string>({ ttlMs: 60_000 });
    let release!: () => void;
    const slow = cache.get('k', { clientId: 1 }, () => new Promise((r) => (release = () => r('old'))));
    caches.forgetClient(1); // a write commits while the old answer is being read
    release();
    expect(await slow).toBe('old'); // its own caller gets what it read
    expect(await cache.get('k', { clientId: 1 }, async () => 'new')).toBe('new');
  });

  it('shares one load between concurrent misses of one generation, not across a forget', async () => {
    const caches = new ReadCaches();
    const cache = caches.cache<number>({ ttlMs: 60_000 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 10));
      return loads;
    };
    const [a, b] = await Promise.all([
      cache.get('k', { clientId: 1 }, load),
      cache.get('k', { clientId: 1 }, load),
    ]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    const first = cache.get('k', { clientId: 2 }, load);
    caches.forgetClient(2);
    const second = cache.get('k', { clientId: 2 }, load);
    await Promise.all([first, second]);
    expect(loads).toBe(3);
  });

  it('ends an answer at its own time on the given clock, and after the TTL', async () => {
    let now = 1_000;
    const caches = new ReadCaches();
    const timed = caches.cache<{ until: number | null }>({
      ttlMs: 60_000,
      until: (v) => v.until,
      now: () => now,
    });
    let loads = 0;
    const load = async () => ({ until: 2_000 + loads++ });
    await timed.get('k', {}, load);
    now = 1_999;
    await timed.get('k', {}, load);
    expect(loads).toBe(1);
    now = 2_000;
    await timed.get('k', {}, load);
    expect(loads).toBe(2);

    const brief = caches.cache<number>({ ttlMs: 20 });
    const count = counter();
    expect(await brief.get('k', {}, count)).toBe(1);
    expect(await brief.get('k', {}, count)).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(await brief.get('k', {}, count)).toBe(2);
  });

  it('does not keep a failed load, and keys store lists whatever their order', async () => {
    const cache = new ReadCaches().cache<number>({ ttlMs: 60_000 });
    await expect(cache.get('k', {}, async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', {}, async () => 7)).toBe(7);
    expect(storesKey([3, 1, 2])).toBe(storesKey(new Set([2, 3, 1])));
    expect(storesKey(null)).toBe('*');
    expect(storesKey([])).not.toBe(storesKey(null));
  });
});
