import {
  beijingDay,
  homeOverviewSchema,
  okSchema,
  smallScaleNoticeRequestSchema,
  statRequestSchema,
  statSummarySchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { encodedOk, sendEncoded, storesKey } from '../../lib/read-cache.ts';
import { employeeScope, readableStores, scopeOf } from '../../lib/scope.ts';
import * as service from './service.ts';

/** Statistics (/query/invoice-stat) and the home figures and prompts (/home/index). */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * The home figures per business, user (the prompts are the user's) and stores, today
   * (lib/read-cache.ts). They change when an invoice is issued (red ones included: the issued hook
   * forgets the business in every process), voided or otherwise written by a request of the
   * business (plugins/invalidation.ts), and with the day (the key). Cached rather than kept as a
   * per-day aggregate: the aggregate would need a write in the issuing transaction, which the
   * group commit keeps to one statement, and the figures are read far more often than a busy
   * business issues.
   */
  const overviews = app.readCaches.cache<Awaited<ReturnType<typeof service.homeOverview>>>({
    ttlMs: 60_000,
  });

  app.post(
    '/v3/invoice-stat/summary',
    {
      config: { menu: '/query/invoice-stat', scope: 'store', readsOnly: true },
      schema: { body: statRequestSchema, response: reply200(statSummarySchema) },
    },
    async (req) => {
      const scope = scopeOf(req);
      const stores = { clientId: scope.clientId, storeIds: readableStores(scope, req.body.store_ids) };
      return ok(await service.statistics(app.db, stores, req.body));
    },
  );

  app.get(
    '/v3/home/invoice-overview',
    { config: { menu: '/home/index', scope: 'store' }, schema: { response: reply200(homeOverviewSchema) } },
    async (req, reply) => {
      const scope = scopeOf(req);
      // the figures: the selected store, or the summary's stores
      // the small-scale meter: every store the employee may use, whatever is selected
      const meterScope = employeeScope(scope);
      const key = [storesKey(scope.storeIds), storesKey(meterScope.storeIds), beijingDay()].join('|');
      const tags = { clientId: scope.clientId, userId: scope.userId };
      const answer = await overviews.get(key, tags, () =>
        service.homeOverview(app.db, {
          userId: scope.userId,
          clientId: scope.clientId,
          scope,
          meterScope,
          partialScope: scope.permittedStoreIds !== null,
        }),
      );
      return sendEncoded(reply, encodedOk(answer, homeOverviewSchema));
    },
  );

  // spec §1 tax notice buttons: 不再提醒 (never) / 确定 (not again today)
  app.post(
    '/v3/home/small-scale-notice',
    {
      config: { menu: '/home/index', scope: 'store' },
      schema: { body: smallScaleNoticeRequestSchema, response: reply200(okSchema) },
    },
    async (req) => {
      const scope = scopeOf(req);
      await service.confirmNotice(app.db, scope.userId, scope.clientId, req.body.action === 'never');
      return ok(null);
    },
  );

  // spec §7 POST /v3/system/clone-tax-rate-tips: closes the tax-rate-change tip — for the selected
  // business when the call names one (client_id), else for every business of the user
  app.post(
    '/v3/system/clone-tax-rate-tips',
    {
      config: { scope: 'user' },
      schema: { body: z.object({}).passthrough().optional(), response: reply200(okSchema) },
    },
    async (req) => {
      await service.closeTaxRateTip(app.db, req.session!.userId, req.scope?.clientId ?? null);
      return ok(null);
    },
  );
};
