import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { IssuedFacts } from '../invoices/hooks.ts';
import { redDevRoutes } from './dev-routes.ts';
import { originalOfRed } from './red-invoice-repo.ts';
import { expirePending } from './repo.ts';
import { redInfoRoutes } from './routes.ts';
import { settleBlue } from './service.ts';

/** Every five minutes a worker voids 确认单 left unconfirmed for 72 hours (07). */
export const RED_EXPIRE_JOB = 'red-info.expire';

/** Issued hook: a red invoice settled by reconciliation reddens its blue invoice too (idempotent). */
async function settleReconciledRed(
  app: FastifyInstance,
  invoiceId: number,
  opts: IssuedFacts,
): Promise<void> {
  if (opts.direction === 'blue') return;
  const blue = (await originalOfRed(app.db, invoiceId))?.original_invoice_id;
  if (blue !== undefined && blue !== null) await settleBlue(app, Number(blue), null);
}

/**
 * Red-letter invoices and voiding (domain.md §3): forms, red invoices through the issuing path,
 * the 72-hour expiry (checked at query time and swept by a job), sandbox counterparty controls.
 * The bureau's side (the buyer's use, voids) is the tax channel's (app.taxChannel, port.ts RedChannel).
 */
export const redInfoModule = fp(async (app: FastifyInstance) => {
  await app.register(redInfoRoutes);
  if (!app.env.isProduction) await app.register(redDevRoutes);
  app.invoiceHooks.add(settleReconciledRed);

  app.jobs.define(RED_EXPIRE_JOB, async () => {
    const n = await expirePending(app.db);
    if (n > 0) app.log.info({ expired: n }, 'red forms expired');
  });
  if (app.jobs.worker) {
    app.addHook('onReady', async () => {
      app.jobs
        .started()
        .then(() => app.boss.schedule(RED_EXPIRE_JOB, '*/5 * * * *'))
        .catch((err: unknown) => app.log.error({ err }, 'red form expiry schedule failed'));
    });
  }
});
