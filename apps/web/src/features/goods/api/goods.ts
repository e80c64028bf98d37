import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import type { GoodsBody, GoodsItem, TaxClassCode, TaxRateResult } from '@kaipiao/shared/schemas/goods';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { prefetchRequest, takeRequest } from '../../../lib/prefetch-query.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// Goods codes (spec §7 client-project calls) and the classification-code table.
export type GoodsPage = { list: GoodsItem[]; total: number };
export type GoodsListParams = { keyword?: string; page: number; page_size: number };

export const GOODS_PATHS = {
  export: '/v3/client-project/export',
  template: '/v3/client-project/template',
  import: '/v3/client-project/import',
} as const;

export const listGoods = (params: GoodsListParams, { showError = true } = {}) =>
  api.get<GoodsPage>('/v3/client-project/get-projects', { params, showError });

/** What the list asks for (one shape, so the request started ahead matches the page's). */
export const goodsListParams = (keyword: string, page: number, pageSize: number): GoodsListParams => ({
  keyword,
  page,
  page_size: pageSize,
});

/** /device-project/project's list: asked each time the page is shown (staleTime 0). */
export const goodsListQuery = (params: GoodsListParams) =>
  queryOptions({
    queryKey: scopedKey('goods', 'list', params),
    // the first page may have been asked for with the page's code (prefetchGoods)
    queryFn: () => takeRequest('goods', params, () => listGoods(params)),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

/** The list's first page, started with the page's code (app/prefetch.ts: navigation, menu hover). */
export const prefetchGoods = () => {
  const first = goodsListParams('', 1, PAGE_SIZES[0]);
  prefetchRequest('goods', first, () => listGoods(first, { showError: false }));
};

/** Field errors (10001, duplicates) come back to the form; other failures show a dialog. */
export const createGoods = (body: GoodsBody) =>
  api.post<GoodsItem>('/v3/client-project/create', body, { showError: false });

export const updateGoods = (id: number, body: GoodsBody) =>
  api.post<GoodsItem>('/v3/client-project/update', { id, ...body }, { showError: false });

export const deleteGoods = (ids: number[]) =>
  api.post<{ deleted: number }>('/v3/client-project/delete', { ids });

export const setDefaultGoods = (id: number, is_default: boolean) =>
  api.post<null>('/v3/client-project/set-default', { id, is_default });

export const taxRatesQuery = (taxClassCode: string) =>
  queryOptions({
    queryKey: scopedKey('goods', 'tax-rate', taxClassCode),
    queryFn: () =>
      api.post<TaxRateResult>(
        '/v3/client-project/tax-rate',
        taxClassCode ? { tax_class_code: taxClassCode } : {},
      ),
    staleTime: 5 * 60_000,
    enabled: taxClassCode === '' || /^\d{19}$/.test(taxClassCode),
  });

export const taxClassSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: scopedKey('goods', 'tax-class', keyword),
    queryFn: () =>
      api.get<TaxClassCode[]>('/v3/tax-class-code/search', {
        params: { keyword, limit: 30 },
        showError: false,
      }),
    staleTime: 5 * 60_000,
  });
