import { CODE, menuListResponseSchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { ok, reply200 } from '../../lib/envelope.ts';

/** spec §3/§6: the organisation's menu entries for the selected business. */
export const authorityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/authority/menu-list',
    { schema: { response: reply200(menuListResponseSchema) } },
    async (req) => {
      if (!req.access) throw new AppError(CODE.SWITCH_STORE, '');
      return ok({ list: req.access.menu });
    },
  );
};
