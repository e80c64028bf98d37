import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import type { TitleBody, TitleItem } from '@kaipiao/shared/schemas/titles';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { prefetchRequest, takeRequest } from '../../../lib/prefetch-query.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// Buyer titles (购方抬头): list and maintenance for /device-project/title.
export type TitlePage = { list: TitleItem[]; total: number };
export type TitleListParams = { keyword?: string; title_type?: 1 | 2; page: number; page_size: number };

export const TITLE_PATHS = {
  export: '/v3/client-title/export',
  template: '/v3/client-title/template',
  import: '/v3/client-title/import',
} as const;

export const listTitles = (params: TitleListParams, { showError = true } = {}) =>
  api.get<TitlePage>('/v3/client-title/list', { params, showError });

/** What the list asks for (one shape, so the request started ahead matches the page's). */
export const titleListParams = (
  keyword: string,
  titleType: 1 | 2 | undefined,
  page: number,
  pageSize: number,
): TitleListParams => ({ keyword, title_type: titleType, page, page_size: pageSize });

/** /device-project/title's list: asked each time the page is shown (staleTime 0). */
export const titleListQuery = (params: TitleListParams) =>
  queryOptions({
    queryKey: scopedKey('titles', 'list', params),
    // the first page may have been asked for with the page's code (prefetchTitles)
    queryFn: () => takeRequest('titles', params, () => listTitles(params)),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

/** The list's first page, started with the page's code (app/prefetch.ts: navigation, menu hover). */
export const prefetchTitles = () => {
  const first = titleListParams('', undefined, 1, PAGE_SIZES[0]);
  prefetchRequest('titles', first, () => listTitles(first, { showError: false }));
};

/** Field errors (10001, duplicate names) come back to the form; other failures show a dialog. */
export const createTitle = (body: TitleBody) =>
  api.post<TitleItem>('/v3/client-title/create', body, { showError: false });

export const updateTitle = (id: number, body: TitleBody) =>
  api.post<TitleItem>('/v3/client-title/update', { id, ...body }, { showError: false });

export const deleteTitles = (ids: number[]) =>
  api.post<{ deleted: number }>('/v3/client-title/delete', { ids });
