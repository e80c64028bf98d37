import { SPECIFIC_BUSINESS, SPECIFIC_BUSINESS_DEFS, type SpecificBusinessDef } from '@kaipiao/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// GET /v3/invoice-record/specific-business (spec §7): the 特定业务 this business may issue, with
// their field definitions. Until it answers, the shared definitions stand in.
export const specificBusinessQuery = () =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'specific-business'),
    queryFn: async () => {
      const list = await api.get<SpecificBusinessDef[]>('/v3/invoice-record/specific-business', {
        showError: false,
      });
      return list.filter((b) => b.code in SPECIFIC_BUSINESS);
    },
    staleTime: 5 * 60_000,
    placeholderData: [...SPECIFIC_BUSINESS_DEFS],
  });
