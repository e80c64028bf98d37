import {
  approveBodySchema,
  bulkApproveBodySchema,
  bulkApproveResultSchema,
  createCounterBodySchema,
  createOrderBodySchema,
  rejectBodySchema,
  SCAN_CODE,
  scanCodeIdSchema,
  scanCodeImageQuerySchema,
  scanCodeListQuerySchema,
  scanCodeSchema,
  scanRequestListQuerySchema,
  scanRequestSchema,
  scanRequestStatusSchema,
  scanSettingsBodySchema,
  scanSettingsSchema,
} from '@kaipiao/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { assertEmployeeStore } from '../../lib/scope.ts';
import * as codes from './codes.ts';
import * as requests from './requests.ts';
import * as settings from './settings.ts';

/** The QR pages (spec §2 /invoice/qrcode, /hotel/invoice/qrcode; hotel order codes from /hotel/invoice/order). */
export const QR_MENUS = ['/invoice/qrcode', '/hotel/invoice/qrcode', '/hotel/invoice/order'] as const;
/** The audit queue (spec §2 /invoice/audit, /hotel/invoice/audit and its hidden goods page). */
export const AUDIT_MENUS = ['/invoice/audit', '/hotel/invoice/audit', '/hotel/invoice/audit/goods'] as const;

const pageOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number() });

const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
const storeActor = (req: FastifyRequest) => ({
  clientId: req.scope!.clientId,
  storeId: req.sid!,
  // Stryker disable next-line OptionalChaining: every console route runs with a session (plugins/auth)
  userId: req.session?.userId ?? null,
});
const actor = (req: FastifyRequest): requests.Actor => ({
  clientId: req.scope!.clientId,
  storeIds: req.scope!.permittedStoreIds,
  // Stryker disable next-line OptionalChaining: every console route runs with a session (plugins/auth)
  userId: req.session?.userId ?? null,
});
/** Approving and rejecting act for the selected store (the summary view is read-only: 10688). */
const storeOnly = (req: FastifyRequest): requests.Actor => ({ ...actor(req), storeIds: new Set([req.sid!]) });

/** Console side of scan-to-invoice: settings, codes (PNG), the audit queue. */
export const scanRoutes: FastifyPluginAsyncZod = async (app) => {
  const qr = { menu: QR_MENUS, store: 'specific' as const, scope: 'store' as const };
  const audit = { menu: AUDIT_MENUS, scope: 'store' as const };
  const act = { menu: AUDIT_MENUS, store: 'specific' as const, scope: 'store' as const };

  app.get(
    '/v3/scan-code/settings',
    { config: qr, schema: { response: reply200(scanSettingsSchema) } },
    async (req) => ok(await settings.getSettings(app.db, req.scope!.clientId, req.sid!)),
  );

  app.post(
    '/v3/scan-code/settings',
    { config: qr, schema: { body: scanSettingsBodySchema, response: reply200(scanSettingsSchema) } },
    async (req) => ok(await settings.saveSettings(app.db, storeActor(req), req.body)),
  );

  app.get(
    '/v3/scan-code/list',
    {
      config: qr,
      schema: { querystring: scanCodeListQuerySchema, response: reply200(pageOf(scanCodeSchema)) },
    },
    async (req) => ok(await codes.listCodes(app.db, storeActor(req), req.query)),
  );

  app.post(
    '/v3/scan-code/create-counter',
    { config: qr, schema: { body: createCounterBodySchema, response: reply200(scanCodeSchema) } },
    async (req) => ok(await codes.createCounter(app.db, storeActor(req), req.body.name)),
  );

  app.post(
    '/v3/scan-code/create-order',
    { config: qr, schema: { body: createOrderBodySchema, response: reply200(scanCodeSchema) } },
    async (req) => ok(await codes.createOrder(app.db, storeActor(req), req.body, app.clock())),
  );

  app.post(
    '/v3/scan-code/disable',
    {
      config: { menu: QR_MENUS, scope: 'store' },
      schema: { body: scanCodeIdSchema, response: reply200(scanCodeSchema) },
    },
    async (req) => ok(await codes.disableCode(app.db, actor(req), req.body.id)),
  );

  // the printable / downloadable QR: a PNG of the buyer's URL
  app.get(
    '/v3/scan-code/image',
    { config: { menu: QR_MENUS, scope: 'store' }, schema: { querystring: scanCodeImageQuerySchema } },
    async (req, reply) => {
      const code = await codes.findCode(app.db, req.scope!.clientId, req.query.id);
      if (!code) throw new AppError(SCAN_CODE.CODE_NOT_FOUND);
      assertEmployeeStore(req.scope!, code.store_id);
      const png = await codes.codePng(origin(req), code.token);
      const label =
        code.kind === 'order'
          ? `订单码_${code.order_no}`
          : `${code.store_name}${code.name ? `_${code.name}` : ''}`;
      const fileName = `扫码开票_${label}.png`;
      return reply
        .header('content-type', 'image/png')
        .header(
          'content-disposition',
          `${req.query.download === '1' ? 'attachment' : 'inline'}; filename="scan_${code.id}.png"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        )
        .header('cache-control', 'private, no-store')
        .send(png);
    },
  );

  app.get(
    '/v3/scan-audit/list',
    {
      config: audit,
      schema: { querystring: scanRequestListQuerySchema, response: reply200(pageOf(scanRequestSchema)) },
    },
    async (req) =>
      ok(
        await requests.listRequests(
          app.db,
          // Stryker disable next-line UnaryOperator: plugins/auth sets req.sid on every store route (-1 for all stores), so the fallback is never read
          { clientId: req.scope!.clientId, storeIds: req.scope!.permittedStoreIds, sid: req.sid ?? -1 },
          req.query,
        ),
      ),
  );

  app.get(
    '/v3/scan-audit/detail',
    { config: audit, schema: { querystring: scanCodeIdSchema, response: reply200(scanRequestSchema) } },
    async (req) => ok(await requests.requestDetail(app.db, actor(req), req.query.id)),
  );

  app.post(
    '/v3/scan-audit/approve',
    {
      config: act,
      schema: {
        body: approveBodySchema,
        response: reply200(z.object({ status: scanRequestStatusSchema, request: scanRequestSchema })),
      },
    },
    async (req) => {
      const status = await requests.approveRequest(app, storeOnly(req), req.body);
      return ok({ status, request: await requests.requestDetail(app.db, storeOnly(req), req.body.id) });
    },
  );

  app.post(
    '/v3/scan-audit/bulk-approve',
    { config: act, schema: { body: bulkApproveBodySchema, response: reply200(bulkApproveResultSchema) } },
    async (req) => ok(await requests.bulkApprove(app, storeOnly(req), req.body.ids)),
  );

  app.post(
    '/v3/scan-audit/reject',
    { config: act, schema: { body: rejectBodySchema, response: reply200(scanRequestSchema) } },
    async (req) => ok(await requests.rejectRequest(app, storeOnly(req), req.body)),
  );
};
