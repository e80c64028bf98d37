import type {
  GrantStoresBody,
  HandOverBody,
  RevokeBody,
  TrusteeshipItem,
  TrusteeshipList,
} from '@kaipiao/shared/schemas/trusteeship';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// Trusteeship (托管开票): hosted devices and 数电 accounts, the stores that may issue through them.
export const trusteeshipQuery = (clientId: number | undefined) =>
  queryOptions({
    queryKey: scopedKey('trusteeship', clientId),
    queryFn: () => api.get<TrusteeshipList>('/v3/trusteeship/list'),
    // online status comes from the hosting centre: keep it fresh while the page is open
    refetchInterval: 30_000,
  });

export const handOver = (body: HandOverBody) => api.post<TrusteeshipItem>('/v3/trusteeship/hand-over', body);
export const grantStores = (body: GrantStoresBody) =>
  api.post<TrusteeshipItem>('/v3/trusteeship/grant', body);
export const revokeTrusteeship = (body: RevokeBody) =>
  api.post<TrusteeshipItem>('/v3/trusteeship/revoke', body);
