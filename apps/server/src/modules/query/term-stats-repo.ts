import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type TermGramRow, termGramsSql } from './library-sql.ts';

/**
 * The library's term statistics (migration 0018, issue 25): how often each buyer-name GIN key occurs
 * in a business, from a sample of its invoices. The search reads them to choose its plan
 * (search-plan.ts); the job `library.term-stats` (term-stats.ts) keeps them fresh.
 */

/**
 * Replaces one business's figures with a fresh sample of at most `sampleSize` invoices (all of them
 * when it has no more): each key's share of the sample, scaled to the business's invoices. One
 * transaction, serialised per business (a concurrent refresh of the same business waits, then
 * replaces again): readers see the old figures or the new ones, never a mix.
 */
export async function refreshTermStats(db: Db, clientId: number, sampleSize: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('library_term_stats', ${clientId}))`);
    const perStore = (
      await tx.execute<{ store_id: number; n: number; first_at: string | null; last_at: string | null }>(
        sql`select store_id, count(*)::int as n, min(coalesce(issued_at, created_at))::text as first_at,
            max(coalesce(issued_at, created_at))::text as last_at
          from invoices where client_id = ${clientId} group by store_id`,
      )
    ).rows;
    const total = perStore.reduce((sum, r) => sum + Number(r.n), 0);
    const stores = Object.fromEntries(perStore.map((r) => [String(r.store_id), Number(r.n)]));
    const firsts = perStore.map((r) => r.first_at).filter((x): x is string => x !== null);
    const lasts = perStore.map((r) => r.last_at).filter((x): x is string => x !== null);
    const firstAt = firsts.length ? firsts.reduce((a, b) => (new Date(a) < new Date(b) ? a : b)) : null;
    const lastAt = lasts.length ? lasts.reduce((a, b) => (new Date(a) > new Date(b) ? a : b)) : null;
    const share = total <= sampleSize ? 1 : sampleSize / total;
    await tx.execute(sql`create temporary table kp_term_sample on commit drop as
      select buyer_name from invoices where client_id = ${clientId} and (${share}::float8 >= 1 or random() < ${share}::float8)`);
    const [{ sampled }] = (
      await tx.execute<{ sampled: number }>(sql`select count(*)::int as sampled from kp_term_sample`)
    ).rows as [{ sampled: number }];
    await tx.execute(sql`delete from library_term_grams where client_id = ${clientId}`);
    // a key counts once per name however often the name repeats it
    await tx.execute(sql`insert into library_term_grams (client_id, gram, n)
      select ${clientId}, k.key, least(round(count(*) * ${total}::float8 / greatest(${sampled}, 1)), 2147483647)::int
      from kp_term_sample s, lateral (select distinct unnest(kp_name_grams(${clientId}::int, s.buyer_name)) as key) k
      group by k.key`);
    await tx.execute(sql`insert into library_term_stats
        (client_id, invoices, sampled, first_at, last_at, store_invoices, refreshed_at)
      values (${clientId}, ${total}, ${sampled}, ${firstAt}::timestamptz, ${lastAt}::timestamptz,
        ${JSON.stringify(stores)}::jsonb, now())
      on conflict (client_id) do update set invoices = excluded.invoices, sampled = excluded.sampled,
        first_at = excluded.first_at, last_at = excluded.last_at, store_invoices = excluded.store_invoices,
        refreshed_at = excluded.refreshed_at`);
  });
  termCache.delete(db);
}

/** A term's keys and figures are reused for a minute: a clerk paging through a search asks the same. */
export const TERM_CACHE_MS = 60_000;
const TERM_CACHE_SIZE = 1_000;
const termCache = new WeakMap<Db, Map<string, { at: number; rows: TermGramRow[] }>>();

/**
 * Each GIN key of a term with its figures (termGramsSql), from this process's cache of the last minute
 * when it has them. Per database handle, so two apps in one process never share; a refresh here
 * forgets it; another process's refresh shows within the minute — the figures steer the plan only.
 */
export async function termGrams(
  db: Db,
  clientId: number,
  term: string,
  now = Date.now(),
): Promise<TermGramRow[]> {
  let cache = termCache.get(db);
  if (!cache) {
    cache = new Map();
    termCache.set(db, cache);
  }
  const key = `${clientId}\u0000${term}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < TERM_CACHE_MS) return hit.rows;
  const rows = (await db.execute<TermGramRow>(termGramsSql(clientId, term))).rows;
  cache.delete(key);
  cache.set(key, { at: now, rows });
  if (cache.size > TERM_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return rows;
}

/**
 * The businesses whose figures are due: none yet while they have invoices; older than `staleAfter`
 * with an invoice issued or submitted since; or older than `maxAge` whatever happened (deletes and
 * red-letter leave no newer row). At most `limit`, the oldest first.
 */
export async function dueTermStats(
  db: Db,
  opts: { staleAfter: string; maxAge: string; limit: number },
): Promise<number[]> {
  const rows = await db.execute<{ id: number }>(sql`select c.id from clients c
    left join library_term_stats s on s.client_id = c.id
    where (s.client_id is null and exists (select 1 from invoices i where i.client_id = c.id))
      or (s.refreshed_at < now() - ${opts.staleAfter}::interval and exists (select 1 from invoices i
        where i.client_id = c.id and coalesce(i.issued_at, i.created_at) > s.refreshed_at))
      or s.refreshed_at < now() - ${opts.maxAge}::interval
    order by s.refreshed_at nulls first, c.id
    limit ${opts.limit}`);
  return rows.rows.map((r) => Number(r.id));
}
