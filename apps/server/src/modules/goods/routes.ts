import multipart from '@fastify/multipart';
import {
  goodsBodySchema,
  goodsItemSchema,
  idBodySchema,
  idsBodySchema,
  importResultSchema,
  listGoodsQuerySchema,
  okSchema,
  pageOf,
  searchTaxClassQuerySchema,
  TERMS,
  taxClassCodeSchema,
  taxRateBodySchema,
  taxRateResultSchema,
  text,
  updateGoodsBodySchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { scopeOf } from '../../lib/scope.ts';
import { readUpload, sendXlsx } from '../../lib/xlsx.ts';
import { exportGoods, goodsTemplate, importGoods } from './excel.ts';
import * as repo from './repo.ts';
import * as service from './service.ts';
import { TAX_CLASS_SEED } from './tax-class-data.ts';

/** Who manages goods codes (spec §2), and who may read them to issue invoices. */
export const GOODS_MENUS = ['/device-project/project', '/hotel/device-project/project'] as const;
export const INVOICING_MENUS = ['/invoice/online', '/hotel/invoice/online'] as const;
const READ_MENUS = [...GOODS_MENUS, ...INVOICING_MENUS];

const manage = { menu: GOODS_MENUS, scope: 'business' } as const;
const read = { menu: READ_MENUS, scope: 'business' } as const;

const exportQuerySchema = z.object({ keyword: text().trim().max(100).default('') });
const setDefaultBodySchema = idBodySchema.extend({ is_default: z.boolean().default(true) });

/**
 * Goods codes (商品编码) and the classification-code table: `/v3/client-project/*` and
 * `/v3/tax-class-code/*`. Every query is scoped to the business of `scopeOf(req)`.
 */
export const goodsRoutes: FastifyPluginAsyncZod = async (app) => {
  // only this plugin (and its children) parses multipart bodies
  await app.register(multipart);
  app.addHook('onReady', async () => {
    await repo.upsertTaxClassCodes(app.db, TAX_CLASS_SEED);
  });

  app.get(
    '/v3/tax-class-code/search',
    {
      config: read,
      schema: { querystring: searchTaxClassQuerySchema, response: reply200(z.array(taxClassCodeSchema)) },
    },
    async (req) => {
      const rows = await repo.searchTaxClasses(app.db, req.query.keyword, req.query.limit);
      return ok(rows.map(service.toTaxClassItem));
    },
  );

  app.get(
    '/v3/client-project/get-projects',
    {
      config: read,
      schema: { querystring: listGoodsQuerySchema, response: reply200(pageOf(goodsItemSchema)) },
    },
    async (req) => {
      const { keyword, page, page_size } = req.query;
      const { rows, total } = await repo.listGoods(app.db, scopeOf(req).clientId, {
        keyword,
        page,
        pageSize: page_size,
      });
      return ok({ list: rows.map(service.toGoodsItem), total });
    },
  );

  app.get(
    '/v3/client-project/default-project',
    { config: read, schema: { response: reply200(goodsItemSchema.nullable()) } },
    async (req) => {
      const row = await repo.findDefaultGoods(app.db, scopeOf(req).clientId);
      return ok(row ? service.toGoodsItem(row) : null);
    },
  );

  app.post(
    '/v3/client-project/tax-rate',
    {
      config: read,
      schema: { body: taxRateBodySchema.default({}), response: reply200(taxRateResultSchema) },
    },
    async (req) =>
      ok(await service.taxRates(app.db, scopeOf(req).clientId, req.body.tax_class_code || undefined)),
  );

  app.post(
    '/v3/client-project/create',
    { config: manage, schema: { body: goodsBodySchema, response: reply200(goodsItemSchema) } },
    async (req) => ok(await service.createGoods(app.db, scopeOf(req).clientId, req.body)),
  );

  app.post(
    '/v3/client-project/update',
    { config: manage, schema: { body: updateGoodsBodySchema, response: reply200(goodsItemSchema) } },
    async (req) => {
      const { id, ...body } = req.body;
      return ok(await service.updateGoods(app.db, scopeOf(req).clientId, id, body));
    },
  );

  app.post(
    '/v3/client-project/delete',
    {
      config: manage,
      schema: { body: idsBodySchema, response: reply200(z.object({ deleted: z.number() })) },
    },
    async (req) => ok({ deleted: await service.deleteGoods(app.db, scopeOf(req).clientId, req.body.ids) }),
  );

  app.post(
    '/v3/client-project/set-default',
    { config: manage, schema: { body: setDefaultBodySchema, response: reply200(okSchema) } },
    async (req) => {
      await service.setDefaultGoods(app.db, scopeOf(req).clientId, req.body.id, req.body.is_default);
      return ok(null);
    },
  );

  app.get(
    '/v3/client-project/export',
    { config: manage, schema: { querystring: exportQuerySchema } },
    async (req, reply) => {
      const buffer = await exportGoods(app.db, scopeOf(req).clientId, req.query.keyword);
      return sendXlsx(reply, buffer, `${TERMS.goodsCode}_${new Date().toISOString().slice(0, 10)}.xlsx`);
    },
  );

  app.get('/v3/client-project/template', { config: manage }, async (_req, reply) =>
    sendXlsx(reply, await goodsTemplate(), `${TERMS.goodsCode}导入模板.xlsx`),
  );

  app.post(
    '/v3/client-project/import',
    { config: manage, schema: { response: reply200(importResultSchema) } },
    async (req) => ok(await importGoods(app.db, scopeOf(req).clientId, await readUpload(req))),
  );
};
