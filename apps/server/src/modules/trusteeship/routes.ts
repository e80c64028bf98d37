import {
  grantStoresBodySchema,
  handOverBodySchema,
  revokeBodySchema,
  trusteeshipItemSchema,
  trusteeshipListSchema,
} from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import { scopeOf } from '../../lib/scope.ts';
import * as service from './service.ts';

export const TRUSTEESHIP_MENUS = ['/invoice/trusteeship'] as const;
const config = { menu: TRUSTEESHIP_MENUS, scope: 'store' } as const;

/** Trusteeship (`/v3/trusteeship/*`, page /invoice/trusteeship): hand over, grant stores, revoke. */
export const trusteeshipRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v3/trusteeship/list',
    { config, schema: { response: reply200(trusteeshipListSchema) } },
    async (req) => ok(await service.listTrusteeships(app, scopeOf(req))),
  );

  app.post(
    '/v3/trusteeship/hand-over',
    { config, schema: { body: handOverBodySchema, response: reply200(trusteeshipItemSchema) } },
    async (req) => ok(await service.handOver(app, scopeOf(req), req.body)),
  );

  app.post(
    '/v3/trusteeship/grant',
    { config, schema: { body: grantStoresBodySchema, response: reply200(trusteeshipItemSchema) } },
    async (req) => ok(await service.grantStores(app, scopeOf(req), req.body)),
  );

  app.post(
    '/v3/trusteeship/revoke',
    { config, schema: { body: revokeBodySchema, response: reply200(trusteeshipItemSchema) } },
    async (req) => ok(await service.revoke(app, scopeOf(req), req.body)),
  );
};
