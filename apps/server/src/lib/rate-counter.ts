import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateCounters } from '../db/schema/index.ts';

/** Start of the fixed window `now` falls in. */
const windowOf = (windowSeconds: number, now = Date.now()) => new Date(now - (now % (windowSeconds * 1000)));

/**
 * Fixed-window counters kept in PostgreSQL, so every web process counts against the same
 * number (architecture.md §1: the server is stateless).
 */
export async function countHits(db: Db, key: string, windowSeconds: number): Promise<number> {
  const [row] = await db
    .select({ hits: rateCounters.hits })
    .from(rateCounters)
    .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, windowOf(windowSeconds))));
  return row?.hits ?? 0;
}

/** Adds one hit and returns the window's new total (atomic upsert). */
export async function addHit(db: Db, key: string, windowSeconds: number): Promise<number> {
  const [row] = await db
    .insert(rateCounters)
    .values({ key, windowStart: windowOf(windowSeconds), hits: 1 })
    .onConflictDoUpdate({
      target: [rateCounters.key, rateCounters.windowStart],
      set: { hits: sql`${rateCounters.hits} + 1` },
    })
    .returning({ hits: rateCounters.hits });
  // opportunistic cleanup keeps the table small
  if (Math.random() < 0.02) {
    await db.delete(rateCounters).where(sql`${rateCounters.windowStart} < now() - interval '1 day'`);
  }
  return row?.hits ?? 1;
}
