import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import type {
  RedApplyRequest,
  RedBlueInfo,
  RedForm,
  RedListRequest,
  RedListResponse,
} from '@kaipiao/shared/schemas/red-info';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { prefetchRequest, takeRequest } from '../../lib/prefetch-query.ts';
import { scopedKey } from '../../lib/query-scope.ts';

// Red-letter forms (/v3/red-info/*), domain.md §3; voiding is api/invoice-actions.ts.

export const listRedForms = (body: RedListRequest, { showError = true } = {}) =>
  api.post<RedListResponse>('/v3/red-info/list', body, { showError });

/** What the sheet's search form holds. */
export type RedSearch = { kind?: RedForm['kind']; state?: string; keyword?: string };

/** What the list asks for (one shape, so the request started ahead matches the page's). */
export const redListBody = (search: RedSearch, page: number, pageSize: number): RedListRequest => ({
  page,
  page_size: pageSize,
  kind: search.kind,
  state: search.state,
  keyword: search.keyword?.trim() || undefined,
});

/** /red-info/sheet's list: asked each time the page is shown (staleTime 0). */
export const redListQuery = (body: RedListRequest) =>
  queryOptions({
    queryKey: scopedKey('red-info', 'list', body),
    // the first page may have been asked for with the page's code (prefetchRedForms)
    queryFn: () => takeRequest('red-forms', body, () => listRedForms(body)),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

/** The sheet's first page, started with the page's code (app/prefetch.ts: navigation, menu hover). */
export const prefetchRedForms = () => {
  const first = redListBody({}, 1, PAGE_SIZES[0]);
  prefetchRequest('red-forms', first, () => listRedForms(first, { showError: false }));
};

export const redFormQuery = (formId: number | null) =>
  queryOptions({
    queryKey: scopedKey('red-info', 'form', formId),
    queryFn: () => api.post<RedForm>('/v3/red-info/detail', { form_id: formId }),
    enabled: formId !== null,
  });

export const blueInfoQuery = (invoiceId: number | null) =>
  queryOptions({
    queryKey: scopedKey('red-info', 'blue', invoiceId),
    queryFn: () => api.post<RedBlueInfo>('/v3/red-info/blue-info', { invoice_id: invoiceId }),
    enabled: invoiceId !== null,
    staleTime: 0,
  });

export const applyRed = (body: RedApplyRequest) => api.post<RedForm>('/v3/red-info/apply', body);

export type RedAction = 'confirm' | 'reject' | 'revoke' | 'issue';
export const redAction = (action: RedAction, formId: number) =>
  api.post<RedForm>(`/v3/red-info/${action}`, { form_id: formId });

type BlueCandidate = {
  invoice_id: number;
  invoice_type_name: string;
  invoice_code: string;
  invoice_no: string | null;
  buyer_name: string;
  total_with_tax: string;
  issued_at: string | null;
  status_name: string;
};

/** Blue invoices to reverse, found by number in the invoice library (issued, not fully reddened). */
export const findBlueInvoices = (invoiceNo: string) =>
  api.post<{ list: BlueCandidate[] }>('/v3/invoice-record/list', {
    invoice_no: invoiceNo,
    direction: 'blue',
    statuses: ['normal', 'partial_red'],
    page: 1,
    page_size: 10,
  });
export type { BlueCandidate };
