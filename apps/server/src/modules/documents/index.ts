import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { defineDocumentJobs, queueIssuedInvoice } from './jobs.ts';
import { documentRoutes } from './routes.ts';

/**
 * Invoice documents and delivery (architecture.md §5): PDF and XML rendered by a job after issue and
 * cached in invoice_files (or on first download), the download route, and e-mail with both attached.
 */
export const documentsModule = fp(async (app: FastifyInstance) => {
  defineDocumentJobs(app);
  // the same function every time: the Set keeps one entry however many apps a test process builds
  app.invoiceHooks.add(queueIssuedInvoice);
  await app.register(documentRoutes);
});
