import {
  dec,
  fixed,
  formatAmount,
  INVOICE_TYPES,
  rateLabel,
  type StatSummary,
  type StatSums,
  startOfBeijingDay,
} from '@kaipiao/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BEIJING_TZ } from '../../lib/beijing-sql.ts';
import { nextDay } from '../query/scope.ts';

/**
 * Statistics over issued invoices (issue 3 item 8, domain.md §9 item 6): red invoices carry negative
 * amounts, so every sum nets them out; voided, failed and pending invoices do not count. Days and
 * months are Beijing-time calendar periods. Reads go through invoices_stat_idx (partial on
 * status = 'issued', covering the summed columns).
 */

export type StatScope = { clientId: number; storeIds: readonly number[] | null };

/** Ordinary (普通) kinds: the small-scale exemption counts sales on these (spec §1 tax notice). */
export const ORDINARY_TYPES = ['82', '007', '025', '026', '032'] as const;

function issuedIn(scope: StatScope, from: string, to: string): SQL {
  const parts: SQL[] = [
    sql`i.client_id = ${scope.clientId}`,
    sql`i.status = 'issued'`,
    sql`i.issued_at >= ${startOfBeijingDay(from).toISOString()}::timestamptz`,
    sql`i.issued_at < ${startOfBeijingDay(nextDay(to)).toISOString()}::timestamptz`,
  ];
  if (scope.storeIds !== null) {
    parts.push(sql`i.store_id = any(${`{${scope.storeIds.join(',') || '0'}}`}::int[])`);
  }
  return sql.join(parts, sql` and `);
}

type SumRow = { n: number | string; amount: string | null; tax: string | null; with_tax: string | null };

const sums = (r: SumRow | undefined): StatSums => ({
  count: Number(r?.n ?? 0),
  total_amount: formatAmount(r?.amount ?? '0'),
  total_tax: formatAmount(r?.tax ?? '0'),
  total_with_tax: formatAmount(r?.with_tax ?? '0'),
});

const SUM_COLUMNS = sql.raw(
  'count(*) as n, sum(i.total_amount) as amount, sum(i.total_tax) as tax, sum(i.total_with_tax) as with_tax',
);

/** Every period label from `from` to `to`: days 'YYYY-MM-DD' or months 'YYYY-MM'. */
export function periods(from: string, to: string, granularity: 'day' | 'month'): string[] {
  const out: string[] = [];
  if (granularity === 'day') {
    for (let d = from; d <= to; d = nextDay(d)) out.push(d);
    return out;
  }
  let [y, m] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const end = to.slice(0, 7);
  for (;;) {
    const label = `${y}-${String(m).padStart(2, '0')}`;
    if (label > end) return out;
    out.push(label);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}

export async function statSummary(
  db: Db,
  scope: StatScope,
  q: { date_from: string; date_to: string; granularity: 'day' | 'month' },
): Promise<StatSummary> {
  const where = issuedIn(scope, q.date_from, q.date_to);
  const fmt = q.granularity === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const period = sql`to_char(i.issued_at at time zone ${BEIJING_TZ}, ${sql.raw(`'${fmt}'`)})`;
  const [grouped, rates, stores] = await Promise.all([
    db.execute<
      SumRow & {
        g_period: number;
        g_type: number;
        g_store: number;
        g_dir: number;
        period: string | null;
        invoice_type: string | null;
        store_id: number | null;
        direction: string | null;
      }
    >(sql`
      select grouping(${period}) as g_period, grouping(i.invoice_type) as g_type,
        grouping(i.store_id) as g_store, grouping(i.direction) as g_dir,
        ${period} as period, i.invoice_type, i.store_id, i.direction, ${SUM_COLUMNS}
      from invoices i
      where ${where}
      group by grouping sets ((${period}, i.direction), (i.invoice_type), (i.store_id), (i.direction), ())`),
    db.execute<{
      tax_rate: string;
      zero_rate_flag: string;
      n: number;
      amount: string;
      tax: string;
      with_tax: string;
    }>(sql`
      select l.tax_rate, l.zero_rate_flag, count(*) as n, sum(l.amount) as amount, sum(l.tax_amount) as tax,
        sum(l.amount_with_tax) as with_tax
      from invoices i join invoice_lines l on l.invoice_id = i.id
      where ${where}
      group by l.tax_rate, l.zero_rate_flag`),
    db.execute<{ id: number; name: string }>(
      sql`select id, name from client_stores where client_id = ${scope.clientId}`,
    ),
  ]);

  const storeName = new Map(stores.rows.map((s) => [s.id, s.name]));
  const trend = new Map<string, { blue: SumRow | undefined; red: SumRow | undefined }>();
  let totals: SumRow | undefined;
  let blue: SumRow | undefined;
  let red: SumRow | undefined;
  const byKind: StatSummary['by_kind'] = [];
  const byStore: StatSummary['by_store'] = [];
  for (const r of grouped.rows) {
    const g = [Number(r.g_period), Number(r.g_type), Number(r.g_store), Number(r.g_dir)];
    if (g.every((x) => x === 1)) totals = r;
    else if (g[0] === 0 && g[3] === 0) {
      const slot = trend.get(r.period!) ?? { blue: undefined, red: undefined };
      if (r.direction === 'red') slot.red = r;
      else slot.blue = r;
      trend.set(r.period!, slot);
    } else if (g[1] === 0) {
      byKind.push({
        invoice_type: r.invoice_type!,
        name: INVOICE_TYPES[r.invoice_type as keyof typeof INVOICE_TYPES] ?? r.invoice_type!,
        ...sums(r),
      });
    } else if (g[2] === 0) {
      byStore.push({ store_id: r.store_id!, store_name: storeName.get(r.store_id!) ?? '', ...sums(r) });
    } else if (g[3] === 0) {
      if (r.direction === 'red') red = r;
      else blue = r;
    }
  }

  const add = (a: string | null | undefined, b: string | null | undefined) =>
    fixed(dec(a ?? '0').plus(dec(b ?? '0')));
  const trendRows = periods(q.date_from, q.date_to, q.granularity).map((p) => {
    const slot = trend.get(p);
    const b = slot?.blue;
    const rd = slot?.red;
    return {
      period: p,
      count: Number(b?.n ?? 0) + Number(rd?.n ?? 0),
      blue_count: Number(b?.n ?? 0),
      red_count: Number(rd?.n ?? 0),
      total_amount: add(b?.amount, rd?.amount),
      total_tax: add(b?.tax, rd?.tax),
      total_with_tax: add(b?.with_tax, rd?.with_tax),
    };
  });

  // rate 0 splits by its flag (0% / 免税 / 不征税); equal labels merge
  const byRate = new Map<string, StatSummary['by_rate'][number]>();
  for (const r of rates.rows) {
    const label = rateLabel(r.tax_rate, r.zero_rate_flag);
    const prev = byRate.get(label);
    byRate.set(label, {
      tax_rate: fixed(r.tax_rate, 4).replace(/\.?0+$/, '') || '0',
      label,
      line_count: (prev?.line_count ?? 0) + Number(r.n),
      total_amount: add(prev?.total_amount, r.amount),
      total_tax: add(prev?.total_tax, r.tax),
      total_with_tax: add(prev?.total_with_tax, r.with_tax),
    });
  }

  const byWithTax = (a: { total_with_tax: string }, b: { total_with_tax: string }) =>
    dec(b.total_with_tax).comparedTo(dec(a.total_with_tax));
  return {
    date_from: q.date_from,
    date_to: q.date_to,
    granularity: q.granularity,
    totals: sums(totals),
    blue: sums(blue),
    red: sums(red),
    trend: trendRows,
    by_kind: byKind.sort(byWithTax),
    by_rate: [...byRate.values()].sort((a, b) => dec(b.tax_rate).comparedTo(dec(a.tax_rate))),
    by_store: byStore.sort(byWithTax),
  };
}

/** Count and sums of issued invoices in [from, to]; `types` narrows to some kinds. */
export async function sumIssued(
  db: Db,
  scope: StatScope,
  from: string,
  to: string,
  types?: readonly string[],
): Promise<StatSums> {
  const typeCond = types ? sql` and i.invoice_type = any(${`{${types.join(',')}}`}::text[])` : sql``;
  const res = await db.execute<SumRow>(
    sql`select ${SUM_COLUMNS} from invoices i where ${issuedIn(scope, from, to)}${typeCond}`,
  );
  return sums(res.rows[0]);
}
