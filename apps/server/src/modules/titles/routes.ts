import multipart from '@fastify/multipart';
import {
  idsBodySchema,
  importResultSchema,
  infoByTaxCodeQuerySchema,
  infoByTaxCodeSchema,
  listTitlesQuerySchema,
  pageOf,
  searchTitlesQuerySchema,
  TERMS,
  text,
  titleBodySchema,
  titleItemSchema,
  updateTitleBodySchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { scopeOf } from '../../lib/scope.ts';
import { readUpload, sendXlsx } from '../../lib/xlsx.ts';
import { INVOICING_MENUS } from '../goods/routes.ts';
import { exportTitles, importTitles, titleTemplate } from './excel.ts';
import { countTitleUse, flushTitleUses } from './issued-hook.ts';
import * as repo from './repo.ts';
import * as service from './service.ts';

export const TITLE_MENUS = ['/device-project/title'] as const;
const manage = { menu: TITLE_MENUS, scope: 'business' } as const;
const read = { menu: [...TITLE_MENUS, ...INVOICING_MENUS], scope: 'business' } as const;

const exportQuerySchema = z.object({ keyword: text().trim().max(100).default('') });

/** Buyer titles (购方抬头): `/v3/client-title/*` and the tax-code lookup, scoped to the business. */
export const titleRoutes: FastifyPluginAsyncZod = async (app) => {
  // the same function every time: the Set keeps one entry however many apps a process builds
  app.invoiceHooks.add(countTitleUse);
  app.addHook('onClose', async (instance) => flushTitleUses(instance));
  await app.register(multipart);

  app.get(
    '/v3/client-title/list',
    {
      config: read,
      schema: { querystring: listTitlesQuerySchema, response: reply200(pageOf(titleItemSchema)) },
    },
    async (req) => {
      const { keyword, title_type, page, page_size } = req.query;
      const { rows, total } = await repo.listTitles(app.db, scopeOf(req).clientId, {
        keyword,
        titleType: title_type,
        page,
        pageSize: page_size,
      });
      return ok({ list: rows.map(service.toTitleItem), total });
    },
  );

  app.get(
    '/v3/client-title/search',
    {
      config: read,
      schema: { querystring: searchTitlesQuerySchema, response: reply200(z.array(titleItemSchema)) },
    },
    async (req) => {
      const rows = await repo.searchTitles(app.db, scopeOf(req).clientId, req.query.keyword, 10);
      return ok(rows.map(service.toTitleItem));
    },
  );

  // spec §7: tax_code → { id, name, industry } (+ this business's saved title); any signed-in user
  app.get(
    '/v3/client/get-info-by-tax-code',
    {
      config: { scope: 'business' },
      schema: { querystring: infoByTaxCodeQuerySchema, response: reply200(infoByTaxCodeSchema) },
    },
    async (req) => ok(await service.infoByTaxCode(app.db, req.query.tax_code, scopeOf(req).clientId)),
  );

  app.post(
    '/v3/client-title/create',
    { config: manage, schema: { body: titleBodySchema, response: reply200(titleItemSchema) } },
    async (req) => ok(await service.createTitle(app.db, scopeOf(req).clientId, req.body)),
  );

  app.post(
    '/v3/client-title/update',
    { config: manage, schema: { body: updateTitleBodySchema, response: reply200(titleItemSchema) } },
    async (req) => {
      const { id, ...body } = req.body;
      return ok(await service.updateTitle(app.db, scopeOf(req).clientId, id, body));
    },
  );

  app.post(
    '/v3/client-title/delete',
    {
      config: manage,
      schema: { body: idsBodySchema, response: reply200(z.object({ deleted: z.number() })) },
    },
    async (req) => ok({ deleted: await service.deleteTitles(app.db, scopeOf(req).clientId, req.body.ids) }),
  );

  app.get(
    '/v3/client-title/export',
    { config: manage, schema: { querystring: exportQuerySchema } },
    async (req, reply) => {
      const buffer = await exportTitles(app.db, scopeOf(req).clientId, req.query.keyword);
      return sendXlsx(reply, buffer, `${TERMS.buyerTitle}_${new Date().toISOString().slice(0, 10)}.xlsx`);
    },
  );

  app.get('/v3/client-title/template', { config: manage }, async (_req, reply) =>
    sendXlsx(reply, await titleTemplate(), `${TERMS.buyerTitle}导入模板.xlsx`),
  );

  app.post(
    '/v3/client-title/import',
    { config: manage, schema: { response: reply200(importResultSchema) } },
    async (req) => ok(await importTitles(app.db, scopeOf(req).clientId, await readUpload(req))),
  );
};
