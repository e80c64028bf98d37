import type { StatRequest, StatSummary } from '@kaipiao/shared/schemas/query';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { scopedKey } from '../../lib/query-scope.ts';

// Statistics (/query/invoice-stat): POST /v3/invoice-stat/summary.
export const statSummaryQuery = (scopeKey: string, body: StatRequest) =>
  queryOptions({
    queryKey: scopedKey('invoice-stat', scopeKey, body),
    queryFn: () => api.post<StatSummary>('/v3/invoice-stat/summary', body),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
