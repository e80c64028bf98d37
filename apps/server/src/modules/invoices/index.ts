import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { channelDevRoutes } from '../../channels/dev-routes.ts';
import { channelPlugin } from '../../channels/plugin.ts';
import { drainInvoiceHooks } from './hooks.ts';

/**
 * Issuing (architecture.md §5): the tax channel, the single-invoice endpoints and the device /
 * invoice-type metadata the form reads; sandbox channel controls outside production.
 */
export const invoicingModule = fp(async (app: FastifyInstance) => {
  await app.register(channelPlugin);
  if (!app.env.isProduction) await app.register(channelDevRoutes);
  // background hooks (documents, e-mail) finish before the database pool closes
  app.addHook('onClose', async () => drainInvoiceHooks());
});
