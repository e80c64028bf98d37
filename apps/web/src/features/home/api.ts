import type { HomeOverview } from '@kaipiao/shared/schemas/query';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
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
