import multipart from '@fastify/multipart';
import {
  BATCH_CODE,
  BATCH_LIMITS,
  batchDryRunSchema,
  batchIdBodySchema,
  batchIdQuerySchema,
  batchListQuerySchema,
  batchListSchema,
  batchProgressSchema,
  batchRowsQuerySchema,
  batchRowsSchema,
  batchUploadQuerySchema,
  CODE,
} from '@kaipiao/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { assertEmployeeStore, employeeScope, issuingActor, scopeOf } from '../../lib/scope.ts';
import { UPLOAD_LIMITS } from '../../lib/xlsx-reader.ts';
import { menuOf } from '../../plugins/auth.ts';
import * as repo from './repo.ts';
import { resultWorkbook } from './result.ts';
import * as service from './service.ts';
import { batchTemplate } from './template.ts';

/** The permission url of every batch call (spec §2 /invoice/batch). */
export const BATCH_MENU = '/invoice/batch';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Who may use the batch page. Not `config.menu`: while the bookkeeping service is expired the menu
 * marks the page gray, yet the clerk must still see the batches it paused, their results and the
 * notice saying why (spec §1). Every call that would issue checks the service itself.
 */
async function assertBatchAccess(req: FastifyRequest): Promise<void> {
  const menu = await menuOf(req);
  const entry = menu.find((m) => m.url === BATCH_MENU);
  const grayForBookkeepingOnly =
    entry?.is_gray_from_bookkeeping === 1 && entry.is_need_pay === 0 && entry.is_new_client === 0;
  if (!entry || (entry.is_auth !== 1 && !grayForBookkeepingOnly)) throw new AppError(CODE.FORBIDDEN);
}

/** The batch, if it belongs to the business (else 17001) and one of the user's stores (else 12003). */
async function ownBatch(req: FastifyRequest, batchId: number): Promise<repo.BatchRecord> {
  const scope = scopeOf(req);
  const b = await repo.findBatch(req.server.db, scope.clientId, batchId);
  if (!b) throw new AppError(BATCH_CODE.NOT_FOUND);
  assertEmployeeStore(scope, b.store_id);
  return b;
}

function sendFile(
  reply: FastifyReply,
  body: Buffer | NodeJS.ReadableStream,
  filename: string,
  ascii: string,
) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    )
    .header('cache-control', 'no-store')
    .send(body);
}

let templateCache: Promise<Buffer> | null = null;

/** `/v3/batch-invoice/*`: template, upload with its report, dry run, start/pause/resume/cancel/retry, progress, rows, results. */
export const batchRoutes: FastifyPluginAsyncZod = async (app) => {
  // only this plugin parses multipart bodies
  // Stryker disable next-line ObjectLiteral,ArithmeticOperator: the upload's own req.file() limits replace these
  await app.register(multipart, { limits: { fileSize: BATCH_LIMITS.fileMb * 1024 * 1024, files: 1 } });
  app.addHook('preHandler', async (req) => {
    // Stryker disable next-line ConditionalExpression,OptionalChaining,StringLiteral: the hook is encapsulated in this plugin, whose routes all start so
    if (req.routeOptions.url?.startsWith('/v3/batch-invoice/')) await assertBatchAccess(req);
  });
  const kick = (batchId: number) => app.batchKick(batchId);

  app.get('/v3/batch-invoice/template', { config: { scope: 'business' } }, async (_req, reply) => {
    templateCache ??= batchTemplate();
    return sendFile(reply, await templateCache, '批量开票模板.xlsx', 'batch-template.xlsx');
  });

  app.post(
    '/v3/batch-invoice/upload',
    {
      config: { store: 'specific', scope: 'store' },
      schema: { querystring: batchUploadQuerySchema, response: reply200(batchDryRunSchema) },
    },
    async (req) => {
      // a body that is not multipart, or has no file part: choose a file
      const file = await req
        .file({
          limits: { ...UPLOAD_LIMITS.multipart, fileSize: UPLOAD_LIMITS.batch.fileBytes },
        })
        .catch(() => undefined);
      if (!file) throw new AppError(BATCH_CODE.NO_FILE);
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch {
        throw new AppError(BATCH_CODE.FILE_TOO_LARGE);
      }
      const q = req.query;
      const dryRun = await service.uploadBatch(
        app,
        issuingActor(scopeOf(req)),
        { deviceId: q.device_id, invoiceType: q.invoice_type, sendEmail: q.send_email },
        // Stryker disable next-line StringLiteral: a multipart file part always has a name (busboy answers '' for none)
        { filename: file.filename ?? '', buffer },
      );
      return ok(dryRun);
    },
  );

  app.get(
    '/v3/batch-invoice/dry-run',
    {
      config: { scope: 'store' },
      schema: { querystring: batchIdQuerySchema, response: reply200(batchDryRunSchema) },
    },
    async (req) => {
      const b = await ownBatch(req, req.query.batch_id);
      return ok(await service.dryRun(app, b.client_id, b.id));
    },
  );

  for (const [path, action] of [
    ['start', (clientId: number, id: number) => service.startBatch(app, clientId, id, kick)],
    [
      'pause',
      async (clientId: number, id: number) => {
        const p = await service.pauseBatch(app, clientId, id);
        app.batchInterrupt(id);
        return p;
      },
    ],
    ['resume', (clientId: number, id: number) => service.resumeBatch(app, clientId, id, kick)],
    [
      'cancel',
      async (clientId: number, id: number) => {
        const p = await service.cancelBatch(app, clientId, id);
        app.batchInterrupt(id);
        return p;
      },
    ],
    ['retry', (clientId: number, id: number) => service.retryFailed(app, clientId, id, kick)],
  ] as const) {
    app.post(
      `/v3/batch-invoice/${path}`,
      {
        config: { scope: 'store' },
        schema: { body: batchIdBodySchema, response: reply200(batchProgressSchema) },
      },
      async (req) => {
        const b = await ownBatch(req, req.body.batch_id);
        return ok(await action(b.client_id, b.id));
      },
    );
  }

  app.get(
    '/v3/batch-invoice/progress',
    {
      config: { scope: 'store' },
      schema: { querystring: batchIdQuerySchema, response: reply200(batchProgressSchema) },
    },
    async (req) => {
      const b = await ownBatch(req, req.query.batch_id);
      return ok(await service.batchProgress(app, b.client_id, b.id));
    },
  );

  app.get(
    '/v3/batch-invoice/list',
    {
      config: { scope: 'store' },
      schema: { querystring: batchListQuerySchema, response: reply200(batchListSchema) },
    },
    async (req) => {
      const scope = employeeScope(scopeOf(req));
      const { total, rows } = await repo.listBatches(app.db, {
        clientId: scope.clientId,
        storeIds: scope.storeIds,
        page: req.query.page,
        pageSize: req.query.page_size,
      });
      const counts = await repo.rowCountsMany(
        app.db,
        rows.map((r) => r.id),
      );
      return ok({
        total,
        list: rows.map((r) => repo.toProgress(r, counts.get(r.id)!, service.noticeOf(r))),
      });
    },
  );

  app.get(
    '/v3/batch-invoice/rows',
    {
      config: { scope: 'store' },
      schema: { querystring: batchRowsQuerySchema, response: reply200(batchRowsSchema) },
    },
    async (req) => {
      const b = await ownBatch(req, req.query.batch_id);
      const { total, rows } = await repo.listRows(app.db, {
        batchId: b.id,
        status: req.query.status,
        page: req.query.page,
        pageSize: req.query.page_size,
      });
      return ok({ total, list: rows.map(repo.toBatchRow) });
    },
  );

  app.get(
    '/v3/batch-invoice/result',
    { config: { scope: 'store' }, schema: { querystring: batchIdQuerySchema } },
    async (req, reply) => {
      const b = await ownBatch(req, req.query.batch_id);
      const stream = resultWorkbook(app.db, b);
      const name = `批量开票结果_${b.id}.xlsx`;
      return sendFile(reply, stream, name, `batch-result-${b.id}.xlsx`);
    },
  );
};
