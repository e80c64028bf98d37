import { okSchema, publicNoticeSchema, readNoticeBodySchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import * as repo from './repo.ts';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  // spec §2: the one-time public notice
  app.get(
    '/v3/system/public-notice',
    { config: { scope: 'user' }, schema: { response: reply200(publicNoticeSchema) } },
    async (req) => ok(await repo.findUnreadNotice(app.db, req.session!.userId)),
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
