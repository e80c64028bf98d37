import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Env } from './config/env.ts';
import type { DbHandle } from './db/client.ts';
import { bossPlugin } from './jobs/boss.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { withSafeErrors } from './lib/db-error.ts';
import { CACHE_REVALIDATE, staticOptions } from './lib/static-files.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { authorityRoutes } from './modules/authority/routes.ts';
import { batchesModule } from './modules/batches/index.ts';
import { devRoutes } from './modules/dev/routes.ts';
import { deviceRoutes } from './modules/devices/routes.ts';
import { documentsModule } from './modules/documents/index.ts';
import { goodsRoutes } from './modules/goods/routes.ts';
import { InvoiceIssuedHooks } from './modules/invoices/hooks.ts';
import { invoicingModule } from './modules/invoices/index.ts';
import { queryRoutes } from './modules/query/routes.ts';
import { realNameModule } from './modules/realname/index.ts';
import { redInfoModule } from './modules/red-info/index.ts';
import { scanModule } from './modules/scan/index.ts';
import { AccessService } from './modules/session/access.ts';
import { sessionRoutes } from './modules/session/routes.ts';
import { statsRoutes } from './modules/stats/routes.ts';
import { storeRoutes } from './modules/stores/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { titleRoutes } from './modules/titles/routes.ts';
import { trusteeshipRoutes } from './modules/trusteeship/routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { invalidationPlugin } from './plugins/invalidation.ts';
import { securityPlugin } from './plugins/security.ts';
import { createProviders, type Providers } from './providers/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: DbHandle['db'];
    pool: DbHandle['pool'];
    env: Env;
    providers: Providers;
    /** now, for dated rules and rate-limit windows (lib/clock.ts) */
    clock: Clock;
  }
}

export type BuildOptions = {
  env: Env;
  dbHandle: DbHandle;
  logger?: FastifyServerOptions['logger'];
  providers?: Providers;
  /** the built console to serve (apps/web/dist by default) */
  webDist?: string;
  /** the system clock unless a test sets one (lib/clock.ts) */
  clock?: Clock;
};

const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const API_PREFIXES = ['/v3/', '/v1/', '/sandbox/', '/ws', '/docs'];

export async function buildApp(opts: BuildOptions) {
  const app = Fastify({
    // errors are logged without SQL, parameters or row values (issue 21, L2)
    logger: withSafeErrors(opts.logger ?? false),
    trustProxy: opts.env.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('db', opts.dbHandle.db);
  app.decorate('pool', opts.dbHandle.pool);
  app.decorate('env', opts.env);
  app.decorate('clock', opts.clock ?? systemClock);
  app.decorate('providers', opts.providers ?? createProviders(opts.dbHandle.db, opts.env));
  app.decorate('accessService', new AccessService(opts.dbHandle.db));
  app.decorate('invoiceHooks', new InvoiceIssuedHooks());

  await app.register(errorsPlugin);
  await app.register(cookie);
  await app.register(securityPlugin);
  await app.register(websocket);
  await app.register(authPlugin);
  await app.register(invalidationPlugin);
  await app.register(bossPlugin);

  await app.register(authRoutes);
  await app.register(sessionRoutes);
  await app.register(authorityRoutes);
  await app.register(systemRoutes);
  await app.register(storeRoutes);
  await app.register(deviceRoutes);
  await app.register(goodsRoutes);
  await app.register(titleRoutes);
  await app.register(invoicingModule);
  await app.register(batchesModule);
  await app.register(redInfoModule);
  await app.register(scanModule);
  await app.register(trusteeshipRoutes);
  await app.register(documentsModule);
  await app.register(queryRoutes);
  await app.register(statsRoutes);
  await app.register(realNameModule);
  if (!opts.env.isProduction) await app.register(devRoutes);

  // The built console: static assets, and index.html for every client-side route.
  const webDist = opts.webDist ?? WEB_DIST;
  if (existsSync(path.join(webDist, 'index.html'))) {
    // Brotli/gzip twins by Accept-Encoding, Cache-Control per file (lib/static-files.ts)
    await app.register(fastifyStatic, staticOptions(webDist));
    // a catch-all GET route, not a second not-found handler: errorsPlugin already owns that one
    app.get('/*', { config: { auth: 'public' } }, (req, reply) => {
      const url = req.url.split('?')[0] ?? '/';
      if (!API_PREFIXES.some((p) => url.startsWith(p)) && !path.extname(url)) {
        return reply.type('text/html').header('cache-control', CACHE_REVALIDATE).sendFile('index.html');
      }
      return reply.status(404).send({ code: 404, message: `${req.method} ${url} 不存在`, data: null });
    });
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
