import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { channelDevRoutes } from '../../channels/dev-routes.ts';
import { channelPlugin } from '../../channels/plugin.ts';
import type { IssuedFacts } from './hooks.ts';
import { metadataRoutes } from './metadata-routes.ts';
import { clientOfInvoice } from './repo.ts';
import { invoiceRoutes } from './routes.ts';
import { reconcileInvoices } from './service.ts';

/** Every minute, a worker asks the channel about invoices whose outcome is not known yet. */
export const RECONCILE_JOB = 'invoices.reconcile';

/**
 * An issued invoice changes its business's first-screen answers (the devices' quota and stock in
 * get-tax-equipment, the home figures): forget them here and in every process (lib/read-cache.ts).
 */
export async function forgetIssuedReads(app: FastifyInstance, invoiceId: number, facts: IssuedFacts) {
  const clientId = facts.clientId ?? (await clientOfInvoice(app.db, invoiceId));
  // the answer does not wait for this (hooks run after it): the other processes hear it with the
  // window's others, one NOTIFY instead of one per group of invoices issued
  if (clientId !== undefined) app.invalidateSoon({ clients: [clientId] });
}

/**
 * Issuing (architecture.md §5): the tax channel, the single-invoice endpoints and the device /
 * invoice-type metadata the form reads; sandbox channel controls outside production.
 */
export const invoicingModule = fp(async (app: FastifyInstance) => {
  app.invoiceHooks.add(forgetIssuedReads);
  await app.register(channelPlugin);
  await app.register(invoiceRoutes);
  await app.register(metadataRoutes);
  if (!app.env.isProduction) await app.register(channelDevRoutes);
  app.jobs.define(RECONCILE_JOB, async () => {
    const summary = await reconcileInvoices(app);
    if (summary.checked > 0) {
      const { checked, issued, failed, pending } = summary;
      app.log.info({ checked, issued, failed, pending }, 'invoices reconciled');
    }
  });
  if (app.jobs.worker) {
    app.addHook('onReady', async () => {
      app.jobs
        .started()
        .then(() => app.boss.schedule(RECONCILE_JOB, '* * * * *'))
        .catch((err: unknown) => app.log.error({ err }, 'reconciliation schedule failed'));
    });
  }
  // background hooks (documents, e-mail) finish before the database pool closes
  app.addHook('onClose', async () => app.invoiceHooks.drain());
});
