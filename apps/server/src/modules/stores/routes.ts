import { storeBodySchema, storeItemSchema, storeStatusBodySchema } from '@kaipiao/shared/schemas/devices';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { scopeOf } from '../../lib/scope.ts';
import * as service from './service.ts';

const STORE_MENUS = ['/group/client-store', '/hotel/group/client-store'] as const;

const storeRowSchema = z.object({
  client_store_id: z.number(),
  name: z.string(),
  code: z.string(),
  status: z.string(),
});
const done = z.object({ id: z.number() });

/**
 * Store management (spec §2 /group/client-store, §7 Client and stores). Every id is looked up inside
 * the session's business (another's → 21001); a store outside the employee's stores is refused.
 */
export const storeRoutes: FastifyPluginAsyncZod = async (app) => {
  // the editor's cached access (known stores) is reloaded at once; others' within its TTL
  const refresh = (req: FastifyRequest) => app.invalidate({ userId: req.session!.userId });

  /** the active stores, for pickers */
  app.get(
    '/v3/client/client-store-list',
    {
      config: { menu: STORE_MENUS, scope: 'store' },
      schema: { response: reply200(z.array(storeRowSchema)) },
    },
    async (req) => {
      const stores = await service.listStores(app, scopeOf(req), false);
      return ok(
        stores.map(({ client_store_id, name, code, status }) => ({ client_store_id, name, code, status })),
      );
    },
  );
  /** every store with its settings and devices, disabled ones included */
  app.get(
    '/v3/client/get-all-store-list',
    {
      config: { menu: STORE_MENUS, scope: 'store' },
      schema: { response: reply200(z.array(storeItemSchema)) },
    },
    async (req) => ok(await service.listStores(app, scopeOf(req), true)),
  );
  app.post(
    '/v3/client-store/save',
    {
      config: { menu: STORE_MENUS, scope: 'store' },
      schema: { body: storeBodySchema, response: reply200(done) },
    },
    async (req) => {
      const id = await service.saveStore(app, scopeOf(req), req.body);
      await refresh(req);
      return ok({ id }, '保存成功');
    },
  );
  app.post(
    '/v3/client-store/set-status',
    {
      config: { menu: STORE_MENUS, scope: 'store' },
      schema: { body: storeStatusBodySchema, response: reply200(done) },
    },
    async (req) => {
      await service.setStoreStatus(app, scopeOf(req), req.body.client_store_id, req.body.status);
      await refresh(req);
      return ok({ id: req.body.client_store_id }, req.body.status === 'active' ? '已启用' : '已停用');
    },
  );
};
