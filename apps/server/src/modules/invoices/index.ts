import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { channelDevRoutes } from '../../channels/dev-routes.ts';
import { channelPlugin } from '../../channels/plugin.ts';
import { drainInvoiceHooks } from './hooks.ts';
import { metadataRoutes } from './metadata-routes.ts';
import { invoiceRoutes } from './routes.ts';

/**
 * Issuing (architecture.md §5): the tax channel, the single-invoice endpoints and the device /
 * invoice-type metadata the form reads; sandbox channel controls outside production.
 */
export const invoicingModule = fp(async (app: FastifyInstance) => {
  await app.register(channelPlugin);
  await app.register(invoiceRoutes);
  await app.register(metadataRoutes);
  if (!app.env.isProduction) await app.register(channelDevRoutes);
  // background hooks (documents, e-mail) finish before the database pool closes
  app.addHook('onClose', async () => drainInvoiceHooks());
});
