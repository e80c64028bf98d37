import { devRealNameBodySchema, realNameInfoSchema } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, reply200 } from '../../lib/envelope.ts';
import type { DeviceAuthHub } from './hub.ts';
import type { RealNameService } from './service.ts';

const PUBLIC = { auth: 'public' } as const;
const schema = { body: devRealNameBodySchema, response: reply200(realNameInfoSchema) };

/**
 * Sandbox bureau controls (outside production), standing in for the person with the tax app and
 * for the bureau itself: require an authorisation (fresh QR, status 1), confirm the scan (2), let
 * the QR lapse (3), ask to log in to the app again (4), drop the bureau session, configure the device;
 * and close this process's device-authorisation sockets (the browser reconnects, spec §4).
 */
export function realNameDevRoutes(service: RealNameService, hub: DeviceAuthHub): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/v3/dev/real-name/require', { config: PUBLIC, schema }, async (req) =>
      ok(await service.require(req.body.device_id, req.body)),
    );
    app.post('/v3/dev/real-name/confirm', { config: PUBLIC, schema }, async (req) =>
      ok(await service.confirm(req.body.device_id)),
    );
    app.post('/v3/dev/real-name/expire', { config: PUBLIC, schema }, async (req) =>
      ok(await service.expire(req.body.device_id)),
    );
    app.post('/v3/dev/real-name/app-relogin', { config: PUBLIC, schema }, async (req) =>
      ok(await service.appRelogin(req.body.device_id)),
    );
    app.post('/v3/dev/real-name/logout', { config: PUBLIC, schema }, async (req) =>
      ok(await service.logout(req.body.device_id)),
    );
    app.post('/v3/dev/real-name/configure', { config: PUBLIC, schema }, async (req) =>
      ok(await service.configure(req.body.device_id, req.body)),
    );
    app.post(
      '/v3/dev/real-name/drop-sockets',
      {
        config: PUBLIC,
        schema: {
          body: z.object({ client_id: z.number().int().positive().optional() }).default({}),
          response: reply200(z.object({ closed: z.number() })),
        },
      },
      async (req) => ok({ closed: hub.drop(req.body.client_id) }),
    );
  };
}
