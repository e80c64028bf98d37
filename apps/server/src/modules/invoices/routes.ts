import { blueInvoiceRequestSchema, issueResultSchema, text } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { issuingActor, scopeOf } from '../../lib/scope.ts';
import { issueBlue, reconcileInvoices, resultBySerial } from './service.ts';

/** The single-invoice pages (spec §2 /invoice/online, /hotel/invoice/online). */
export const ISSUE_MENUS = ['/invoice/online', '/hotel/invoice/online'] as const;

const reconcileSummarySchema = z.object({
  checked: z.number(),
  issued: z.number(),
  failed: z.number(),
  pending: z.number(),
  results: z.array(issueResultSchema),
});

/** Issuing (architecture.md §5): blue invoice, its result by serial, reconciliation of unknown results. */
export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  // spec §7 writes the path without the leading slash; the client resolves it to /v3/…
  app.post(
    '/v3/online-invoicing/blue',
    {
      config: { menu: ISSUE_MENUS, store: 'specific', scope: 'store' },
      schema: { body: blueInvoiceRequestSchema, response: reply200(issueResultSchema) },
    },
    async (req) => {
      const result = await issueBlue(app, issuingActor(scopeOf(req)), req.body);
      // issued: the invoice-issued hook forgets the business's read caches (plugins/invalidation.ts)
      req.writesAnnounced = result.status === 'issued';
      return ok(result);
    },
  );

  app.get(
    '/v3/online-invoicing/result',
    {
      config: { menu: ISSUE_MENUS, scope: 'store' },
      schema: {
        querystring: z.object({ serial_no: text().trim().min(1).max(40) }),
        response: reply200(issueResultSchema),
      },
    },
    async (req) => {
      const scope = scopeOf(req);
      return ok(
        await resultBySerial(app, {
          clientId: scope.clientId,
          serialNo: req.query.serial_no,
          storeIds: scope.permittedStoreIds,
        }),
      );
    },
  );

  app.post(
    '/v3/online-invoicing/reconcile',
    {
      config: { menu: ISSUE_MENUS, scope: 'store' },
      schema: {
        body: z.object({ serial_no: text().trim().min(1).max(40).optional() }).default({}),
        response: reply200(reconcileSummarySchema),
      },
    },
    async (req) => {
      const scope = scopeOf(req);
      return ok(
        await reconcileInvoices(app, {
          clientId: scope.clientId,
          storeIds: scope.permittedStoreIds,
          serialNo: req.body.serial_no,
          userId: scope.userId,
        }),
      );
    },
  );
};
