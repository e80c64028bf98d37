/**
 * The library search's plan, chosen per term (issue 25). Pure: the inputs are the term's GIN keys with
 * how often each occurs in the business (library_term_grams) and the business's figures
 * (library_term_stats: invoices, the span of their times, invoices per store), both estimated by the
 * job in term-stats.ts, and the search's shape; the output says how the page and the capped count
 * are read.
 *
 * Two ways to find the matches, both exact (the name is always rechecked with strpos):
 * - `ordered`: the covering list index newest-first (the store's own index for one store), the name
 *   tested on each index tuple; it stops at the page's last row / the count cap, or at the end of the
 *   date range: (rows wanted) / (share of scanned rows matching), at most the range;
 * - `grams`: the GIN's posting lists of the term's two rarest keys (the business's rows only), then
 *   each row holding both visited in the heap, rechecked and filtered; the page sorts them all, the
 *   count stops at the cap.
 * Per-row costs measured on 1,000,000 invoices (bench/library-search.ts, BENCH_VERBOSE=1): an index
 * tuple tested ≈ 0.3 µs, a posting-list entry ≈ 0.25 µs, a heap row visited ≈ 3 µs.
 *
 * The share of names matching is known exactly for one- and two-character terms (the rarest key is
 * the term itself, or holds it); for longer terms it lies between "both rarest keys independent" and
 * "the rarest key": the ordered way is costed with the low share and the GIN with the high one, so a
 * rare long name is never sent on a scan of the whole range because its pairs are common.
 */

/**
 * How a search reads: `ordered` and `grams` as above; `bitmap` the planner's choice among bitmap scans
 * only (an invoice-number suffix of three digits or more: its index, then a sort of the few matches).
 */
export type SearchWay = 'ordered' | 'grams' | 'bitmap';

export type SearchPlan = {
  page: SearchWay;
  count: SearchWay;
  /** the GIN keys the `grams` way asks for (the two rarest), most selective first */
  keys: string[];
  /** the estimated costs (µs), for logs, tests and the bench */
  estimate: { rarest: number; invoices: number | null; ordered: [number, number]; grams: [number, number] };
};

export const ORDERED_TUPLE_US = 0.3;
export const POSTING_US = 0.25;
export const HEAP_ROW_US = 3;

export type GramCount = { key: string; n: number };

/** A business's figures (library_term_stats). */
export type TermStats = {
  invoices: number;
  firstAt: Date | null;
  lastAt: Date | null;
  storeInvoices: Record<string, number>;
};

/** What the search asks for. */
export type SearchShape = {
  /** characters in the term */
  termLength: number;
  /** rows the page needs (offset + page size) */
  wanted: number;
  /** the count reads at most this many matches */
  countCap: number;
  /** the date range [from, to) as instants; absent = open */
  from?: Date;
  to?: Date;
  /** the stores searched; null = every store */
  storeIds: readonly number[] | null;
};

/** The share of the business's invoices a date range covers, from the span of their times. */
export function timeShare(stats: TermStats, from?: Date, to?: Date): number {
  if (!from && !to) return 1;
  const first = stats.firstAt?.getTime();
  const last = stats.lastAt?.getTime();
  if (first === undefined || last === undefined) return 1;
  const lo = Math.max(first, from?.getTime() ?? -Infinity);
  const hi = Math.min(last, to?.getTime() ?? Infinity);
  if (hi < lo) return 0;
  if (last === first) return 1;
  return Math.min(1, (hi - lo) / (last - first));
}

/** The share of the business's invoices in these stores. */
export function storeShare(stats: TermStats, storeIds: readonly number[] | null): number {
  if (storeIds === null || stats.invoices <= 0) return 1;
  const n = storeIds.reduce((sum, id) => sum + (stats.storeInvoices[String(id)] ?? 0), 0);
  return Math.min(1, n / stats.invoices);
}

export function chooseSearchPlan(
  grams: GramCount[],
  stats: TermStats | null,
  shape: SearchShape,
): SearchPlan {
  const sorted = [...grams].sort((a, b) => a.n - b.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const keys = sorted.slice(0, 2).map((g) => g.key);
  const f1 = sorted[0]?.n ?? 0;
  const f2 = sorted[1]?.n ?? 0;
  const n = stats?.invoices ?? 0;
  if (!stats || n <= 0) {
    // no figures yet (a new business, or before the job's first run): the page by the ordered scan
    // (bounded by the date range), the count by the GIN (bounded by the term's postings)
    return {
      page: 'ordered',
      count: 'grams',
      keys,
      estimate: { rarest: f1, invoices: stats?.invoices ?? null, ordered: [0, 0], grams: [0, 0] },
    };
  }
  const time = timeShare(stats, shape.from, shape.to);
  const store = storeShare(stats, shape.storeIds);
  const oneStore = shape.storeIds?.length === 1;
  const high = Math.min(1, f1 / n);
  const low = shape.termLength <= 2 || sorted.length < 2 ? high : Math.min(high, (f1 / n) * (f2 / n));
  // the ordered scan reads the range of its index: one store's own, or every store's with the rest
  // filtered out; matches are spread over it at the term's share
  const scanned = n * time * (oneStore ? store : 1);
  const density = low * (oneStore || shape.storeIds === null ? 1 : store);
  const ordered = (rows: number) =>
    (density > 0 ? Math.min(rows / density, scanned) : scanned) * ORDERED_TUPLE_US;
  // the GIN reads both posting lists, then visits the rows holding both keys (at most the rarest's):
  // all of them to sort a page, until the cap for a count (the filters keep time × store of them)
  const postings = (f1 + (sorted.length > 1 ? f2 : 0)) * POSTING_US;
  const kept = time * store;
  const gramsPage = postings + f1 * HEAP_ROW_US;
  const gramsCount = postings + (kept > 0 ? Math.min(f1, (shape.countCap + 1) / kept) : f1) * HEAP_ROW_US;
  const orderedPage = ordered(shape.wanted);
  const orderedCount = ordered(shape.countCap + 1);
  return {
    page: orderedPage < gramsPage ? 'ordered' : 'grams',
    count: orderedCount < gramsCount ? 'ordered' : 'grams',
    keys,
    estimate: {
      rarest: f1,
      invoices: n,
      ordered: [orderedPage, orderedCount],
      grams: [gramsPage, gramsCount],
    },
  };
}

/**
 * Characters on which PostgreSQL's lower() is the identity in every locale and which no other
 * character lowers to: Han ideographs, ASCII digits and common punctuation. A term made only of them
 * is found in the name as typed, which spares lower() on every row scanned (half the ordered scan's
 * time); any other term is compared lower-cased on both sides.
 */
const CASELESS = /^[\p{Script=Han}0-9\s（）()【】[\]·.,，、\-_/&＆#＃]+$/u;

export const isCaseless = (term: string) => CASELESS.test(term);
