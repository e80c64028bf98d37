import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { CSSProperties } from 'react';

// ECharts with only what the statistics charts use (bar, line, pie; grid, tooltip, legend), in
// this chunk only: nothing else imports it, so the login page and the shell stay without it.
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export type ChartOption = Record<string, unknown>;

/** Under automation (screenshots, end-to-end tests) charts draw at once instead of growing. */
const ANIMATE = typeof navigator === 'undefined' || !navigator.webdriver;

export function Chart({ option, style }: { option: ChartOption; style?: CSSProperties }) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      option={ANIMATE ? option : { ...option, animation: false }}
      notMerge
      lazyUpdate
      style={{ height: 320, ...style }}
    />
  );
}
