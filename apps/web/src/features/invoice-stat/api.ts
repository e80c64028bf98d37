import type { StatRequest, StatSummary } from '@kaipiao/shared/schemas/query';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type dayjs from 'dayjs';
import { api } from '../../lib/api.ts';
import { prefetchQueries } from '../../lib/prefetch-query.ts';
import { scopedKey } from '../../lib/query-scope.ts';
import { firstStatRange } from './ranges.ts';

// Statistics (/query/invoice-stat): POST /v3/invoice-stat/summary.
export const statSummaryQuery = (scopeKey: string, body: StatRequest) =>
  queryOptions({
    queryKey: scopedKey('invoice-stat', scopeKey, body),
    queryFn: () => api.post<StatSummary>('/v3/invoice-stat/summary', body),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export { firstStatRange };

/** The page's request for a range, by day or month, over the chosen stores (none chosen: all). */
export const statRequest = (
  range: readonly [dayjs.Dayjs, dayjs.Dayjs],
  granularity: 'day' | 'month',
  storeIds: readonly number[] = [],
): StatRequest => ({
  date_from: range[0].format('YYYY-MM-DD'),
  date_to: range[1].format('YYYY-MM-DD'),
  granularity,
  store_ids: storeIds.length ? [...storeIds] : undefined,
});

/**
 * The page's first request (近30天 by day, every store), started with its code (app/prefetch.ts:
 * the navigation to it, a hover on its menu item) instead of after it has mounted (issue 24 item 6);
 * the page's query then finds it in flight or answered.
 */
export const prefetchStat = () =>
  prefetchQueries(({ clientId, sid }, client) => {
    void client.prefetchQuery(statSummaryQuery(`${clientId}:${sid}`, statRequest(firstStatRange(), 'day')));
  });
