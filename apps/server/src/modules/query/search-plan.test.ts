import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseSearchPlan, GRAM_ROW_COST, isCaseless, ORDERED_ROW_COST } from './search-plan.ts';

/** The library search's plan per term (issue 25): which way reads the page and which the count. */

const N = 950_000;
const CAP = 2_000;
const g = (key: string, n: number) => ({ key, n });

describe('chooseSearchPlan', () => {
  // shares from the bench's million invoices (bench/library-search.ts)
  it.each([
    // term class, page way, count way, keys with their counts
    ['absent (one character)', 'grams', 'grams', [g('1 龙', 0)]],
    ['absent (Latin)', 'grams', 'grams', [g('1 a', 0), g('1 ab', 0), g('1 b', 0)]],
    ['everywhere (公)', 'ordered', 'ordered', [g('1 公', N)]],
    ['common (数, 7%)', 'ordered', 'ordered', [g('1 数', 65_497)]],
    ['common (杭, 5%)', 'ordered', 'ordered', [g('1 杭', 47_552)]],
    ['middling (星河, 2%)', 'ordered', 'grams', [g('1 星', 30_000), g('1 星河', 18_761), g('1 河', 18_761)]],
    [
      'rare pair (杭州青禾, 0.4%: ten rows within ~2,500 tuples)',
      'ordered',
      'grams',
      [g('1 州青', 3_815), g('1 青禾', 19_161), g('1 杭', 47_552)],
    ],
    ['rare full name', 'grams', 'grams', [g('1 澜数', 976), g('1 州数', 3_822), g('1 公司', N)]],
  ] as const)('%s: page %s, count %s', (_, page, count, grams) => {
    const plan = chooseSearchPlan([...grams], N, 10, CAP);
    expect(plan.page).toBe(page);
    expect(plan.count).toBe(count);
  });

  it('asks the GIN for the two rarest keys, rarest first, and reports the rarest count', () => {
    const plan = chooseSearchPlan(
      [g('1 公司', N), g('1 澜数', 976), g('1 州数', 3_822), g('1 数', 65_000)],
      N,
      10,
      CAP,
    );
    expect(plan.keys).toEqual(['1 澜数', '1 州数']);
    expect(plan.estimate).toEqual({ rarest: 976, invoices: N });
    expect(chooseSearchPlan([g('1 b', 5), g('1 a', 5)], N, 10, CAP).keys).toEqual(['1 a', '1 b']);
    expect(chooseSearchPlan([g('1 a', 5)], N, 10, CAP).keys).toEqual(['1 a']);
  });

  it('without figures: the page by the ordered scan, the count by the GIN', () => {
    for (const invoices of [null, 0]) {
      const plan = chooseSearchPlan([g('1 公', 0)], invoices, 10, CAP);
      expect([plan.page, plan.count]).toEqual(['ordered', 'grams']);
    }
  });

  it('a deep page of a middling term goes to the GIN once the ordered scan would read more', () => {
    // 1% share: 10 rows cost 1,000 tuples ordered; 5,000 rows cost 500,000 (capped at N)
    const grams = [g('1 x', N / 100)];
    expect(chooseSearchPlan(grams, N, 10, CAP).page).toBe('ordered');
    expect(chooseSearchPlan(grams, N, 5_000, CAP).page).toBe('grams');
  });

  it('picks the way whose estimated cost is lower, at every share (the boundary included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 1, max: 3_000_000 }),
        (invoices, n, wanted) => {
          const rarest = Math.min(n, invoices);
          const plan = chooseSearchPlan([g('k', rarest), g('l', rarest + 1)], invoices, wanted, CAP);
          const share = rarest / invoices;
          const ordered = (rows: number) =>
            (share > 0 ? Math.min(rows / share, invoices) : invoices) * ORDERED_ROW_COST;
          const grams = rarest * GRAM_ROW_COST;
          expect(plan.page).toBe(ordered(wanted) < grams ? 'ordered' : 'grams');
          expect(plan.count).toBe(ordered(CAP + 1) < grams ? 'ordered' : 'grams');
          // the count reads at least as many rows as a page of at most the cap
          if (wanted <= CAP + 1 && plan.count === 'grams')
            expect(ordered(wanted) <= ordered(CAP + 1)).toBe(true);
        },
      ),
    );
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
