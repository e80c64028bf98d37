import {
  CODE,
  publicCodeQuerySchema,
  publicCodeSchema,
  publicRequestQuerySchema,
  publicRequestSchema,
  publicSubmitBodySchema,
  publicSubmitResultSchema,
  SCAN_CODE,
  titleSearchQuerySchema,
  titleSuggestionSchema,
} from '@kaipiao/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { addHit } from '../../lib/rate-counter.ts';
import { contentDisposition } from '../documents/routes.ts';
import { CONTENT_TYPES, ensureInvoiceFiles } from '../documents/service.ts';
import * as buyer from './buyer.ts';

/** Per-IP limits of the public calls (fixed one-minute windows kept in PostgreSQL). */
export const PUBLIC_LIMITS = { read: 120, search: 30, submit: 10 } as const;

async function limit(req: FastifyRequest, kind: keyof typeof PUBLIC_LIMITS): Promise<void> {
  const hits = await addHit(req.server.db, `scan:${kind}:${req.ip}`, 60, req.server.clock());
  if (hits > PUBLIC_LIMITS[kind]) throw new AppError(CODE.RATE_LIMITED);
}

/**
 * The buyer's side (no login, `/s/:token` page): a code's public facts, title lookup, submit, the
 * request's status and its invoice PDF. Everything is reached through an unguessable token; nothing
 * answers with another request's or another tenant's data.
 */
export const scanPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const pub = { auth: 'public' as const };

  app.get(
    '/v3/scan/code',
    { config: pub, schema: { querystring: publicCodeQuerySchema, response: reply200(publicCodeSchema) } },
    async (req) => {
      await limit(req, 'read');
      return ok(await buyer.publicCode(app.db, req.query.token));
    },
  );

  app.get(
    '/v3/scan/title-search',
    {
      config: pub,
      schema: { querystring: titleSearchQuerySchema, response: reply200(z.array(titleSuggestionSchema)) },
    },
    async (req) => {
      await limit(req, 'search');
      // only someone holding a live code may search: active (publicCode) and not expired
      const code = await buyer.publicCode(app.db, req.query.token);
      if (code.expired) throw new AppError(SCAN_CODE.CODE_EXPIRED);
      return ok(await buyer.searchTitles(app.db, req.query.keyword));
    },
  );

  app.post(
    '/v3/scan/submit',
    { config: pub, schema: { body: publicSubmitBodySchema, response: reply200(publicSubmitResultSchema) } },
    async (req) => {
      await limit(req, 'submit');
      return ok(await buyer.submitRequest(app, req.body, req.ip), '提交成功');
    },
  );

  app.get(
    '/v3/scan/request',
    {
      config: pub,
      schema: { querystring: publicRequestQuerySchema, response: reply200(publicRequestSchema) },
    },
    async (req) => {
      await limit(req, 'read');
      return ok(await buyer.publicRequest(app.db, req.query.token));
    },
  );

  app.get(
    '/v3/scan/download',
    { config: pub, schema: { querystring: publicRequestQuerySchema } },
    async (req, reply) => {
      await limit(req, 'read');
      const { clientId, invoiceId } = await buyer.publicInvoice(app.db, req.query.token);
      // Stryker disable next-line OptionalChaining: publicInvoice has refused a request without an issued invoice
      const file = (await ensureInvoiceFiles(app.db, clientId, invoiceId, ['pdf']))?.get('pdf');
      // Stryker disable next-line ConditionalExpression: as above (documents exist for every issued invoice)
      if (!file) throw new AppError(SCAN_CODE.NOT_ISSUED);
      return reply
        .header('content-type', CONTENT_TYPES.pdf)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('content-length', file.content.length)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  );
};
