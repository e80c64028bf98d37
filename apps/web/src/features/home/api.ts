import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import type { HomeOverview } from '@kaipiao/shared/schemas/query';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { prefetchQueries } from '../../lib/prefetch-query.ts';
import { scopedKey } from '../../lib/query-scope.ts';

// Home (/home/index): figures, the small-scale tax notice and the tax-rate-change tip.
export const homeOverviewQuery = (clientId: number, sid: number) =>
  queryOptions({
    queryKey: scopedKey('home-overview', clientId, sid),
    queryFn: () => api.get<HomeOverview>('/v3/home/invoice-overview', { showError: false }),
    enabled: clientId > 0,
    staleTime: 30_000,
  });

/** spec §1 tax notice buttons: 不再提醒 → never, 确定 → not again today. */
export const answerSmallScaleNotice = (action: 'never' | 'confirm') =>
  api.post<null>('/v3/home/small-scale-notice', { action });

/** spec §7 POST /v3/system/clone-tax-rate-tips: closes the tax-rate-change tip for this business. */
export const closeTaxRateTip = () => api.post<null>('/v3/system/clone-tax-rate-tips', {});

/** The page's first request, started with its code (app/prefetch.ts). */
export const prefetchHome = () =>
  prefetchQueries(({ clientId, sid }, client) => {
    void client.prefetchQuery(homeOverviewQuery(clientId, sid ?? SUMMARY_STORE_ID));
  });
