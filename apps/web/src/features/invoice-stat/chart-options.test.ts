import type { StatSummary } from '@kaipiao/shared/schemas/query';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { niceStep, trendAxes, trendOption } from './chart-options.ts';

// The trend chart drawn by ECharts itself (server-side SVG, no canvas), then read back: the count
// axis's tick labels and the 开票张数 line's path (issue 24: fractions of an invoice on the axis, a
// smoothed line between the points).

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const WIDTH = 800;
const HEIGHT = 320;
const LINE_COLOUR = '#52c41a';

type Trend = StatSummary['trend'][number];
/** One period per count; 价税合计 1,060 yuan an invoice unless given (a red day: negative). */
const trendOf = (counts: number[], withTax?: number[]): Trend[] =>
  counts.map((count, i) => ({
    period: `2026-11-${String(i + 1).padStart(2, '0')}`,
    count,
    blue_count: count,
    red_count: 0,
    total_amount: '0.00',
    total_tax: '0.00',
    total_with_tax: (withTax?.[i] ?? count * 1060).toFixed(2),
  }));

function draw(counts: number[], withTax?: number[]) {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
  chart.setOption({ ...trendOption(trendOf(counts, withTax)), animation: false });
  const svg = chart.renderToSVGString();
  const px = (i: number) =>
    chart.convertToPixel({ xAxisIndex: 0, yAxisIndex: 1 }, [i, counts[i]!]) as number[];
  const points = counts.map((_, i) => px(i));
  const zeroY = chart.convertToPixel({ yAxisIndex: 1 }, 0) as number;
  const amountZeroY = chart.convertToPixel({ yAxisIndex: 0 }, 0) as number;
  chart.dispose();
  // the count axis is the right-hand one: its labels start right of the grid (grid.right = 50);
  // below 0 it has none (empty texts, if ECharts writes them at all)
  const labels = [
    ...svg.matchAll(
      /<text [^>]*text-anchor="start"[^>]*translate\(([\d.]+) ([\d.]+)\)[^>]*>([^<]*)<\/text>/g,
    ),
  ]
    .filter((m) => Number(m[1]) > WIDTH - 50 && m[3] !== '')
    .map((m) => ({ text: m[3]!, y: Number(m[2]) }));
  const line = svg.match(new RegExp(`<path d="([^"]+)" fill="none"[^>]*stroke="${LINE_COLOUR}"`))?.[1];
  return {
    countLabels: labels.map((l) => l.text),
    countLabelYs: labels.map((l) => l.y),
    line,
    points,
    zeroY,
    amountZeroY,
  };
}

/** The path's commands and their points: `M x y`, `L x y` (and `C …` for a curve). */
function commands(d: string) {
  return [...d.matchAll(/([MLCQZ])([^MLCQZ]*)/g)].map((m) => ({
    op: m[1]!,
    xy: (m[2]!.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number),
  }));
}

describe('开票趋势 options (issue 24)', () => {
  beforeEach(() => {
    // jsdom has no canvas: ECharts then estimates text widths (and jsdom stays quiet about it)
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });

  it.each([
    ['one invoice in thirty days (the screenshot: 0, 0.2 … 1)', [...Array<number>(29).fill(0), 1]],
    ['a few a day', [0, 3, 0, 1, 0, 0, 2]],
    ['two at most', [1, 2, 1, 1, 2, 0, 1]],
    ['dozens', [12, 37, 5, 0, 21, 9, 30]],
  ])('ticks the count axis in whole invoices from 0: %s', (_, counts) => {
    const { countLabels } = draw(counts);
    expect(countLabels.length).toBeGreaterThanOrEqual(2);
    for (const label of countLabels) expect(label).toMatch(/^\d+$/);
    expect(countLabels[0]).toBe('0');
    const top = Number(countLabels.at(-1));
    expect(top).toBeGreaterThanOrEqual(Math.max(...counts));
  });

  it('draws 开票张数 as straight segments through the points, never below 0 or past a point', () => {
    const counts = [0, 5, 0, 1, 4, 0, 0, 2, 6, 6, 0, 1];
    const { line, points, zeroY } = draw(counts);
    expect(line).toBeTruthy();
    const cmds = commands(line!);
    // one vertex per period, joined by lines: no curve that could swing outside its two points
    expect(cmds.map((c) => c.op)).toEqual(['M', ...Array<string>(counts.length - 1).fill('L')]);
    for (const [i, c] of cmds.entries()) {
      expect(c.xy[0]).toBeCloseTo(points[i]![0]!, 0);
      expect(c.xy[1]).toBeCloseTo(points[i]![1]!, 0);
      // SVG y grows downwards: at or above the zero line
      expect(c.xy[1]).toBeLessThanOrEqual(zeroY + 0.5);
    }
  });

  it("puts the counts' 0 on the amounts' 0 when a red day takes the amounts below it", () => {
    const counts = [10, 6, 1, 0, 0, 12, 8];
    const { countLabels, countLabelYs, zeroY, amountZeroY, line } = draw(
      counts,
      [700_000, 630_000, -83_600, 0, 0, 1_300_000, 900_000],
    );
    expect(zeroY).toBeCloseTo(amountZeroY, 0);
    // no count below 0: the lowest label is 0, on the zero line, and the line never goes under it
    expect(countLabels[0]).toBe('0');
    expect(countLabelYs[0]).toBeCloseTo(zeroY, 0);
    for (const label of countLabels) expect(label).toMatch(/^\d+$/);
    const ys = commands(line!).map((c) => c.xy[1]!);
    expect(ys).toHaveLength(counts.length);
    for (const y of ys) expect(y).toBeLessThanOrEqual(zeroY + 0.5);
  });

  it('fits every amount and count in its axis: whole-invoice steps, the zeros on one grid line', () => {
    // a fixed pseudo-random walk over 300 trends (amounts with red days, counts 0 to 400)
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let k = 0; k < 300; k++) {
      const n = 1 + Math.floor(next() * 31);
      const scale = 10 ** Math.floor(next() * 8);
      const counts = Array.from({ length: n }, () => (next() < 0.3 ? 0 : Math.floor(next() * 400 * next())));
      const withTax = counts.map((c) => Math.round((next() - 0.15) * scale * (c + 1) * 100) / 100);
      const { amount, count } = trendAxes(trendOf(counts, withTax));
      expect(Number.isInteger(count.interval) && count.interval >= 1).toBe(true);
      expect(Number.isInteger(count.min) && Number.isInteger(count.max)).toBe(true);
      expect(count.max).toBeGreaterThanOrEqual(Math.max(...counts));
      expect(amount.min).toBeLessThanOrEqual(Math.min(0, ...withTax));
      expect(amount.max).toBeGreaterThanOrEqual(Math.max(0, ...withTax));
      // the same steps below and above 0 on both axes: their zeros share a grid line
      expect(Math.round(-count.min / count.interval)).toBe(Math.round(-amount.min / amount.interval));
      expect(Math.round(count.max / count.interval)).toBe(Math.round(amount.max / amount.interval));
      expect(Math.round((amount.max - amount.min) / amount.interval)).toBeLessThanOrEqual(7);
    }
    expect([0.3, 1, 1.2, 3, 7, 45, 0].map(niceStep)).toEqual([0.5, 1, 2, 5, 10, 50, 1]);
  });

  it('keeps the count axis at 0 and 1 when nothing was issued (no 0.2 steps, no negative half)', () => {
    const { countLabels, line, zeroY } = draw([0, 0, 0, 0, 0]);
    expect(countLabels).toEqual(['0', '1']);
    const ys = commands(line!).map((c) => c.xy[1]!);
    expect(ys).toHaveLength(5);
    for (const y of ys) expect(y).toBeCloseTo(zeroY, 0);
  });
});
