import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseSearchPlan,
  HEAP_ROW_US,
  isCaseless,
  ORDERED_TUPLE_US,
  POSTING_US,
  type SearchShape,
  storeShare,
  type TermStats,
  timeShare,
} from './search-plan.ts';

/** The library search's plan per term (issue 25): which way reads the page and which the count. */

const N = 950_000;
const CAP = 2_000;
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T00:00:00Z');
// the bench's business: a year of invoices over three stores of about a third each
const STATS: TermStats = {
  invoices: N,
  firstAt: new Date(NOW - 365 * DAY),
  lastAt: new Date(NOW),
  storeInvoices: { '1': 316_000, '2': 317_000, '3': 317_000 },
};
const g = (key: string, n: number) => ({ key, n });
const shape = (over: Partial<SearchShape> = {}): SearchShape => ({
  termLength: 2,
  wanted: 10,
  countCap: CAP,
  storeIds: null,
  ...over,
});
const DAYS90 = { from: new Date(NOW - 90 * DAY), to: new Date(NOW) };

describe('chooseSearchPlan', () => {
  // figures from bench/library-search.ts (BENCH_VERBOSE=1): which way was faster, measured
  it.each([
    // term class, page way, count way, keys with their counts, the search's shape
    ['absent one character (龙)', 'grams', 'grams', [g('1 龙', 0)], shape({ termLength: 1 })],
    [
      'absent Latin (xiaomi)',
      'grams',
      'grams',
      [g('1 xi', 0), g('1 ia', 0), g('1 x', 0)],
      shape({ termLength: 6 }),
    ],
    ['everywhere (公), 90 days', 'ordered', 'ordered', [g('1 公', N)], shape({ termLength: 1, ...DAYS90 })],
    ['common (杭, 5%), all time', 'ordered', 'ordered', [g('1 杭', 46_416)], shape({ termLength: 1 })],
    [
      'common (杭, 5%), 90 days, one store',
      'ordered',
      'ordered',
      [g('1 杭', 46_416)],
      shape({ termLength: 1, ...DAYS90, storeIds: [1] }),
    ],
    [
      'middling (星河, 1.7%), all time',
      'ordered',
      'grams',
      [g('1 星河', 16_326), g('1 河', 16_326), g('1 星', 34_313)],
      shape(),
    ],
    ['middling (星河), 90 days', 'ordered', 'grams', [g('1 星河', 16_326), g('1 河', 16_326)], shape(DAYS90)],
    [
      'middling (星河), 90 days, one store',
      'ordered',
      'ordered',
      [g('1 星河', 16_326), g('1 河', 16_326)],
      shape({ ...DAYS90, storeIds: [1] }),
    ],
    [
      'one digit (3, 0.3%), 90 days',
      'ordered',
      'grams',
      [g('1 3', 2_753)],
      shape({ termLength: 1, ...DAYS90 }),
    ],
    [
      'rare full name, pairs common',
      'grams',
      'grams',
      [g('1 澜数', 1_138), g('1 州数', 3_822), g('1 公司', N)],
      shape({ termLength: 12, ...DAYS90 }),
    ],
    [
      'long term with correlated pairs (数据服), page',
      'ordered',
      'grams',
      [g('1 数据', 47_754), g('1 据服', 47_754)],
      shape({ termLength: 3 }),
    ],
  ] as const)('%s: page %s, count %s', (_, page, count, grams, s) => {
    const plan = chooseSearchPlan([...grams], STATS, s);
    expect(plan.page).toBe(page);
    expect(plan.count).toBe(count);
  });

  it('asks the GIN for the two rarest keys, rarest first, and reports the rarest count', () => {
    const plan = chooseSearchPlan(
      [g('1 公司', N), g('1 澜数', 976), g('1 州数', 3_822), g('1 数', 65_000)],
      STATS,
      shape({ termLength: 12 }),
    );
    expect(plan.keys).toEqual(['1 澜数', '1 州数']);
    expect(plan.estimate.rarest).toBe(976);
    expect(plan.estimate.invoices).toBe(N);
    expect(chooseSearchPlan([g('1 b', 5), g('1 a', 5)], STATS, shape()).keys).toEqual(['1 a', '1 b']);
    expect(chooseSearchPlan([g('1 a', 5)], STATS, shape()).keys).toEqual(['1 a']);
  });

  it('without figures: the page by the ordered scan, the count by the GIN', () => {
    for (const stats of [null, { ...STATS, invoices: 0 }]) {
      const plan = chooseSearchPlan([g('1 公', 0)], stats, shape());
      expect([plan.page, plan.count]).toEqual(['ordered', 'grams']);
    }
  });

  it('a deep page of a middling term goes to the GIN once the ordered scan would read more', () => {
    const grams = [g('1 x', N / 100)];
    expect(chooseSearchPlan(grams, STATS, shape({ termLength: 1 })).page).toBe('ordered');
    expect(chooseSearchPlan(grams, STATS, shape({ termLength: 1, wanted: 9_000 })).page).toBe('grams');
  });

  it('prices each way as documented, at every share, range and store (the boundary included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 3_000_000 }),
        fc.constantFrom(null, [1], [1, 2]),
        fc.boolean(),
        (n, a, b, termLength, wanted, storeIds, ranged) => {
          const [f1, f2] = [Math.min(a, b, n), Math.min(Math.max(a, b), n)];
          const stats = { ...STATS, invoices: n, storeInvoices: { '1': n / 4, '2': n / 2 } };
          const s = shape({ termLength, wanted, storeIds, ...(ranged ? DAYS90 : {}) });
          const plan = chooseSearchPlan([g('k', f1), g('l', f2)], stats, s);
          const time = ranged ? 90 / 365 : 1;
          const store = storeIds === null ? 1 : storeIds.length === 1 ? 0.25 : 0.75;
          const high = f1 / n;
          const low = termLength <= 2 ? high : Math.min(high, (f1 / n) * (f2 / n));
          const scanned = n * time * (storeIds?.length === 1 ? store : 1);
          const density = low * (storeIds === null || storeIds.length === 1 ? 1 : store);
          const ordered = (rows: number) =>
            (density > 0 ? Math.min(rows / density, scanned) : scanned) * ORDERED_TUPLE_US;
          const postings = (f1 + f2) * POSTING_US;
          const gramsPage = postings + f1 * HEAP_ROW_US;
          const gramsCount = postings + Math.min(f1, (CAP + 1) / (time * store)) * HEAP_ROW_US;
          expect(plan.estimate.ordered[0]).toBeCloseTo(ordered(wanted), 3);
          expect(plan.estimate.grams[1]).toBeCloseTo(gramsCount, 3);
          expect(plan.page).toBe(plan.estimate.ordered[0] < plan.estimate.grams[0] ? 'ordered' : 'grams');
          expect(plan.count).toBe(plan.estimate.ordered[1] < plan.estimate.grams[1] ? 'ordered' : 'grams');
          expect(plan.estimate.grams[0]).toBeCloseTo(gramsPage, 3);
        },
      ),
    );
  });
});

describe('the shares a search covers', () => {
  it('time: the overlap of the range with the invoices’ span', () => {
    expect(timeShare(STATS)).toBe(1);
    expect(timeShare(STATS, new Date(NOW - 365 * DAY), new Date(NOW))).toBe(1);
    expect(timeShare(STATS, new Date(NOW - 73 * DAY), new Date(NOW))).toBeCloseTo(0.2, 6);
    expect(timeShare(STATS, new Date(NOW - 73 * DAY))).toBeCloseTo(0.2, 6);
    expect(timeShare(STATS, undefined, new Date(NOW - 292 * DAY))).toBeCloseTo(0.2, 6);
    expect(timeShare(STATS, new Date(NOW + DAY), new Date(NOW + 2 * DAY))).toBe(0);
    expect(timeShare({ ...STATS, firstAt: null, lastAt: null }, new Date(NOW - DAY))).toBe(1);
    expect(timeShare({ ...STATS, firstAt: new Date(NOW), lastAt: new Date(NOW) }, new Date(NOW - DAY))).toBe(
      1,
    );
  });
  it('stores: their invoices over the business’s', () => {
    expect(storeShare(STATS, null)).toBe(1);
    expect(storeShare(STATS, [1])).toBeCloseTo(316 / 950, 6);
    expect(storeShare(STATS, [1, 2, 3])).toBe(1);
    expect(storeShare(STATS, [9])).toBe(0);
  });
});

describe('isCaseless', () => {
  it.each([
    ['杭州数澜', true],
    ['数据服务（杭州）', true],
    ['第3分公司', true],
    ['9133', true],
    ['ABC', false],
    ['abc', false],
    ['杭州Tech', false],
    ['Ä', false],
    ['ß', false],
    ['İ', false],
    ['\u0307', false],
    ['', false],
  ])('%s → %s', (term, caseless) => {
    expect(isCaseless(term)).toBe(caseless);
  });
});
