import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  EXPORT_EXCEL_MAX,
  EXPORT_KEEP_DAYS,
  EXPORT_KINDS,
  EXPORT_PDF_MAX,
  EXPORT_STATUS,
  type ExportRecord,
  exportCreateRequestSchema,
  exportListRequestSchema,
  exportListResponseSchema,
  INVOICE_TYPES,
  type InvoiceFilter,
  LIBRARY_STATUS,
  QUERY_CODE,
  TERMS,
} from '@kaipiao/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { exportRecords } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { canReachStore, readableStores, scopeOf, storeRefused } from '../../lib/scope.ts';
import { ensureInvoiceFiles } from '../documents/service.ts';
import {
  activeExportCount,
  countExportable,
  exportConditions,
  exportFileOf,
  listExportRecords,
  type RecordListRow,
} from './export-repo.ts';
import { type ExportDeps, ExportFailure, type PdfSource, runExport } from './export-runner.ts';
import { defineExportSweepJob, sweepExpiredExports } from './export-sweep.ts';
import { isoOf, timeOf } from './scope.ts';

export const EXPORT_JOB = 'export.invoices';
/** queued + running exports a business may have at once */
const MAX_ACTIVE = 3;
const EXPORT_MENUS = ['/query/invoice', '/hotel/query/invoice', '/query/invoice/export-records'] as const;

/** An issued invoice's PDF: cached in invoice_files, rendered by the documents module when missing. */
const documentsPdf =
  (db: Db): PdfSource =>
  async (clientId, invoiceId) => {
    // Stryker disable next-line OptionalChaining: the runner asks for invoices of this business it has just selected, which ensureInvoiceFiles always finds
    const pdf = (await ensureInvoiceFiles(db, clientId, invoiceId, ['pdf']))?.get('pdf');
    // Stryker disable next-line ConditionalExpression,StringLiteral: ensureInvoiceFiles makes every kind asked for, so the pdf is there
    if (!pdf) throw new ExportFailure('发票版式文件生成失败，请稍后重试');
    return { fileName: pdf.fileName, content: pdf.content };
  };

export function exportDeps(app: FastifyInstance): ExportDeps {
  return {
    db: app.db,
    dataDir: app.env.dataDir,
    pdfFor: documentsPdf(app.db),
    log: app.log,
    clock: app.clock,
  };
}

/** A short Chinese description of what an export covers. */
export function describeFilters(f: InvoiceFilter, selected: number | null): string {
  const parts: string[] = [];
  if (selected !== null) parts.push(`已选${selected}张`);
  if (f.date_from || f.date_to) parts.push(`${TERMS.issueDate} ${f.date_from ?? '…'} 至 ${f.date_to ?? '…'}`);
  if (f.invoice_types?.length)
    parts.push(f.invoice_types.map((t) => INVOICE_TYPES[t as keyof typeof INVOICE_TYPES] ?? t).join('、'));
  if (f.invoice_no) parts.push(`号码 ${f.invoice_no}`);
  if (f.buyer_name) parts.push(`${TERMS.buyerShort} “${f.buyer_name}”`);
  if (f.buyer_tax_code) parts.push(`${TERMS.buyerShort}${TERMS.taxCodeShort} ${f.buyer_tax_code}`);
  if (f.statuses?.length) parts.push(f.statuses.map((s) => LIBRARY_STATUS[s]).join('、'));
  if (f.direction) parts.push(f.direction === 'red' ? TERMS.redShort : TERMS.blueShort);
  if (f.amount_min || f.amount_max)
    parts.push(`${TERMS.totalWithTax} ${f.amount_min ?? '…'} ~ ${f.amount_max ?? '…'}`);
  return parts.join('；') || '全部发票';
}

/** The refusal of an export of more invoices than its kind's limit (`max`) allows. */
export function tooManyToExport(kind: 'pdf_zip' | 'excel', max: number): AppError {
  return new AppError(
    QUERY_CODE.EXPORT_TOO_MANY,
    `${kind === 'excel' ? 'Excel导出' : 'PDF批量下载'}单次最多${max}张，当前超过${max}张，请缩小查询范围后再导出`,
  );
}

function toRecord(r: RecordListRow, now = Date.now()): ExportRecord {
  const status = r.status === 'done' && timeOf(r.expires_at) <= now ? 'expired' : r.status;
  return {
    record_id: Number(r.id),
    kind: r.kind,
    kind_name: EXPORT_KINDS[r.kind],
    status,
    status_name: EXPORT_STATUS[status],
    progress: r.progress,
    row_count: r.row_count,
    file_name: r.file_name,
    file_size: r.file_size === null ? null : Number(r.file_size),
    error: r.error,
    summary: describeFilters(r.filters ?? {}, r.invoice_ids ? r.invoice_ids.length : null),
    // Stryker disable next-line StringLiteral: created_by is NOT NULL and users are never deleted, so the join always names one
    created_by_name: r.created_by_name ?? '',
    created_at: isoOf(r.created_at),
    finished_at: isoOf(r.finished_at),
    expires_at: isoOf(r.expires_at),
  };
}

/**
 * Bulk PDF download and Excel export as jobs (pg-boss queue `export.invoices`; in-process when jobs
 * are off), and the export-records list and download (/query/invoice/export-records). Expired files
 * are removed by an hourly job across all businesses (export-sweep.ts) and, for the session's business,
 * when it creates an export.
 */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = exportDeps(app);
  const jobs = app.hasDecorator('jobs') ? app.jobs : null;
  // Stryker disable next-line OptionalChaining: every app has the jobs decorator (off in tests, pg-boss in production)
  jobs?.define<{ recordId: number }>(
    EXPORT_JOB,
    async (batch) => {
      for (const job of batch) await runExport(deps, job.data.recordId);
    },
    { queue: { retryLimit: 1, expireInSeconds: 60 * 60 } },
  );
  // Stryker disable next-line ConditionalExpression: every app has the jobs decorator
  if (jobs) defineExportSweepJob(app);

  const start = async (recordId: number) => {
    // Stryker disable next-line OptionalChaining: every app has the jobs decorator
    if (jobs?.enabled) {
      await app.boss.send(EXPORT_JOB, { recordId });
      return;
    }
    // jobs off (tests, single process without pg-boss): run in this process, after the reply
    setImmediate(() => {
      // Stryker disable next-line ArrowFunction,ObjectLiteral,StringLiteral: runExport records its failures itself; this only logs one it could not record
      runExport(deps, recordId).catch((err) => app.log.error({ err, recordId }, 'export failed'));
    });
  };

  app.post(
    '/v3/invoice-export/create',
    {
      config: { menu: EXPORT_MENUS, scope: 'store' },
      schema: {
        body: exportCreateRequestSchema,
        response: reply200(z.object({ record_id: z.number(), row_count: z.number() })),
      },
    },
    async (req) => {
      const scope = scopeOf(req);
      const { kind, filters, invoice_ids } = req.body;
      // Stryker disable next-line LogicalOperator,ConditionalExpression: a missing end compares false either way (undefined)
      if (filters.date_from && filters.date_to && filters.date_from > filters.date_to) {
        throw new AppError(QUERY_CODE.DATE_RANGE_INVALID);
      }
      const storeIds = readableStores(scope, filters.store_ids);
      const ids = invoice_ids?.length ? [...new Set(invoice_ids)] : null;
      const max = kind === 'excel' ? EXPORT_EXCEL_MAX : EXPORT_PDF_MAX;
      // what it would export now: refuse nothing-to-do and too-much up front
      const where = exportConditions({
        clientId: scope.clientId,
        storeIds,
        filters,
        invoiceIds: ids,
        pdfOnly: kind === 'pdf_zip',
      });
      const count =
        // Stryker disable next-line ConditionalExpression: counting with no stores gives 0 as well (store_id = any('{0}'))
        storeIds !== null && storeIds.length === 0 ? 0 : await countExportable(app.db, where, max);
      if (count === 0) throw new AppError(QUERY_CODE.EXPORT_EMPTY);
      if (count > max) throw tooManyToExport(kind, max);
      if ((await activeExportCount(app.db, scope.clientId)) >= MAX_ACTIVE)
        throw new AppError(QUERY_CODE.EXPORT_BUSY);
      await sweepExpiredExports(deps, { clientId: scope.clientId });
      const [rec] = await app.db
        .insert(exportRecords)
        .values({
          clientId: scope.clientId,
          kind,
          filters,
          invoiceIds: ids,
          // Stryker disable next-line ConditionalExpression: null either way
          storeIds: storeIds === null ? null : storeIds,
          createdBy: scope.userId,
          expiresAt: new Date(Date.now() + EXPORT_KEEP_DAYS * 86_400_000),
        })
        .returning({ id: exportRecords.id });
      await start(rec!.id);
      return ok({ record_id: rec!.id, row_count: count });
    },
  );

  app.post(
    '/v3/invoice-export/list',
    {
      config: { menu: EXPORT_MENUS, scope: 'store' },
      schema: { body: exportListRequestSchema, response: reply200(exportListResponseSchema) },
    },
    async (req) => {
      const { page, page_size } = req.body;
      const scope = scopeOf(req);
      const { rows, total } = await listExportRecords(app.db, scope, page, page_size);
      return ok({
        list: rows.map((r) => toRecord(r)),
        total,
        page,
        page_size,
      });
    },
  );

  app.get(
    '/v3/invoice-export/download',
    {
      config: { menu: EXPORT_MENUS, scope: 'store' },
      schema: { querystring: z.object({ record_id: z.coerce.number().int().positive() }) },
    },
    async (req, reply) => {
      const scope = scopeOf(req);
      const rec = await exportFileOf(app.db, scope.clientId, req.query.record_id);
      if (!rec) throw new AppError(QUERY_CODE.EXPORT_NOT_FOUND);
      // another store's export: refused (无权限操作该门店), as the list does not show it
      if (
        rec.store_ids === null
          ? scope.storeIds !== null
          : !rec.store_ids.every((id) => canReachStore(scope, id))
      )
        throw storeRefused();
      if (rec.status !== 'done') throw new AppError(QUERY_CODE.EXPORT_NOT_READY);
      if (timeOf(rec.expires_at) <= Date.now() || !rec.file_path)
        throw new AppError(QUERY_CODE.EXPORT_EXPIRED);
      const abs = path.join(app.env.dataDir, rec.file_path);
      // Stryker disable next-line ArrowFunction: undefined is as missing as null to the check below
      const stat = await fs.stat(abs).catch(() => null);
      if (!stat) throw new AppError(QUERY_CODE.EXPORT_EXPIRED);
      const type =
        rec.kind === 'excel'
          ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
          : 'application/zip';
      return reply
        .header('content-type', type)
        .header('content-length', stat.size)
        .header(
          'content-disposition',
          `attachment; filename="export.${rec.kind === 'excel' ? 'xlsx' : 'zip'}"; filename*=UTF-8''${encodeURIComponent(rec.file_name)}`,
        )
        .header('cache-control', 'no-store')
        .send(createReadStream(abs));
    },
  );
};
