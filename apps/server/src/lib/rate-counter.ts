import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateCounters } from '../db/schema/index.ts';

/** Start of the fixed window `now` falls in. */
const windowOf = (windowSeconds: number, now: Date) => {
  const ms = now.getTime();
  return new Date(ms - (ms % (windowSeconds * 1000)));
};

/**
 * Fixed-window counters kept in PostgreSQL, so every web process counts against the same
 * number (architecture.md §1: the server is stateless).
 */

/** Adds one hit to the window `now` falls in and returns the window's new total (atomic upsert). */
export async function addHit(db: Db, key: string, windowSeconds: number, now: Date): Promise<number> {
  return (await upsertHit(db, key, windowOf(windowSeconds, now), now)).hits;
}

async function upsertHit(db: Db, key: string, windowStart: Date, now: Date) {
  const [row] = await db
    .insert(rateCounters)
    .values({ key, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateCounters.key, rateCounters.windowStart],
      set: { hits: sql`${rateCounters.hits} + 1` },
    })
    .returning({ hits: rateCounters.hits });
  // opportunistic cleanup keeps the table small
  if (Math.random() < 0.02) {
    await db.delete(rateCounters).where(lt(rateCounters.windowStart, new Date(now.getTime() - 86_400_000)));
  }
  return { hits: row?.hits ?? 1, windowStart };
}

/** A hit taken before the work it limits; `release` gives it back when the work should not count. */
export type HitReservation = { allowed: boolean; hits: number; release: () => Promise<void> };

/**
 * Reserves one of the `limit` hits of the window `now` falls in, in one statement, before the work
 * it limits (check and count are the same UPDATE, so a burst of parallel requests cannot all pass a
 * check made before any of them counted). Refused reservations stay counted: a caller hammering a
 * full window does not get back in sooner.
 */
export async function takeHit(
  db: Db,
  key: string,
  windowSeconds: number,
  limit: number,
  now: Date,
): Promise<HitReservation> {
  const { hits, windowStart } = await upsertHit(db, key, windowOf(windowSeconds, now), now);
  return {
    allowed: hits <= limit,
    hits,
    release: async () => {
      await db
        .update(rateCounters)
        .set({ hits: sql`greatest(${rateCounters.hits} - 1, 0)` })
        .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, windowStart)));
    },
  };
}
