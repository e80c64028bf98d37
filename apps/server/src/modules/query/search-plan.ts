/**
 * The library search's plan, chosen per term (issue 25). Pure: the inputs are the term's GIN keys with
 * how often each occurs in the business (library_term_grams, estimated by the job in term-stats.ts)
 * and the business's invoice count; the output says how the page and the capped count are read.
 *
 * Two ways to find the matches, both exact (the name is always rechecked with strpos):
 * - `ordered`: the covering list index newest-first, the name tested on each index tuple; it stops at
 *   the page's last row / the count cap, so its cost is (rows wanted) / (share of names matching);
 * - `grams`: the GIN on the term's two rarest keys, then recheck, date/store filters and sort; its
 *   cost is the rarest key's posting list (each entry a heap visit).
 * Costs per row were measured on 1,000,000 invoices (bench/library-search.ts, BENCH_VERBOSE=1): an
 * index tuple tested ≈ 0.25 µs, a GIN entry with its heap visit and filters ≈ 0.37 µs.
 */

export type SearchWay = 'ordered' | 'grams';

export type SearchPlan = {
  page: SearchWay;
  count: SearchWay;
  /** the GIN keys the `grams` way asks for (the two rarest), most selective first */
  keys: string[];
  /** why, for logs and the bench */
  estimate: { rarest: number; invoices: number | null };
};

/** Relative cost of one index tuple tested in the ordered scan and one GIN entry with its heap visit. */
export const ORDERED_ROW_COST = 0.7;
export const GRAM_ROW_COST = 1;

export type GramCount = { key: string; n: number };

/**
 * @param grams every GIN key of the term with its estimated occurrences (0 when never seen)
 * @param invoices the business's invoices when the figures were taken; null = no figures yet
 * @param wanted the rows the page needs (offset + page size)
 * @param countCap the count reads at most this many matches
 */
export function chooseSearchPlan(
  grams: GramCount[],
  invoices: number | null,
  wanted: number,
  countCap: number,
): SearchPlan {
  const sorted = [...grams].sort((a, b) => a.n - b.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const keys = sorted.slice(0, 2).map((g) => g.key);
  const rarest = sorted[0]?.n ?? 0;
  if (invoices === null || invoices <= 0) {
    // no figures yet (a new business, or before the job's first run): the page by the ordered scan
    // (bounded by the date range), the count by the GIN (bounded by the term's postings)
    return { page: 'ordered', count: 'grams', keys, estimate: { rarest, invoices } };
  }
  // the term matches at most as often as its rarest key occurs
  const share = Math.min(1, rarest / invoices);
  const orderedCost = (rows: number) =>
    (share > 0 ? Math.min(rows / share, invoices) : invoices) * ORDERED_ROW_COST;
  const gramsCost = rarest * GRAM_ROW_COST;
  const way = (rows: number): SearchWay => (orderedCost(rows) < gramsCost ? 'ordered' : 'grams');
  return { page: way(wanted), count: way(countCap + 1), keys, estimate: { rarest, invoices } };
}

/**
 * Characters on which PostgreSQL's lower() is the identity in every locale and which no other
 * character lowers to: Han ideographs, ASCII digits and common punctuation. A term made only of them
 * is found in the name as typed, which spares lower() on every row scanned (half the ordered scan's
 * time); any other term is compared lower-cased on both sides.
 */
const CASELESS = /^[\p{Script=Han}0-9\s（）()【】[\]·.,，、\-_/&＆#＃]+$/u;

export const isCaseless = (term: string) => CASELESS.test(term);
