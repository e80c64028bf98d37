import { PAGE_SIZES } from '@kaipiao/shared/constants/menu';
import type { BatchDryRun, BatchProgress, BatchRow, BatchRowStatus } from '@kaipiao/shared/schemas/batch';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { downloadFile, uploadFile } from '../../../lib/file-transfer.ts';
import { prefetchQueries } from '../../../lib/prefetch-query.ts';
import { scopedKey } from '../../../lib/query-scope.ts';

// Batch issuing (/v3/batch-invoice/*): template, upload with its validation report, dry run,
// start / pause / resume / cancel / retry, progress, rows, history and the result file.
export const BATCH_PATHS = {
  template: '/v3/batch-invoice/template',
  upload: '/v3/batch-invoice/upload',
  result: '/v3/batch-invoice/result',
} as const;

export type BatchAction = 'start' | 'pause' | 'resume' | 'cancel' | 'retry';

export const downloadTemplate = () => downloadFile(BATCH_PATHS.template, {}, '批量开票模板.xlsx');
export const downloadResult = (batchId: number) =>
  downloadFile(BATCH_PATHS.result, { batch_id: batchId }, `批量开票结果_${batchId}.xlsx`);

/** Uploads the filled template; a refused file rejects with ApiError whose data is the report. */
export const uploadBatch = (
  file: File,
  opts: { deviceId: number; invoiceType: string; sendEmail: boolean },
) =>
  uploadFile<BatchDryRun>(
    `${BATCH_PATHS.upload}?device_id=${opts.deviceId}&invoice_type=${encodeURIComponent(opts.invoiceType)}&send_email=${opts.sendEmail ? 1 : 0}`,
    file,
  );

export const batchAction = (action: BatchAction, batchId: number) =>
  api.post<BatchProgress>(`/v3/batch-invoice/${action}`, { batch_id: batchId });

export const dryRunQuery = (batchId: number) =>
  queryOptions({
    queryKey: scopedKey('batch', 'dry-run', batchId),
    queryFn: () => api.get<BatchDryRun>('/v3/batch-invoice/dry-run', { params: { batch_id: batchId } }),
  });

/** Progress, polled every second while rows are being issued. */
export const progressQuery = (batchId: number) =>
  queryOptions({
    queryKey: scopedKey('batch', 'progress', batchId),
    queryFn: () => api.get<BatchProgress>('/v3/batch-invoice/progress', { params: { batch_id: batchId } }),
    refetchInterval: (q) => {
      const p = q.state.data;
      return p && (p.status === 'running' || p.issuing > 0) ? 1000 : false;
    },
  });

export const historyQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: scopedKey('batch', 'list', page, pageSize),
    queryFn: () =>
      api.get<{ total: number; list: BatchProgress[] }>('/v3/batch-invoice/list', {
        params: { page, page_size: pageSize },
      }),
    refetchInterval: (q) => (q.state.data?.list.some((b) => b.status === 'running') ? 3000 : false),
  });

export const rowsQuery = (batchId: number, status: BatchRowStatus | '', page: number, pageSize: number) =>
  queryOptions({
    queryKey: scopedKey('batch', 'rows', batchId, status, page, pageSize),
    queryFn: () =>
      api.get<{ total: number; list: BatchRow[] }>('/v3/batch-invoice/rows', {
        params: { batch_id: batchId, status, page, page_size: pageSize },
      }),
  });

/** /invoice/batch's first request (the history's first page), started with its code (app/prefetch.ts). */
export const prefetchBatch = () =>
  prefetchQueries((_, client) => {
    void client.prefetchQuery(historyQuery(1, PAGE_SIZES[0]));
  });
