import type { MenuEntry } from '@kaipiao/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { scopedKey } from '../lib/query-scope.ts';

/** GET /v3/authority/menu-list for the selected business (spec §4 route filtering). */
export const menuListQuery = (clientId: number) =>
  queryOptions({
    queryKey: scopedKey('menu', clientId),
    queryFn: ({ signal }) =>
      api.get<{ list: MenuEntry[] }>('/v3/authority/menu-list', { params: { client_id: clientId }, signal }),
    staleTime: 5 * 60_000,
  });
