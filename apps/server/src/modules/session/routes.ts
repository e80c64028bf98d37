import {
  clientListBodySchema,
  clientSchema,
  okSchema,
  orgSchema,
  setOrgBodySchema,
  storeListQuerySchema,
  storeSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import * as service from './service.ts';

/** spec §2 /user/switch-store: groups, businesses and stores the session may choose. */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/v3/user/org-list',
    { config: { scope: 'user' }, schema: { response: reply200(z.array(orgSchema)) } },
    async (req) => ok(await service.listOrgs(app.db, req.session!)),
  );

  app.post(
    '/v3/user/set-org-id',
    { config: { scope: 'user' }, schema: { body: setOrgBodySchema, response: reply200(okSchema) } },
    async (req) => {
      await service.setOrg(app.db, req.session!, req.body.org_id);
      // every process drops its cached copy of this session (another process may serve the next call)
      await app.invalidate({ sessions: [req.session!.tokenHash] });
      return ok(null);
    },
  );

  app.post(
    '/v3/user/client-list',
    {
      config: { scope: 'user' },
      schema: { body: clientListBodySchema.optional(), response: reply200(z.array(clientSchema)) },
    },
    async (req) => {
      const keyword = req.body?.keyword ?? (req.query as { keyword?: string }).keyword;
      return ok(await service.listClients(app.db, req.session!, keyword?.trim() || undefined));
    },
  );

  app.get(
    '/v3/user/store-list',
    {
      config: { scope: 'user' },
      schema: { querystring: storeListQuerySchema, response: reply200(z.array(storeSchema)) },
    },
    async (req) => ok(await service.listStores(app.db, app.accessService, req.session!, req.query.client_id)),
  );
};
