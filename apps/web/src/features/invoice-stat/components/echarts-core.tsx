import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { CSSProperties } from 'react';
import type { ChartOption } from './echarts.tsx';

// ECharts with only what the statistics charts use (bar, line, pie; grid, tooltip, legend), in
// this chunk only: echarts.tsx imports it lazily, when a chart is first drawn.
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

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
