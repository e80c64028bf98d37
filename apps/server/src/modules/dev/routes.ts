import { text } from '@kaipiao/shared';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outbox } from '../../db/schema/index.ts';
import { ok, reply200 } from '../../lib/envelope.ts';
import { devControls } from './controls.ts';
import { qrPage } from './qr-page.ts';
import { signOnPages } from './sign-on-pages.ts';

const outboxQuerySchema = z.object({
  to: text().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const outboxItemSchema = z.object({
  id: z.number(),
  channel: z.string(),
  to: z.string(),
  subject: z.string(),
  content: z.string(),
  code: z.string().nullable(),
  time: z.string(),
});

/**
 * Sandbox controls, registered only outside production (architecture.md §1): the SMS/e-mail
 * outbox, so a person trying the demo and the end-to-end tests can read the codes, and the
 * stand-ins for the QR-scanning phone, the partner sign-on and the work app.
 */
export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/dev/outbox',
    {
      config: { auth: 'public' },
      schema: { querystring: outboxQuerySchema, response: reply200(z.array(outboxItemSchema)) },
    },
    async (req) => {
      const rows = await app.db
        .select()
        .from(outbox)
        .where(req.query.to ? eq(outbox.recipient, req.query.to) : undefined)
        .orderBy(desc(outbox.id))
        .limit(req.query.limit);
      return ok(
        rows.map((r) => ({
          id: r.id,
          channel: r.channel,
          to: r.recipient,
          subject: r.subject,
          content: r.content,
          code: r.code,
          time: r.createdAt.toISOString(),
        })),
      );
    },
  );

  await app.register(devControls);
  await app.register(qrPage);
  await app.register(signOnPages);
};
