import type { InfoByTaxCode, TitleItem } from '@kaipiao/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// Buyer titles for the buyer block's autocomplete and the tax-code lookup.
export type Title = TitleItem;

export const titleSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'titles', keyword),
    queryFn: () => api.get<Title[]>('/v3/client-title/search', { params: { keyword }, showError: false }),
    staleTime: 30_000,
    enabled: keyword.trim().length > 0,
  });

/** GET /v3/client/get-info-by-tax-code: the registered business and this business's saved title for it. */
export const infoByTaxCode = (tax_code: string) =>
  api.get<InfoByTaxCode>('/v3/client/get-info-by-tax-code', { params: { tax_code }, showError: false });
