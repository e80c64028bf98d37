import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertCopies, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { refreshDueTermStats, TERM_STATS_CRON, TERM_STATS_JOB } from './term-stats.ts';
import { dueTermStats, refreshTermStats, TERM_CACHE_MS, termGrams } from './term-stats-repo.ts';

/**
 * Issue 25 item 5: the search's side table (library_term_grams / _stats) converges to the truth under
 * concurrent issuing, red-letter and deletes, refreshed by the job; it stays per business.
 */

type T = Awaited<ReturnType<typeof buildTestApp>>;

/** Every key's true count in a business: names holding it, each name once. */
async function truth(t: T, clientId: number): Promise<Map<string, number>> {
  const rows = await t.db.execute<{ key: string; n: number }>(sql`select k.key, count(*)::int as n
    from invoices i, lateral (select distinct unnest(kp_name_grams(i.client_id, i.buyer_name)) as key) k
    where i.client_id = ${clientId} group by k.key`);
  return new Map(rows.rows.map((r) => [r.key, Number(r.n)]));
}

async function stored(t: T, clientId: number) {
  const grams = await t.db.execute<{ gram: string; n: number }>(
    sql`select gram, n from library_term_grams where client_id = ${clientId}`,
  );
  const stats = await t.db.execute<{ invoices: number; sampled: number }>(
    sql`select invoices, sampled from library_term_stats where client_id = ${clientId}`,
  );
  return { grams: new Map(grams.rows.map((r) => [r.gram, Number(r.n)])), stats: stats.rows[0] };
}

const invoiceCount = async (t: T, clientId: number) =>
  Number(
    (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from invoices where client_id = ${clientId}`,
      )
    ).rows[0]!.n,
  );

describe('library term statistics', () => {
  let t: T;
  let f: Fixture;

  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off' }, poolMax: 8 });
    f = await insertFixtures(t.db);
  });

  it('a refresh counts every key of every name once per name, per business, whole when small', async () => {
    await insertCopies(t.db, f.ids.A!, 30, { buyer: '数据服务数据服务中心', first: 500 });
    await refreshTermStats(t.db, f.software, 20_000);
    await refreshTermStats(t.db, f.hotel, 20_000);
    for (const client of [f.software, f.hotel]) {
      const s = await stored(t, client);
      expect(s.grams).toEqual(await truth(t, client));
      expect(s.stats).toEqual({
        invoices: await invoiceCount(t, client),
        sampled: await invoiceCount(t, client),
      });
    }
    // the span of the list times and the invoices per store, as the plan reads them
    const figures = await t.db.execute<{
      ok: boolean;
    }>(sql`select s.first_at = t.first_at and s.last_at = t.last_at
        and s.store_invoices = t.stores as ok
      from library_term_stats s, (select min(coalesce(issued_at, created_at)) as first_at,
          max(coalesce(issued_at, created_at)) as last_at,
          (select jsonb_object_agg(store_id::text, n) from (select store_id, count(*)::int as n from invoices
            where client_id = ${f.software} group by store_id) x) as stores
        from invoices where client_id = ${f.software}) t
      where s.client_id = ${f.software}`);
    expect(figures.rows).toEqual([{ ok: true }]);
    // the repeated pair counts once per name; the keys carry their business
    const s = await stored(t, f.software);
    expect(s.grams.get(`${f.software} 数据`)).toBeGreaterThanOrEqual(30);
    expect([...s.grams.keys()].every((k) => k.startsWith(`${f.software} `))).toBe(true);
    expect([...(await stored(t, f.hotel)).grams.keys()].every((k) => k.startsWith(`${f.hotel} `))).toBe(true);
  });

  it('a sample scales to the business: its shares kept', async () => {
    await insertCopies(t.db, f.ids.A!, 400, { buyer: '抽样公司', first: 1_000 });
    const total = await invoiceCount(t, f.software);
    await refreshTermStats(t.db, f.software, 100);
    const s = await stored(t, f.software);
    expect(s.stats?.invoices).toBe(total);
    // random() < 100/total: about 100 sampled, well within these bounds
    expect(s.stats?.sampled).toBeGreaterThan(40);
    expect(s.stats?.sampled).toBeLessThan(200);
    // '抽样' is in 400 of ~total names: the scaled estimate lands near 400
    const est = s.grams.get(`${f.software} 抽样`) ?? 0;
    expect(est).toBeGreaterThan(400 * 0.5);
    expect(est).toBeLessThan(400 * 1.6);
    // restore whole figures for the tests below
    await refreshTermStats(t.db, f.software, 1_000_000);
  });

  it('converges under concurrent issuing, red-letter and deletes: after the writes and one due run, the truth', async () => {
    await refreshTermStats(t.db, f.software, 1_000_000);
    const base = 5_000;
    const write = async (k: number) => {
      // issue: a new invoice with a new name
      const [id] = await insertCopies(t.db, f.ids.A!, 1, {
        buyer: `并发购方${k}号有限公司`,
        first: base + k,
      });
      if (k % 3 === 0) {
        // red-letter: a red invoice for the same buyer, the blue one marked
        await insertCopies(t.db, id!, 1, { buyer: `并发购方${k}号有限公司`, first: base + 10_000 + k });
        await t.db.execute(sql`update invoices set red_status = 'full' where id = ${id}`);
      }
      if (k % 4 === 0) {
        // delete (a failed submission removed)
        await t.db.execute(sql`delete from invoice_lines where invoice_id = ${id}`);
        await t.db.execute(sql`delete from invoice_events where invoice_id = ${id}`);
        await t.db.execute(sql`delete from invoices where id = ${id}`);
      }
    };
    const refreshes = async () => {
      for (let i = 0; i < 5; i++) await refreshTermStats(t.db, f.software, 1_000_000);
    };
    await Promise.all([...Array.from({ length: 40 }, (_, k) => write(k)), refreshes(), refreshes()]);
    // the writes happened: the figures taken during them no longer match
    // (checked only loosely: a refresh may have run after the last write)
    // one due run once the figures are a day old (the copies keep their source's times, which may be
    // older than the figures, so "newer invoices" is not what makes them due here)
    await t.db.execute(sql`update library_term_stats set refreshed_at = now() - interval '25 hours'`);
    expect(await refreshDueTermStats(t.db)).toBeGreaterThanOrEqual(1);
    const s = await stored(t, f.software);
    expect(s.grams).toEqual(await truth(t, f.software));
    expect(s.stats?.invoices).toBe(await invoiceCount(t, f.software));
    expect(s.grams.get(`${f.software} 并发`)).toBe(
      Number(
        (
          await t.db.execute<{ n: number }>(
            sql`select count(*)::int as n from invoices where client_id = ${f.software} and buyer_name like '并发%'`,
          )
        ).rows[0]!.n,
      ),
    );
  });

  it('a term’s figures are reused for a minute per database handle; a refresh here forgets them', async () => {
    await refreshTermStats(t.db, f.software, 1_000_000);
    const key = `${f.software} 数据`;
    const nOf = (rows: { key: string; n: number }[]) => Number(rows.find((r) => r.key === key)?.n);
    const t0 = 1_000;
    const before = nOf(await termGrams(t.db, f.software, '数据', t0));
    expect(before).toBeGreaterThan(0);
    await t.db.execute(
      sql`update library_term_grams set n = n + 1000 where client_id = ${f.software} and gram = ${key}`,
    );
    expect(nOf(await termGrams(t.db, f.software, '数据', t0 + TERM_CACHE_MS - 1))).toBe(before);
    // another handle on the same database does not share this one's cache
    const other = await buildTestApp({ reuse: t });
    expect(nOf(await termGrams(other.db, f.software, '数据', t0))).toBe(before + 1000);
    // after the minute, read again
    expect(nOf(await termGrams(t.db, f.software, '数据', t0 + TERM_CACHE_MS))).toBe(before + 1000);
    // a refresh in this process forgets at once
    await refreshTermStats(t.db, f.software, 1_000_000);
    expect(nOf(await termGrams(t.db, f.software, '数据', t0 + TERM_CACHE_MS + 1))).toBe(before);
  });

  it('is due without figures, when stale with newer invoices, and when old; not when fresh', async () => {
    const opts = { staleAfter: '1 hour', maxAge: '1 day', limit: 100 };
    await refreshTermStats(t.db, f.software, 1_000_000);
    await refreshTermStats(t.db, f.hotel, 1_000_000);
    expect(await dueTermStats(t.db, opts)).toEqual([]);
    // stale but nothing newer: not due; stale with a newer invoice: due
    await t.db.execute(sql`update library_term_stats set refreshed_at = now() - interval '2 hours'`);
    await t.db.execute(sql`update invoices set created_at = now(), issued_at = now()
      where id = (select max(id) from invoices where client_id = ${f.hotel})`);
    expect(await dueTermStats(t.db, opts)).toEqual([f.hotel]);
    // older than a day: due whatever happened
    await t.db.execute(sql`update library_term_stats set refreshed_at = now() - interval '25 hours'
      where client_id = ${f.software}`);
    expect((await dueTermStats(t.db, opts)).sort()).toEqual([f.software, f.hotel].sort());
    // no figures at all while it has invoices: due, the one without first
    await t.db.execute(sql`delete from library_term_grams where client_id = ${f.hotel}`);
    await t.db.execute(sql`delete from library_term_stats where client_id = ${f.hotel}`);
    expect((await dueTermStats(t.db, { ...opts, limit: 1 }))[0]).toBe(f.hotel);
    // a business with no invoices is never due
    const empty = (
      await t.db.execute<{ id: number }>(sql`select id from clients
        where not exists (select 1 from invoices i where i.client_id = clients.id) limit 1`)
    ).rows[0];
    if (empty) expect(await dueTermStats(t.db, opts)).not.toContain(Number(empty.id));
    // a run refreshes them all, in chunks, and then nothing is due
    expect(await refreshDueTermStats(t.db, { chunk: 1 })).toBe(2);
    expect(await dueTermStats(t.db, opts)).toEqual([]);
  });

  it('a worker schedules the refresh every ten minutes and runs it once on start; jobs off schedule nothing', async () => {
    await t.db.execute(sql`delete from library_term_grams`);
    await t.db.execute(sql`delete from library_term_stats`);
    const off = await buildTestApp({ reuse: t });
    expect(off.app.jobs.enabled).toBe(false);
    const worker = await buildTestApp({ reuse: t, env: { KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'all' } });
    await worker.app.jobs.started();
    let cron: string | undefined;
    for (let i = 0; i < 40 && !cron; i++) {
      cron = (await worker.app.boss.getSchedules()).find((s) => s.name === TERM_STATS_JOB)?.cron;
      if (!cron) await new Promise((r) => setTimeout(r, 125));
    }
    expect(cron).toBe(TERM_STATS_CRON);
    let rows = 0;
    for (let i = 0; i < 80 && rows < 2; i++) {
      rows = Number(
        (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from library_term_stats`)).rows[0]!
          .n,
      );
      if (rows < 2) await new Promise((r) => setTimeout(r, 250));
    }
    expect(rows).toBe(2);
    expect((await stored(t, f.software)).grams).toEqual(await truth(t, f.software));
  });
});
