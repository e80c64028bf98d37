import type { TitleBody, TitleItem } from '@kaipiao/shared/schemas/titles';
import { api } from '../../../lib/api.ts';

// Buyer titles (购方抬头): list and maintenance for /device-project/title.
export type TitlePage = { list: TitleItem[]; total: number };
export type TitleListParams = { keyword?: string; title_type?: 1 | 2; page: number; page_size: number };

export const TITLE_PATHS = {
  export: '/v3/client-title/export',
  template: '/v3/client-title/template',
  import: '/v3/client-title/import',
} as const;

export const listTitles = (params: TitleListParams) =>
  api.get<TitlePage>('/v3/client-title/list', { params });

/** Field errors (10001, duplicate names) come back to the form; other failures show a dialog. */
export const createTitle = (body: TitleBody) =>
  api.post<TitleItem>('/v3/client-title/create', body, { showError: false });

export const updateTitle = (id: number, body: TitleBody) =>
  api.post<TitleItem>('/v3/client-title/update', { id, ...body }, { showError: false });

export const deleteTitles = (ids: number[]) =>
  api.post<{ deleted: number }>('/v3/client-title/delete', { ids });
