import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { InvoiceIssuedHook } from '../invoices/hooks.ts';
import { scanPublicRoutes } from './public-routes.ts';
import { markIssued } from './requests.ts';
import { scanRoutes } from './routes.ts';

/** An invoice issued later (reconciliation of an unknown outcome) moves its scan request on. */
// scan requests issue under SCAN-… serials (requests.ts); other invoices need no query
const settleScanRequest: InvoiceIssuedHook = async (app, invoiceId, opts) => {
  if (opts.serialNo !== undefined && !opts.serialNo.startsWith('SCAN-')) return;
  await markIssued(app, invoiceId);
};

/**
 * Scan-to-invoice and the audit queue (domain.md §8.1): QR codes per store, counter and order, the
 * buyer's public page calls, the clerk's queue. Issuing goes through the invoices module's service.
 */
export const scanModule = fp(async (app: FastifyInstance) => {
  app.invoiceHooks.add(settleScanRequest);
  await app.register(scanRoutes);
  await app.register(scanPublicRoutes);
});
