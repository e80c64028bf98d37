import type { TaxEquipment } from '@kaipiao/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { scopedKey } from '../lib/query-scope.ts';

// GET /v3/client-store/get-tax-equipment (spec §7): the devices a store issues through, with their
// invoice kinds, limits and quota.
export const taxEquipmentQuery = (storeId: number) =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'equipment', storeId),
    queryFn: () =>
      api.get<TaxEquipment[]>('/v3/client-store/get-tax-equipment', { params: { store_id: storeId } }),
    staleTime: 10_000,
  });
