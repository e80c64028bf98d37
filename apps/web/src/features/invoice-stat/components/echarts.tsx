import { type CSSProperties, lazy, Suspense } from 'react';

// ECharts (~580 kB) loads when a chart is first drawn (issue 11: the statistics page's first paint
// does not wait for it, and no other page ever loads it); echarts-core.tsx holds the library.

export type ChartOption = Record<string, unknown>;

const ChartCore = lazy(() => import('./echarts-core.tsx').then((m) => ({ default: m.Chart })));

/** While ECharts loads, the chart's place is kept (no layout shift when it draws). */
export function Chart({ option, style }: { option: ChartOption; style?: CSSProperties }) {
  return (
    <Suspense fallback={<div style={{ height: 320, ...style }} />}>
      <ChartCore option={option} style={style} />
    </Suspense>
  );
}
