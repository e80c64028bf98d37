import type { StatSummary } from '@kaipiao/shared/schemas/query';
import { beijingDay } from '@kaipiao/shared/time/beijing';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { queryClient } from '../../../lib/query-client.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { prefetchStat } from '../api.ts';
import { StatPage } from './stat-page.tsx';

// ECharts draws on a canvas jsdom does not have; the options are chart-options.test.ts's
vi.mock('./echarts.tsx', () => ({ Chart: () => null }));

const PATH = '/v3/invoice-stat/summary';
const sums = (count: number, amount: string, tax: string, withTax: string) => ({
  count,
  total_amount: amount,
  total_tax: tax,
  total_with_tax: withTax,
});
// the Beijing calendar's day, whatever this process's time zone (ranges.ts)
const today = beijingDay();
const from = dayjs(today).subtract(29, 'day').format('YYYY-MM-DD');
const SUMMARY: StatSummary = {
  date_from: from,
  date_to: today,
  granularity: 'day',
  totals: sums(3, '3000.00', '180.00', '3180.00'),
  blue: sums(3, '3000.00', '180.00', '3180.00'),
  red: sums(0, '0.00', '0.00', '0.00'),
  trend: [{ period: today, ...sums(3, '3000.00', '180.00', '3180.00'), blue_count: 3, red_count: 0 }],
  by_kind: [{ invoice_type: '82', name: '电子发票（普通发票）', ...sums(3, '3000.00', '180.00', '3180.00') }],
  by_rate: [
    {
      tax_rate: '0.06',
      label: '6%',
      line_count: 3,
      total_amount: '3000.00',
      total_tax: '180.00',
      total_with_tax: '3180.00',
    },
  ],
  by_store: [{ store_id: 1, store_name: '文三路总部', ...sums(3, '3000.00', '180.00', '3180.00') }],
};

function renderPage() {
  return render(
    <QueryClientProvider client={queryClient}>
      <AntdProvider>
        <StatPage />
      </AntdProvider>
    </QueryClientProvider>,
  );
}

const summaries = () => apiCalls(PATH).map((c) => c.body);

describe('StatPage (开票统计)', { timeout: 60_000 }, () => {
  beforeEach(() => {
    server.use(apiOk('POST', PATH, SUMMARY));
    useSessionStore.getState().select(
      {
        client_id: 1,
        name: '杭州云栈软件科技有限公司',
        tax_code: '91330106MA2KC7LM1A',
        org_id: 1,
        industry: 'general',
      },
      { client_store_id: 1, name: '文三路总部' },
    );
  });
  afterEach(() => {
    useSessionStore.getState().reset();
    queryClient.clear();
  });

  it('asks for the last 30 days by day when it opens', async () => {
    renderPage();
    const count = await screen.findByText('开票张数', { selector: '.ant-statistic-title' });
    expect(within(count.closest('.ant-statistic') as HTMLElement).getByText('3')).toBeTruthy();
    expect(summaries()).toEqual([{ date_from: from, date_to: today, granularity: 'day' }]);
  });

  it('takes the summary asked for with its code instead of asking again (issue 24 item 6)', async () => {
    prefetchStat();
    await waitFor(() => expect(summaries()).toHaveLength(1));
    renderPage();
    const count = await screen.findByText('开票张数', { selector: '.ant-statistic-title' });
    expect(within(count.closest('.ant-statistic') as HTMLElement).getByText('3')).toBeTruthy();
    // still the one request, the page's own first request
    expect(summaries()).toEqual([{ date_from: from, date_to: today, granularity: 'day' }]);
  });

  it('a preset asks for its range on the Beijing calendar (近7天)', async () => {
    renderPage();
    await screen.findByText('开票张数', { selector: '.ant-statistic-title' });
    const start = screen.getByPlaceholderText('开始日期');
    fireEvent.mouseDown(start);
    fireEvent.focus(start);
    fireEvent.click(start);
    fireEvent.click(await screen.findByText('近7天'));
    const week = dayjs(today).subtract(6, 'day').format('YYYY-MM-DD');
    await waitFor(() =>
      expect(summaries()).toContainEqual({ date_from: week, date_to: today, granularity: 'day' }),
    );
  });

  it('asks for nothing ahead of the page without a selected business', async () => {
    useSessionStore.getState().reset();
    prefetchStat();
    await new Promise((r) => setTimeout(r, 50));
    expect(summaries()).toEqual([]);
  });
});
