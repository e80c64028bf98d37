import type {
  ApproveBody,
  CreateOrderBody,
  ScanCode,
  ScanRequest,
  ScanRequestStatus,
  ScanSettings,
} from '@kaipiao/shared/schemas/scan';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { buildUrl } from '../../../lib/build-url.ts';
import { scopedKey } from '../../../lib/query-scope.ts';
import { useSessionStore } from '../../../stores/session-store.ts';

// Scan-to-invoice (console side): per-store settings, static and order QR codes, the audit queue.
export type Page<T> = { list: T[]; total: number };

// Settings name their store (sid) rather than take the session's: the store page opens them for
// any row's store (issue 24: 上海分部's 扫码开票设置 opened 文三路总部's). The server checks the store.
export const settingsQuery = (storeId: number) =>
  queryOptions({
    queryKey: scopedKey('scan', 'settings', storeId),
    queryFn: () => api.get<ScanSettings>('/v3/scan-code/settings', { params: { sid: storeId } }),
  });

export const saveSettings = (storeId: number, body: Omit<ScanSettings, 'store_id'>) =>
  api.post<ScanSettings>('/v3/scan-code/settings', body, { params: { sid: storeId } });

export const codesQuery = (
  storeId: number,
  kind: 'static' | 'order',
  page: number,
  pageSize: number,
  keyword = '',
) =>
  queryOptions({
    queryKey: scopedKey('scan', 'codes', storeId, kind, page, pageSize, keyword),
    queryFn: () =>
      api.get<Page<ScanCode>>('/v3/scan-code/list', { params: { kind, page, page_size: pageSize, keyword } }),
  });

export const createCounter = (name: string) => api.post<ScanCode>('/v3/scan-code/create-counter', { name });
export const createOrder = (body: CreateOrderBody) => api.post<ScanCode>('/v3/scan-code/create-order', body);
export const disableCode = (id: number) => api.post<ScanCode>('/v3/scan-code/disable', { id });

/** The QR PNG (session cookie authenticates it, like invoice downloads). */
export function codeImageUrl(id: number, download = false): string {
  const { business, store } = useSessionStore.getState();
  return buildUrl('/v3/scan-code/image', {
    id,
    download: download ? 1 : 0,
    client_id: business?.client_id,
    sid: store?.client_store_id,
  });
}

export const buyerUrl = (token: string) => `${window.location.origin}/s/${token}`;

export const auditQuery = (
  storeId: number,
  q: { status: ScanRequestStatus | ''; keyword: string; page: number; pageSize: number },
) =>
  queryOptions({
    queryKey: scopedKey('scan', 'audit', storeId, q),
    queryFn: () =>
      api.get<Page<ScanRequest>>('/v3/scan-audit/list', {
        params: { status: q.status, keyword: q.keyword, page: q.page, page_size: q.pageSize },
      }),
  });

export const requestQuery = (id: number) =>
  queryOptions({
    queryKey: scopedKey('scan', 'request', id),
    queryFn: () => api.get<ScanRequest>('/v3/scan-audit/detail', { params: { id } }),
  });

export const approve = (body: ApproveBody) =>
  api.post<{ status: ScanRequestStatus; request: ScanRequest }>('/v3/scan-audit/approve', body, {
    timeout: 33_000,
  });
export const bulkApprove = (ids: number[]) =>
  api.post<{ issued: number; failed: { id: number; message: string }[] }>(
    '/v3/scan-audit/bulk-approve',
    { ids },
    { timeout: 120_000 },
  );
export const reject = (id: number, reason: string) =>
  api.post<ScanRequest>('/v3/scan-audit/reject', { id, reason });
