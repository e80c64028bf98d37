import { RED_CODE, redApplyRequestSchema, redFormSchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setBuyerUsed } from '../../channels/red-bureau.ts';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { invoiceClientId } from './red-invoice-repo.ts';
import { applyRed, counterpartyAction } from './service.ts';

const PUBLIC = { auth: 'public' } as const;

/**
 * The sandbox bureau's counterparty (outside production only): the buyer's use of an invoice, the
 * buyer's decision on our pending 确认单 (confirm → 04 and the red invoice is issued, reject → 05),
 * a 确认单 the buyer raises (03), the buyer withdrawing it (08), and an abnormal-voucher void (10).
 */
export const redDevRoutes: FastifyPluginAsyncZod = async (app) => {
  const clientOf = async (invoiceId: number) => {
    const c = await invoiceClientId(app.db, invoiceId);
    if (c === undefined) throw new AppError(RED_CODE.BLUE_NOT_FOUND);
    return c;
  };

  app.post(
    '/v3/dev/red-info/buyer-use',
    {
      config: PUBLIC,
      schema: {
        body: z.object({ invoice_id: z.number().int().positive(), used: z.boolean() }),
        response: reply200(z.object({ invoice_id: z.number(), used: z.boolean() })),
      },
    },
    async (req) => {
      const clientId = await clientOf(req.body.invoice_id);
      await setBuyerUsed(app.db, { clientId, invoiceId: req.body.invoice_id, used: req.body.used });
      return ok({ invoice_id: req.body.invoice_id, used: req.body.used });
    },
  );

  app.post(
    '/v3/dev/red-info/counterparty',
    {
      config: PUBLIC,
      schema: {
        body: z.object({
          form_id: z.number().int().positive(),
          action: z.enum(['confirm', 'reject', 'revoke', 'abnormal']),
        }),
        response: reply200(redFormSchema),
      },
    },
    async (req) => ok(await counterpartyAction(app, req.body.form_id, req.body.action)),
  );

  app.post(
    '/v3/dev/red-info/inbound',
    { config: PUBLIC, schema: { body: redApplyRequestSchema, response: reply200(redFormSchema) } },
    async (req) => {
      const clientId = await clientOf(req.body.invoice_id);
      return ok(await applyRed(app, { clientId, storeIds: null, userId: null }, req.body, 'buyer'));
    },
  );
};
