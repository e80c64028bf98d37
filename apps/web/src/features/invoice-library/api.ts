import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import type {
  ExportCreateRequest,
  ExportRecord,
  InvoiceDetail,
  InvoiceFilter,
  InvoiceListRequest,
  InvoiceListResponse,
} from '@kaipiao/shared/schemas/query';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { downloadFile } from '../../lib/file-transfer.ts';
import { prefetchRequest, takeRequest } from '../../lib/prefetch-query.ts';
import { scopedKey } from '../../lib/query-scope.ts';

// Invoice library (issue 3 item 7): list, detail and exports.

export const listInvoices = (body: InvoiceListRequest) =>
  api.post<InvoiceListResponse>('/v3/invoice-record/list', body);

/** The library's first page with no filter: what /query/invoice asks for when it opens. */
const FIRST_PAGE: InvoiceListRequest = { page: 1, page_size: PAGE_SIZES[0] };

/** Starts the library's first request with its code (app/prefetch.ts: route loader, menu hover). */
export const prefetchLibrary = () =>
  prefetchRequest('library', FIRST_PAGE, () =>
    api.post<InvoiceListResponse>('/v3/invoice-record/list', FIRST_PAGE, { showError: false }),
  );

/** The library table's request: the one started ahead when it asks the same, else a new one. */
export const listInvoicesOnce = (body: InvoiceListRequest) =>
  takeRequest('library', body, () => listInvoices(body));

export const invoiceDetailQuery = (invoiceId: number | null) =>
  queryOptions({
    queryKey: scopedKey('invoice-detail', invoiceId),
    queryFn: () =>
      api.post<InvoiceDetail>('/v3/invoice-detail/get-invoice-detail', { invoice_id: invoiceId }),
    enabled: invoiceId !== null,
  });

export const createExport = (body: ExportCreateRequest) =>
  api.post<{ record_id: number; row_count: number }>('/v3/invoice-export/create', body);

export type ExportPage = { list: ExportRecord[]; total: number; page: number; page_size: number };
type ExportListRequest = { page: number; page_size: number };
export const listExports = (body: ExportListRequest, { showError = true } = {}) =>
  api.post<ExportPage>('/v3/invoice-export/list', body, { showError });

/** an export of the page is still being built (queued or running) */
const exportsBuilding = (page: ExportPage | undefined) =>
  page?.list.some((r) => r.status === 'queued' || r.status === 'running') ?? false;

/**
 * /query/invoice/export-records' list: asked each time the page is shown (staleTime 0: a new export
 * made on the library page appears when its kept-alive tab is shown again), and every 2 s while an
 * export is still being built.
 */
export const exportsQuery = (page: number, pageSize: number) => {
  const body: ExportListRequest = { page, page_size: pageSize };
  return queryOptions({
    queryKey: scopedKey('invoice-exports', body),
    // the first page may have been asked for with the page's code (prefetchExports)
    queryFn: () => takeRequest('exports', body, () => listExports(body)),
    staleTime: 0,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (exportsBuilding(q.state.data) ? 2000 : false),
  });
};

/** The records' first page, started with the page's code (app/prefetch.ts: navigation, menu hover). */
export const prefetchExports = () => {
  const first: ExportListRequest = { page: 1, page_size: PAGE_SIZES[0] };
  prefetchRequest('exports', first, () => listExports(first, { showError: false }));
};

export const downloadExport = (record: Pick<ExportRecord, 'record_id' | 'file_name'>) =>
  downloadFile('/v3/invoice-export/download', { record_id: record.record_id }, record.file_name);

export type { InvoiceFilter };
