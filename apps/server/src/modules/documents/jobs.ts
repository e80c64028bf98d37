import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invoices } from '../../db/schema/index.ts';
import { deliverInvoiceEmail, ensureInvoiceFiles } from './service.ts';

/** pg-boss queues of this module (src/jobs/boss.ts). */
export const RENDER_JOB = 'invoice-render';
export const EMAIL_JOB = 'invoice-email';

export type RenderJobData = { clientId: number; invoiceId: number };
export type EmailJobData = { clientId: number; invoiceId: number; email: string; userId?: number | null };

const EMAIL_RETRIES = 3;

export function defineDocumentJobs(app: FastifyInstance): void {
  app.jobs.define<RenderJobData>(
    RENDER_JOB,
    async ([job]) => {
      if (!job) return;
      const files = await ensureInvoiceFiles(app.db, job.data.clientId, job.data.invoiceId);
      return { rendered: files ? [...files.keys()] : [] };
    },
    { queue: { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 } },
  );
  app.jobs.define<EmailJobData>(
    EMAIL_JOB,
    async (jobs) => {
      const job = jobs[0] as (typeof jobs)[0] & { retryCount?: number; retryLimit?: number };
      if (!job) return;
      // the last attempt records email_failed instead of throwing for another retry
      const final = (job.retryCount ?? 0) >= (job.retryLimit ?? EMAIL_RETRIES);
      const res = await deliverInvoiceEmail(app, { ...job.data, final });
      return res;
    },
    {
      queue: { retryLimit: EMAIL_RETRIES, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
      work: { includeMetadata: true },
    },
  );
}

/**
 * The documents module's `onInvoiceIssued` hook: queue the PDF/XML rendering and, when asked and the
 * buyer gave an address, the e-mail. With jobs off (KAIPIAO_JOBS, tests) nothing is queued: the files
 * are rendered on first download and e-mail can be sent from the invoice.
 */
export async function queueIssuedInvoice(
  app: FastifyInstance,
  invoiceId: number,
  opts: { sendEmail: boolean },
): Promise<void> {
  if (!app.jobs.enabled) return;
  const [inv] = await app.db
    .select({ clientId: invoices.clientId, buyerEmail: invoices.buyerEmail, createdBy: invoices.createdBy })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  if (!inv) return;
  await app.boss.send(RENDER_JOB, { clientId: inv.clientId, invoiceId } satisfies RenderJobData);
  if (opts.sendEmail && inv.buyerEmail) {
    await app.boss.send(EMAIL_JOB, {
      clientId: inv.clientId,
      invoiceId,
      email: inv.buyerEmail,
      userId: inv.createdBy,
    } satisfies EmailJobData);
  }
}
