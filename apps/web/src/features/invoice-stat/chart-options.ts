import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { StatSummary } from '@kaipiao/shared/schemas/query';
import { PRIMARY } from '../../lib/antd/theme.ts';
import type { ChartOption } from './components/echarts.tsx';

// The statistics page's ECharts options (stat-page.tsx draws them; chart-options.test.ts renders
// them with ECharts itself and reads the axes and the line back).

type Trend = StatSummary['trend'][number];

const num = (v: string) => Number(v);
const amounts = (trend: readonly Trend[]) => trend.map((t) => num(t.total_with_tax));
/** axis labels in 万 once amounts are large */
const wan = (v: number) => (Math.abs(v) >= 10_000 ? `${Math.round(v / 1000) / 10}万` : String(v));
const BLUE = PRIMARY;
const GREEN = '#52c41a';

/** The smallest of 1, 2, 5 × 10ⁿ at least `raw` (an axis step a reader can add up). */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const base = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * base).find((s) => s >= raw * (1 - 1e-9));
  return step ?? 10 * base;
}

/** About this many steps on the trend's axes. */
const TREND_STEPS = 5;

/**
 * The trend's two value axes, one grid line apart each: 价税合计 in nice steps, 开票张数 in whole
 * invoices, with both zeros on the same line. A day with more red than blue invoices takes the
 * amounts below 0; the counts never go there (red invoices are counted, not subtracted), so the
 * count axis shows no labels below its 0 — before, its 0 sat at the bottom of the grid, and the
 * line of an empty day ran below the amounts' 0, as if fewer than none had been issued.
 */
export function trendAxes(trend: readonly Trend[]) {
  const values = amounts(trend);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  // nothing issued: 0 to 1 on both
  const amountStep = niceStep((high - low || TREND_STEPS) / TREND_STEPS);
  const below = Math.ceil(-low / amountStep - 1e-9);
  const above = Math.max(1, Math.ceil(high / amountStep - 1e-9));
  const countStep = Math.max(1, niceStep(Math.max(0, ...trend.map((t) => t.count)) / above));
  const at = (n: number, step: number) => Number((n * step).toPrecision(12));
  return {
    amount: { min: at(-below, amountStep), max: at(above, amountStep), interval: amountStep },
    count: { min: -below * countStep, max: above * countStep, interval: countStep },
  };
}

/**
 * 开票趋势: 价税合计 as bars on the amount axis, 开票张数 as a line on the count axis (issue 24).
 * Counts are whole invoices: the count axis steps by whole numbers (ECharts left to itself ticked
 * 0.2, 0.5 for small counts), and the line is straight from point to point — a smoothed curve
 * between a busy day and an empty one drew fractions of an invoice and could swing past a point.
 */
export function trendOption(trend: readonly Trend[]): ChartOption {
  const axes = trendAxes(trend);
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [TERMS.totalWithTax, '开票张数'], top: 0 },
    grid: { left: 70, right: 50, top: 50, bottom: 30 },
    xAxis: { type: 'category', data: trend.map((t) => t.period) },
    yAxis: [
      { type: 'value', name: `${TERMS.amount}（元）`, ...axes.amount, axisLabel: { formatter: wan } },
      {
        type: 'value',
        name: '张数',
        ...axes.count,
        minInterval: 1,
        axisLabel: { formatter: (v: number) => (v < 0 ? '' : String(v)) },
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: TERMS.totalWithTax,
        type: 'bar',
        data: amounts(trend),
        itemStyle: { color: BLUE },
      },
      {
        name: '开票张数',
        type: 'line',
        yAxisIndex: 1,
        smooth: false,
        data: trend.map((t) => t.count),
        itemStyle: { color: GREEN },
      },
    ],
  };
}

export function kindOption(d: StatSummary): ChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}<br/>{c} 张（{d}%）' },
    legend: { bottom: 0, type: 'scroll' },
    series: [
      {
        name: TERMS.invoiceKind,
        type: 'pie',
        radius: ['40%', '68%'],
        center: ['50%', '42%'],
        label: { position: 'inside', formatter: '{d}%', color: '#fff' },
        data: d.by_kind.map((k) => ({ name: k.name, value: k.count })),
      },
    ],
  };
}

export function rateOption(d: StatSummary): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [TERMS.amount, TERMS.taxAmount], top: 0 },
    grid: { left: 70, right: 20, top: 50, bottom: 30 },
    xAxis: { type: 'category', data: d.by_rate.map((r) => r.label) },
    yAxis: { type: 'value', name: '元', axisLabel: { formatter: wan } },
    series: [
      {
        name: TERMS.amount,
        type: 'bar',
        data: d.by_rate.map((r) => num(r.total_amount)),
        itemStyle: { color: BLUE },
      },
      {
        name: TERMS.taxAmount,
        type: 'bar',
        data: d.by_rate.map((r) => num(r.total_tax)),
        itemStyle: { color: '#faad14' },
      },
    ],
  };
}

export function storeOption(d: StatSummary): ChartOption {
  const rows = [...d.by_store].reverse();
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 110, right: 40, top: 20, bottom: 30 },
    xAxis: { type: 'value', name: '元', axisLabel: { formatter: wan }, splitNumber: 3 },
    yAxis: { type: 'category', data: rows.map((s) => s.store_name) },
    series: [
      {
        name: TERMS.totalWithTax,
        type: 'bar',
        data: rows.map((s) => num(s.total_with_tax)),
        itemStyle: { color: BLUE },
      },
    ],
  };
}
