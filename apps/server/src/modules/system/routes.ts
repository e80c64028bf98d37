import { okSchema, publicNoticeSchema, readNoticeBodySchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { encodedOk, sendEncoded } from '../../lib/read-cache.ts';
import * as repo from './repo.ts';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * The user's unread notice (lib/read-cache.ts). Marking it read is a write of the user's own,
   * which forgets it at once in every process (plugins/invalidation.ts). Notices themselves have no
   * writer in the app (the operator inserts them): a new one shows within the 30 s TTL, which a
   * one-time announcement tolerates — nobody can tell when it was published.
   */
  const unread = app.readCaches.cache<{ notice: Awaited<ReturnType<typeof repo.findUnreadNotice>> }>({
    ttlMs: 30_000,
  });
  const unreadSchema = { parse: (v: unknown) => publicNoticeSchema.parse((v as { notice: unknown }).notice) };

  // spec §2: the one-time public notice
  app.get(
    '/v3/system/public-notice',
    { config: { scope: 'user' }, schema: { response: reply200(publicNoticeSchema) } },
    async (req, reply) => {
      const userId = req.session!.userId;
      const answer = await unread.get('', { userId }, async () => ({
        notice: await repo.findUnreadNotice(app.db, userId),
      }));
      return sendEncoded(reply, encodedOk(answer, unreadSchema));
    },
  );

  app.post(
    '/v3/system/read-notice',
    { config: { scope: 'user' }, schema: { body: readNoticeBodySchema, response: reply200(okSchema) } },
    async (req) => {
      await repo.markNoticeRead(app.db, req.body.id, req.session!.userId);
      return ok(null);
    },
  );
};
