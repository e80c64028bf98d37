import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SandboxRealNameBureau } from '../../channels/realname-sandbox.ts';
import { realNameDevRoutes } from './dev-routes.ts';
import { DeviceAuthHub } from './hub.ts';
import { realNameRoutes } from './routes.ts';
import { RealNameService } from './service.ts';
import { deviceAuthSocket } from './socket.ts';

declare module 'fastify' {
  interface FastifyInstance {
    realName: { service: RealNameService; hub: DeviceAuthHub };
  }
}

/**
 * Real-name login / authorisation against the (sandbox) bureau and the device-authorisation socket
 * (spec §2–§4, §7). Needs @fastify/websocket registered on the app before it.
 */
export const realNameModule = fp(async (app: FastifyInstance) => {
  const hub = new DeviceAuthHub(app);
  await hub.start();
  app.addHook('onClose', async () => hub.stop());
  const service = new RealNameService(
    new SandboxRealNameBureau(app.db, app.providers.sms, app.env.dataDir, () => app.clock()),
    hub,
    (clientId) => app.invalidate({ clients: [clientId] }),
  );
  app.decorate('realName', { service, hub });
  await app.register(realNameRoutes(service));
  await app.register(deviceAuthSocket(service, hub));
  if (!app.env.isProduction) await app.register(realNameDevRoutes(service, hub));
});
