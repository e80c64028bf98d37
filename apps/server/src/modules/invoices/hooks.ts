import type { FastifyInstance } from 'fastify';

/**
 * What the caller knows of the invoice without reading it back: `direction` and `serialNo` are
 * given by the issuing path (hooks skip invoices that cannot concern them without a query) and
 * absent after reconciliation (hooks then read the row).
 */
export type IssuedFacts = { sendEmail: boolean; direction?: 'blue' | 'red'; serialNo?: string };

export type InvoiceIssuedHook = (app: FastifyInstance, invoiceId: number, opts: IssuedFacts) => Promise<void>;

/**
 * Called after an invoice has been committed as issued (directly, or by reconciliation). Register at
 * plugin start (documents: PDF rendering and e-mail). Hooks run in the background, after the
 * response; an error is logged and never fails the issue.
 */
export const onInvoiceIssued = new Set<InvoiceIssuedHook>();

const pending = new Set<Promise<void>>();

/** Runs every hook for one invoice without waiting for them (see `drainInvoiceHooks`). */
export function runInvoiceIssuedHooks(app: FastifyInstance, invoiceId: number, opts: IssuedFacts): void {
  for (const hook of onInvoiceIssued) {
    const p = Promise.resolve()
      .then(() => hook(app, invoiceId, opts))
      .catch((err: unknown) => app.log.error({ err, invoiceId }, 'invoice issued hook failed'))
      .finally(() => pending.delete(p));
    pending.add(p);
  }
}

/** Resolves once every hook started so far has finished (tests; app shutdown). */
export async function drainInvoiceHooks(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
