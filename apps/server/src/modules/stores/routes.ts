import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { listActiveStores } from '../session/repo.ts';

const storeRowSchema = z.object({
  client_store_id: z.number(),
  name: z.string(),
  code: z.string(),
  status: z.string(),
});

/** Store management (spec §2 /group/client-store); the full screen arrives with the stores issue. */
export const storeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/client/client-store-list',
    {
      config: { menu: ['/group/client-store', '/hotel/group/client-store'], scope: 'store' },
      schema: { response: reply200(z.array(storeRowSchema)) },
    },
    async (req) => {
      const access = req.access!;
      const stores = await listActiveStores(app.db, access.clientId);
      return ok(
        stores
          .filter((s) => access.storeIds === null || access.storeIds.has(s.id))
          .map((s) => ({ client_store_id: s.id, name: s.name, code: s.code, status: s.status })),
      );
    },
  );
};
