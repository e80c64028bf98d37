import { menuListResponseSchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.ts';
import { menuOf } from '../../plugins/auth.ts';

/**
 * The serialised menu per computed access entry. AccessService caches one access object per
 * (session, business) for a few seconds, so every call inside that window reuses the same menu
 * array: validate and encode it once, not per request (bench/menu-list.ts).
 */
const encoded = new WeakMap<object, string>();

/** spec §3/§6: the organisation's menu entries for the selected business. */
export const authorityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/v3/authority/menu-list', { config: { scope: 'business' } }, async (req, reply) => {
    const menu = await menuOf(req);
    let body = encoded.get(menu);
    // Stryker disable next-line ConditionalExpression: the per-menu cache only saves work; encoding again gives the same body
    if (body === undefined) {
      // the response schema still applies: parse strips anything not in the contract
      body = JSON.stringify(ok(menuListResponseSchema.parse({ list: menu })));
      encoded.set(menu, body);
    }
    // a string with a JSON content type is sent as is (no second serialisation)
    return reply.type('application/json; charset=utf-8').send(body);
  });
};
