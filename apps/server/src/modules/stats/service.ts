import {
  beijingDay,
  dec,
  fixed,
  formatAmount,
  INVOICE_TYPES,
  QUERY_CODE,
  rateLabel,
  SMALL_SCALE_MONTH_THRESHOLD,
  SMALL_SCALE_QUARTER_THRESHOLD,
  type StatSummary,
  type StatSums,
  TERMS,
} from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { daysBetween, isRealDay, nextDay } from '../query/scope.ts';
import * as repo from './repo.ts';

/**
 * Statistics over issued invoices (issue 3 item 8, domain.md §9 item 6) and the home page's figures
 * and prompts (spec §1, §2): red invoices carry negative amounts, so every sum nets them out;
 * voided, failed and pending invoices do not count. Days and months are Beijing-time calendar
 * periods. The SQL is repo.ts's.
 */

export type StatScope = repo.StatScope;

/** Ordinary (普通) kinds: the small-scale exemption counts sales on these (spec §1 tax notice). */
export const ORDINARY_TYPES = ['82', '007', '025', '026', '032'] as const;

const MAX_DAYS = { day: 366, month: 1100 } as const;

/** Month and quarter of a business day: their first and last days and labels. */
export function calendarOf(day: string) {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const lastDay = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, '0');
  const q = Math.ceil(m / 3);
  const qFirst = (q - 1) * 3 + 1;
  return {
    monthFrom: `${y}-${pad(m)}-01`,
    monthTo: `${y}-${pad(m)}-${pad(lastDay(y, m))}`,
    monthLabel: `${y}-${pad(m)}`,
    quarterFrom: `${y}-${pad(qFirst)}-01`,
    quarterTo: `${y}-${pad(qFirst + 2)}-${pad(lastDay(y, qFirst + 2))}`,
    quarterLabel: `${y}Q${q}`,
  };
}

/** Home prompts: which one and its text per taxpayer type (spec §2 tax-rate-change tip). */
const TAX_RATE_TIP = {
  small: {
    title: '征收率变更提示',
    content: `自2023年1月1日至2027年12月31日，增值税小规模纳税人适用3%征收率的应税销售收入，减按1%征收率征收增值税。请在「${TERMS.goodsCode}」中核对商品${TERMS.taxRate}；如需开具3%发票，开票时须选择原因。`,
  },
  general: {
    title: `${TERMS.taxRate}变更提示`,
    content: `《中华人民共和国增值税法》自2026年1月1日起施行，增值税${TERMS.taxRate}维持13%、9%、6%和零税率，征收率为3%。请在「${TERMS.goodsCode}」中核对各商品的${TERMS.taxRate}设置，确保开票${TERMS.taxRate}正确。`,
  },
} as const;

const sums = (r: repo.SumRow | undefined): StatSums => ({
  count: Number(r?.n ?? 0),
  total_amount: formatAmount(r?.amount ?? '0'),
  total_tax: formatAmount(r?.tax ?? '0'),
  total_with_tax: formatAmount(r?.with_tax ?? '0'),
});

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

async function statSummary(
  db: Db,
  scope: repo.StatScope,
  q: { date_from: string; date_to: string; granularity: 'day' | 'month' },
): Promise<StatSummary> {
  const { grouped, rates, stores } = await repo.selectStatRows(db, scope, q);
  const storeName = new Map(stores.map((s) => [s.id, s.name]));
  const trend = new Map<string, { blue: repo.SumRow | undefined; red: repo.SumRow | undefined }>();
  let totals: repo.SumRow | undefined;
  let blue: repo.SumRow | undefined;
  let red: repo.SumRow | undefined;
  const byKind: StatSummary['by_kind'] = [];
  const byStore: StatSummary['by_store'] = [];
  for (const r of grouped) {
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
  for (const r of rates) {
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

/**
 * The statistics page: a real date range of at most 366 days by day or about 36 months by month,
 * summed over the scope.
 */
export async function statistics(
  db: Db,
  scope: StatScope,
  q: { date_from: string; date_to: string; granularity: 'day' | 'month' },
): Promise<StatSummary> {
  if (!isRealDay(q.date_from) || !isRealDay(q.date_to) || q.date_from > q.date_to) {
    throw new AppError(QUERY_CODE.DATE_RANGE_INVALID);
  }
  if (daysBetween(q.date_from, q.date_to) > MAX_DAYS[q.granularity]) {
    throw new AppError(
      QUERY_CODE.DATE_RANGE_TOO_LONG,
      q.granularity === 'day' ? '按日统计最长366天，请缩小范围或按月统计' : '按月统计最长36个月，请缩小范围',
    );
  }
  return statSummary(db, scope, q);
}

/** Count and sums of issued invoices in [from, to]; `types` narrows to some kinds. */
export async function sumIssued(
  db: Db,
  scope: StatScope,
  from: string,
  to: string,
  types?: readonly string[],
): Promise<StatSums> {
  return sums(await repo.selectIssuedSums(db, scope, from, to, types));
}

/**
 * The home figures: today, this month and this quarter over `scope`; the small-scale meter over
 * `meterScope` (the thresholds concern the taxpayer: every store the user may see) and whether its
 * notice shows today; the tax-rate tip for the taxpayer type.
 */
export async function homeOverview(
  db: Db,
  v: { userId: number; clientId: number; scope: StatScope; meterScope: StatScope; partialScope: boolean },
) {
  const today = beijingDay();
  const cal = calendarOf(today);
  const [todaySums, todayByDirection, month, quarter, monthSales, quarterSales, taxpayerType, prompts, tips] =
    await Promise.all([
      sumIssued(db, v.scope, today, today),
      repo.selectIssuedSumsByDirection(db, v.scope, today, today),
      sumIssued(db, v.scope, cal.monthFrom, cal.monthTo),
      sumIssued(db, v.scope, cal.quarterFrom, cal.quarterTo),
      sumIssued(db, v.meterScope, cal.monthFrom, cal.monthTo, ORDINARY_TYPES),
      sumIssued(db, v.meterScope, cal.quarterFrom, cal.quarterTo, ORDINARY_TYPES),
      repo.selectTaxpayerType(db, v.clientId),
      repo.selectPromptStates(db, v.userId, v.clientId),
      repo.selectTaxRateTips(db, v.userId),
    ]);
  const small = taxpayerType === 'small';
  const notice = prompts.find((p) => p.prompt === 'small_scale_notice');
  const tip = prompts.find((p) => p.prompt === 'tax_rate_tip');
  const tipText = TAX_RATE_TIP[small ? 'small' : 'general'];
  const todayOf = (direction: 'blue' | 'red') =>
    sums(todayByDirection.find((r) => r.direction === direction));
  return {
    today: todaySums,
    today_blue: todayOf('blue'),
    today_red: todayOf('red'),
    month,
    quarter,
    month_label: cal.monthLabel,
    quarter_label: cal.quarterLabel,
    small_scale: {
      applies: small,
      month_sales: monthSales.total_amount,
      quarter_sales: quarterSales.total_amount,
      month_threshold: SMALL_SCALE_MONTH_THRESHOLD,
      quarter_threshold: SMALL_SCALE_QUARTER_THRESHOLD,
      partial_scope: v.partialScope,
      show_notice: small && !notice?.never && notice?.confirmedOn !== today,
    },
    tax_rate_tip: { show: tips === 1 && !tip?.never, ...tipText },
  };
}

/** spec §1 tax notice buttons: 不再提醒 (never) / 确定 (not again today). */
export async function confirmNotice(db: Db, userId: number, clientId: number, never: boolean) {
  await repo.confirmSmallScaleNotice(db, { userId, clientId, never, today: beijingDay() });
}

/** Closes the tax-rate tip for one business (when the call names one), else for every business. */
export async function closeTaxRateTip(db: Db, userId: number, clientId: number | null) {
  if (clientId !== null) await repo.closeTaxRateTipFor(db, userId, clientId);
  else await repo.closeTaxRateTips(db, userId);
}
