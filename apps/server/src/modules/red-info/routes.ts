import {
  RED_CODE,
  redApplyRequestSchema,
  redBlueInfoSchema,
  redFormIdSchema,
  redFormSchema,
  redInvoiceIdSchema,
  redListRequestSchema,
  redListResponseSchema,
  voidRequestSchema,
  voidResultSchema,
} from '@kaipiao/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { readableStores, scopeOf } from '../../lib/scope.ts';
import { blueInfo } from './blue-info.ts';
import { expirePending, getFormView, listForms } from './repo.ts';
import { applyRed, decideInbound, issueRedForm, type RedActor, revokeForm } from './service.ts';
import { voidInvoice } from './void.ts';

/** spec §2 红字信息表 and its hidden fill-in page. */
export const RED_MENUS = ['/red-info/sheet', '/red-info/modify'] as const;
/** 作废 is offered in the invoice library's detail drawer. */
const VOID_MENUS = ['/query/invoice', '/hotel/query/invoice'] as const;

const actorOf = (req: FastifyRequest): RedActor => {
  const scope = scopeOf(req);
  return { clientId: scope.clientId, storeIds: readableStores(scope), userId: scope.userId };
};

const WRITE = { menu: RED_MENUS, store: 'specific', scope: 'store' } as const;

/** Red-letter forms and red invoices (domain.md §3), and voiding. */
export const redInfoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/red-info/list',
    {
      config: { menu: RED_MENUS, scope: 'store' },
      schema: { body: redListRequestSchema, response: reply200(redListResponseSchema) },
    },
    async (req) => {
      const actor = actorOf(req);
      await expirePending(app.db, actor.clientId);
      const { list, total } = await listForms(app.db, actor, req.body);
      return ok({ list, total, page: req.body.page, page_size: req.body.page_size });
    },
  );

  app.post(
    '/v3/red-info/detail',
    {
      config: { menu: RED_MENUS, scope: 'store' },
      schema: { body: redFormIdSchema, response: reply200(redFormSchema) },
    },
    async (req) => {
      const actor = actorOf(req);
      await expirePending(app.db, actor.clientId);
      const view = await getFormView(app.db, actor, req.body.form_id);
      if (!view) throw new AppError(RED_CODE.FORM_NOT_FOUND);
      return ok(view);
    },
  );

  app.post(
    '/v3/red-info/blue-info',
    {
      config: { menu: RED_MENUS, scope: 'store' },
      schema: { body: redInvoiceIdSchema, response: reply200(redBlueInfoSchema) },
    },
    async (req) => ok(await blueInfo(app, actorOf(req), req.body.invoice_id)),
  );

  app.post(
    '/v3/red-info/apply',
    { config: WRITE, schema: { body: redApplyRequestSchema, response: reply200(redFormSchema) } },
    async (req) => ok(await applyRed(app, actorOf(req), req.body)),
  );

  app.post(
    '/v3/red-info/confirm',
    { config: WRITE, schema: { body: redFormIdSchema, response: reply200(redFormSchema) } },
    async (req) => ok(await decideInbound(app, actorOf(req), req.body.form_id, 'confirm')),
  );

  app.post(
    '/v3/red-info/reject',
    { config: WRITE, schema: { body: redFormIdSchema, response: reply200(redFormSchema) } },
    // Stryker disable next-line StringLiteral: decideInbound treats every decision but 'confirm' as a rejection
    async (req) => ok(await decideInbound(app, actorOf(req), req.body.form_id, 'reject')),
  );

  app.post(
    '/v3/red-info/revoke',
    { config: WRITE, schema: { body: redFormIdSchema, response: reply200(redFormSchema) } },
    async (req) => ok(await revokeForm(app, actorOf(req), req.body.form_id)),
  );

  app.post(
    '/v3/red-info/issue',
    { config: WRITE, schema: { body: redFormIdSchema, response: reply200(redFormSchema) } },
    async (req) => {
      const actor = actorOf(req);
      // a form whose hours ran out (not yet swept) is 已作废: issuing it says so (18013), not 18012
      await expirePending(app.db, actor.clientId);
      return ok(await issueRedForm(app, actor, req.body.form_id));
    },
  );

  app.post(
    '/v3/invoice-detail/void',
    {
      config: { menu: VOID_MENUS, store: 'specific', scope: 'store' },
      schema: { body: voidRequestSchema, response: reply200(voidResultSchema) },
    },
    async (req) =>
      ok(await voidInvoice(app, actorOf(req), { invoiceId: req.body.invoice_id, reason: req.body.reason })),
  );
};
