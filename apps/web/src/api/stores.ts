import type { StoreItem } from '@kaipiao/shared/schemas/session';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { scopedKey } from '../lib/query-scope.ts';
import { useSessionStore } from '../stores/session-store.ts';

/** The stores the user may pick in the all-stores view (store filter). */
export const permittedStoresQuery = () => {
  const clientId = useSessionStore.getState().business?.client_id ?? 0;
  return queryOptions({
    queryKey: scopedKey('permitted-stores', clientId),
    queryFn: () =>
      api.get<StoreItem[]>('/v3/user/store-list', { params: { client_id: clientId, sid: undefined } }),
    staleTime: 60_000,
    enabled: clientId > 0,
  });
};
