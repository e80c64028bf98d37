import type { GoodsItem, TaxClassCode, TaxRateResult } from '@kaipiao/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import { scopedKey } from '../lib/query-scope.ts';
// Goods codes, classification codes and rates for the item lines (spec §7 projects, rates, types).
export type ProjectPage = { list: GoodsItem[]; total: number };

export const projectsQuery = (keyword: string) =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'projects', keyword),
    queryFn: () =>
      api.get<ProjectPage>('/v3/client-project/get-projects', {
        params: { keyword, page: 1, page_size: 20 },
      }),
    staleTime: 30_000,
  });

export const defaultProjectQuery = () =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'default-project'),
    queryFn: () => api.get<GoodsItem | null>('/v3/client-project/default-project', { showError: false }),
    staleTime: 60_000,
  });

/** The rates a goods code admits for this business (POST /v3/client-project/tax-rate). */
export const taxRatesQuery = (taxClassCode: string) =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'tax-rate', taxClassCode),
    queryFn: () =>
      api.post<TaxRateResult>(
        '/v3/client-project/tax-rate',
        taxClassCode ? { tax_class_code: taxClassCode } : {},
        { showError: false },
      ),
    staleTime: 5 * 60_000,
    // no code yet: the business's own rates (general or small-scale)
    enabled: taxClassCode === '' || /^\d{19}$/.test(taxClassCode),
  });

/** 税收分类编码 by name, keyword or code prefix (GET /v3/tax-class-code/search). */
export const taxClassSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: scopedKey('invoice-issue', 'tax-class', keyword),
    queryFn: () =>
      api.get<TaxClassCode[]>('/v3/tax-class-code/search', {
        params: { keyword, limit: 20 },
        showError: false,
      }),
    staleTime: 5 * 60_000,
  });
