import { type InvoiceFilter, LIBRARY_COUNT_CAP } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertCopies, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { termGramsSql } from './library-sql.ts';
import { listInvoices, readLibraryPage, searchPlan } from './repo.ts';
import type { SearchWay } from './search-plan.ts';
import { refreshTermStats } from './term-stats-repo.ts';

/**
 * Issue 25: the buyer-name search finds exactly what a plain `strpos` scan finds, whichever way the
 * plan reads the page and the count (the ordered covering-index scan, the per-business GIN keys, the
 * planner's own choice) and whichever way the statistics would choose: for terms of every class —
 * one to many characters, Han, Latin in any case, digits, punctuation that needs quoting in an array
 * literal, present, common and absent — with and without dates and stores, on every page.
 */

// buyer names of the searched business: repeated characters, mixed case, quotes, commas, braces,
// backslashes, spaces, an emoji and letters that lower() changes outside ASCII
const NAMES = [
  '杭州数澜网络科技有限公司',
  '上海云帆信息技术有限公司',
  '北京中科数据服务有限公司',
  '数据服务数据服务中心',
  'ABC Trading (Shanghai) Co., Ltd.',
  'abc贸易商行',
  'Alibaba 杭州分部',
  '第3分公司',
  '北京"引号"公司',
  '逗号,公司',
  '反斜杠\\公司',
  '花括号{x}公司',
  '空格 公司',
  '表情😀商店',
  'ÄÖÜ Straße GmbH',
  'İstanbul Ticaret',
  '9133 编号公司',
  '个人',
];
// the other business: names that would match, which the search must never return
const HOTEL_NAMES = ['杭州数澜网络科技有限公司', '龙门客栈', 'ABC Trading'];

const TERMS = [
  '杭',
  '公',
  '司',
  '龙',
  'a',
  'A',
  'ä',
  'Ä',
  '数据',
  '数据服务',
  '据服务数',
  '杭州数澜网络科技有限公司',
  '有限公司',
  'abc',
  'ABC',
  'aBc t',
  'co., ltd.',
  'STRASSE',
  'straße',
  'istanbul',
  '3',
  '第3',
  '9133',
  '91330',
  '"',
  '"引号"',
  ',',
  '逗号,',
  '\\',
  '{x}',
  '}',
  '空格 公',
  '😀',
  '情😀',
  'zz',
  '龙门',
];

const PLANS: { name: string; plan: { page: SearchWay; count: SearchWay } | null }[] = [
  { name: 'planner', plan: null },
  { name: 'ordered/ordered', plan: { page: 'ordered', count: 'ordered' } },
  { name: 'grams/grams', plan: { page: 'grams', count: 'grams' } },
  { name: 'ordered/grams', plan: { page: 'ordered', count: 'grams' } },
  { name: 'grams/ordered', plan: { page: 'grams', count: 'ordered' } },
  { name: 'bitmap/bitmap', plan: { page: 'bitmap', count: 'bitmap' } },
];

// hundreds of searches per test: a loaded machine takes several times the 6–13 s they take alone
describe('library search: every plan finds what a plain strpos scan finds', { timeout: 90_000 }, () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const COPIES = 12;

  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off' } });
    f = await insertFixtures(t.db);
    // COPIES invoices per name, spread over stores and 40 days (some on the same second)
    const stores = [f.stores.HQ, f.stores.BJ, f.stores.SH];
    for (const [k, name] of NAMES.entries()) {
      const ids = await insertCopies(t.db, f.ids.A!, COPIES, { buyer: name, first: 1 + k * COPIES, tie: 2 });
      await t.db.execute(sql`update invoices set
          store_id = (${`{${stores.join(',')}}`}::int[])[1 + (id % 3)],
          issued_at = issued_at - ((id * 7919) % 40) * interval '1 day',
          created_at = created_at - ((id * 7919) % 40) * interval '1 day'
        where id = any(${`{${ids.join(',')}}`}::bigint[])`);
    }
    const hotelSource = (
      await t.db.execute<{ id: number }>(sql`select id from invoices where client_id = ${f.hotel} limit 1`)
    ).rows[0]!.id;
    for (const [k, name] of HOTEL_NAMES.entries()) {
      await insertCopies(t.db, Number(hotelSource), 5, { buyer: name, first: 10_000 + k * 5 });
    }
    await t.db.execute(sql`analyze invoices`);
  });

  /** The reference: every matching id, newest first, by a scan with no index in the way. */
  async function reference(filter: InvoiceFilter, storeIds: number[] | null): Promise<number[]> {
    const name = filter.buyer_name!;
    const rows = await t.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('enable_indexscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
        set_config('enable_indexonlyscan', 'off', true)`);
      return tx.execute<{ id: number }>(sql`select id from invoices
        where client_id = ${f.software}
          and strpos(lower(buyer_name), lower(${name}::text)) > 0
          and (${storeIds === null} or store_id = any(${`{${(storeIds ?? [0]).join(',')}}`}::int[]))
          and (${filter.date_from ?? null}::date is null or coalesce(issued_at, created_at) >= (${filter.date_from ?? null}::date::timestamp at time zone 'Asia/Shanghai'))
          and (${filter.date_to ?? null}::date is null or coalesce(issued_at, created_at) < ((${filter.date_to ?? null}::date + 1)::timestamp at time zone 'Asia/Shanghai'))
        order by coalesce(issued_at, created_at) desc, id desc`);
    });
    return rows.rows.map((r) => Number(r.id));
  }

  const day = (offset: number) => {
    const d = new Date(Date.now() + 8 * 3_600_000 - offset * 86_400_000);
    return d.toISOString().slice(0, 10);
  };

  it('for every term, plan, date range and store scope, on every page', async () => {
    const scopes: (number[] | null)[] = [null, [f.stores.HQ], [f.stores.BJ, f.stores.SH]];
    const ranges: Pick<InvoiceFilter, 'date_from' | 'date_to'>[] = [
      {},
      { date_from: day(20), date_to: day(3) },
    ];
    let compared = 0;
    let nonEmpty = 0;
    for (const term of TERMS) {
      const keys = (await t.db.execute<{ key: string }>(termGramsSql(f.software, term))).rows.map(
        (r) => r.key,
      );
      for (const storeIds of scopes) {
        for (const range of ranges) {
          const filter: InvoiceFilter = { buyer_name: term, ...range };
          const want = await reference(filter, storeIds);
          if (want.length > 0) nonEmpty++;
          for (const { name, plan } of PLANS) {
            const pageSize = 10;
            const pages = Math.max(1, Math.ceil(want.length / pageSize));
            const got: number[] = [];
            for (let page = 1; page <= pages + 1; page++) {
              const r = await readLibraryPage(
                t.db,
                { clientId: f.software, storeIds },
                filter,
                page,
                pageSize,
                plan && { ...plan, keys: keys.slice(0, 2) },
              );
              expect(r.total, `${term} ${name} ${JSON.stringify(range)} ${storeIds}`).toBe(want.length);
              got.push(...r.list.map((x) => x.invoice_id));
            }
            expect(got, `${term} ${name} ${JSON.stringify(range)} ${storeIds}`).toEqual(want);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(TERMS.length * 3 * 2 * PLANS.length);
    // the terms do find things, often: an empty reference everywhere would prove nothing
    expect(nonEmpty).toBeGreaterThan(TERMS.length * 3);
  });

  it('the other text filters (number suffix, buyer tax code) give the same rows under every plan', async () => {
    const codes = (
      await t.db.execute<{ code: string }>(sql`select distinct buyer_tax_code as code from invoices
        where client_id = ${f.software} and buyer_tax_code <> '' limit 2`)
    ).rows.map((r) => r.code);
    const filters: InvoiceFilter[] = [
      { invoice_no: '1' },
      { invoice_no: '7' },
      { invoice_no: '01' },
      { invoice_no: '0001' },
      { invoice_no: '99999999' },
      ...codes.map((c) => ({ buyer_tax_code: c })),
      { buyer_tax_code: 'NOSUCHCODE' },
      { invoice_no: '1', buyer_name: '公司' },
    ];
    for (const filter of filters) {
      const rows = await t.db.execute<{ id: number }>(sql`select id from invoices
        where client_id = ${f.software}
          and (${filter.invoice_no ?? null}::text is null or invoice_no like '%' || ${filter.invoice_no ?? null}::text)
          and (${filter.buyer_tax_code ?? null}::text is null or buyer_tax_code = ${filter.buyer_tax_code ?? null}::text)
          and (${filter.buyer_name ?? null}::text is null or strpos(lower(buyer_name), lower(${filter.buyer_name ?? null}::text)) > 0)
        order by coalesce(issued_at, created_at) desc, id desc`);
      const want = rows.rows.map((r) => Number(r.id));
      const chosen = await searchPlan(t.db, { clientId: f.software, storeIds: null }, filter, 30);
      for (const plan of [chosen, ...PLANS.map((p) => p.plan && { ...p.plan, keys: [] })]) {
        const r = await readLibraryPage(t.db, { clientId: f.software, storeIds: null }, filter, 1, 30, plan);
        expect(r.total, JSON.stringify(filter)).toBe(want.length);
        expect(r.list.map((x) => x.invoice_id)).toEqual(want.slice(0, 30));
      }
    }
    // one last digit: the ordered scan; three or more: bitmap scans; two and tax codes: the planner
    expect(
      (await searchPlan(t.db, { clientId: f.software, storeIds: null }, { invoice_no: '743' }, 10))?.page,
    ).toBe('bitmap');
    expect(
      (await searchPlan(t.db, { clientId: f.software, storeIds: null }, { invoice_no: '7' }, 10))?.page,
    ).toBe('ordered');
    expect(
      await searchPlan(t.db, { clientId: f.software, storeIds: null }, { invoice_no: '74' }, 10),
    ).toBeNull();
    expect(
      await searchPlan(t.db, { clientId: f.software, storeIds: null }, { buyer_tax_code: codes[0] }, 10),
    ).toBeNull();
  });

  it('the GIN ways use all of a term’s keys too, and any two of them (each is implied by the match)', async () => {
    for (const term of ['杭州数澜网络', '数据服务', 'abc t', '"引号"']) {
      const keys = (await t.db.execute<{ key: string }>(termGramsSql(f.software, term))).rows.map(
        (r) => r.key,
      );
      const want = await reference({ buyer_name: term }, null);
      for (const subset of [keys, keys.slice(-2), [keys[0]!]]) {
        const r = await readLibraryPage(
          t.db,
          { clientId: f.software, storeIds: null },
          { buyer_name: term },
          1,
          30,
          { page: 'grams', count: 'grams', keys: subset },
        );
        expect(r.total, term).toBe(want.length);
        expect(r.list.map((x) => x.invoice_id)).toEqual(want.slice(0, 30));
      }
    }
  });

  it('with statistics taken, the chosen plan is what chooseSearchPlan says, and the list is the reference', async () => {
    await refreshTermStats(t.db, f.software, 100_000);
    for (const term of ['公', '数据服务', '龙', 'İstanbul', 'abc']) {
      const plan = await searchPlan(t.db, { clientId: f.software, storeIds: null }, { buyer_name: term }, 10);
      expect(plan?.estimate.invoices).toBeGreaterThan(NAMES.length * COPIES);
      const r = await listInvoices(
        t.db,
        { clientId: f.software, storeIds: null },
        { buyer_name: term },
        1,
        10,
      );
      const want = await reference({ buyer_name: term }, null);
      expect(r.total).toBe(Math.min(want.length, LIBRARY_COUNT_CAP));
      expect(r.list.map((x) => x.invoice_id)).toEqual(want.slice(0, 10));
    }
    // '公' is in most names: ordered; '龙' is in none of this business's: the GIN
    expect(
      (await searchPlan(t.db, { clientId: f.software, storeIds: null }, { buyer_name: '公' }, 10))?.page,
    ).toBe('ordered');
    expect(
      (await searchPlan(t.db, { clientId: f.software, storeIds: null }, { buyer_name: '龙' }, 10))?.page,
    ).toBe('grams');
    expect(
      await searchPlan(t.db, { clientId: f.software, storeIds: null }, { buyer_name: '  ' }, 10),
    ).toBeNull();
    expect(await searchPlan(t.db, { clientId: f.software, storeIds: null }, {}, 10)).toBeNull();
  });
});
