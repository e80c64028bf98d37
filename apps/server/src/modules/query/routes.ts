import {
  CODE,
  invoiceDetailRequestSchema,
  invoiceDetailSchema,
  invoiceListRequestSchema,
  invoiceListResponseSchema,
  QUERY_CODE,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { readableStores, scopeOf } from '../../lib/scope.ts';
import { exportRoutes } from './exports.ts';
import { getInvoiceDetail, listInvoices, refuseOtherStoreInvoice } from './repo.ts';
import { defineTermStatsJob } from './term-stats.ts';

/** The invoice library menus (spec §2 query and statistics). */
export const LIBRARY_MENUS = ['/query/invoice', '/hotel/query/invoice'] as const;
/** Details are also opened from the issue result of the single-invoice pages. */
const DETAIL_MENUS = [...LIBRARY_MENUS, '/invoice/online', '/hotel/invoice/online'] as const;

/** Invoice library (issue 3 item 7): the list with filters and the detail drawer. */
export const queryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/invoice-record/list',
    {
      config: { menu: LIBRARY_MENUS, scope: 'store', readsOnly: true },
      schema: { body: invoiceListRequestSchema, response: reply200(invoiceListResponseSchema) },
    },
    async (req) => {
      const { page, page_size, ...filter } = req.body;
      // Stryker disable next-line LogicalOperator,ConditionalExpression: a missing end compares false either way (undefined)
      if (filter.date_from && filter.date_to && filter.date_from > filter.date_to) {
        throw new AppError(QUERY_CODE.DATE_RANGE_INVALID);
      }
      const caller = scopeOf(req);
      const scope = { clientId: caller.clientId, storeIds: readableStores(caller, filter.store_ids) };
      return ok(await listInvoices(app.db, scope, filter, page, page_size));
    },
  );

  // spec §7 POST /v3/invoice-detail/get-invoice-detail
  app.post(
    '/v3/invoice-detail/get-invoice-detail',
    {
      config: { menu: DETAIL_MENUS, scope: 'store', readsOnly: true },
      schema: { body: invoiceDetailRequestSchema, response: reply200(invoiceDetailSchema) },
    },
    async (req) => {
      const caller = scopeOf(req);
      const scope = { clientId: caller.clientId, storeIds: readableStores(caller) };
      const detail = await getInvoiceDetail(app.db, scope, req.body.invoice_id);
      if (!detail) {
        await refuseOtherStoreInvoice(app.db, scope.clientId, req.body.invoice_id);
        throw new AppError(CODE.NOT_FOUND);
      }
      return ok(detail);
    },
  );

  // Stryker disable next-line ConditionalExpression: every app has the jobs decorator
  if (app.hasDecorator('jobs')) defineTermStatsJob(app);

  await app.register(exportRoutes);
};
