import type { FastifyInstance } from 'fastify';

/**
 * What the caller knows of the invoice without reading it back: `clientId`, `direction` and
 * `serialNo` are given by the issuing path (hooks skip invoices that cannot concern them without a
 * query) and absent after reconciliation (hooks then read the row).
 */
export type IssuedFacts = {
  sendEmail: boolean;
  clientId?: number;
  direction?: 'blue' | 'red';
  serialNo?: string;
};

export type InvoiceIssuedHook = (app: FastifyInstance, invoiceId: number, opts: IssuedFacts) => Promise<void>;

/**
 * The app's invoice-issued hooks (one registry per app instance, `app.invoiceHooks`): called after
 * an invoice has been committed as issued (directly, or by reconciliation). Modules register at
 * plugin start (documents: PDF rendering and e-mail; titles, scan, red-letter settlement). Hooks
 * run in the background, after the response; an error is logged and never fails the issue.
 */
export class InvoiceIssuedHooks {
  private readonly hooks = new Set<InvoiceIssuedHook>();
  private readonly pending = new Set<Promise<void>>();

  add(hook: InvoiceIssuedHook): void {
    this.hooks.add(hook);
  }

  delete(hook: InvoiceIssuedHook): void {
    this.hooks.delete(hook);
  }

  /** Runs every hook for one invoice without waiting for them (see `drain`). */
  run(app: FastifyInstance, invoiceId: number, opts: IssuedFacts): void {
    for (const hook of this.hooks) {
      const p = Promise.resolve()
        .then(() => hook(app, invoiceId, opts))
        .catch((err: unknown) => app.log.error({ err, invoiceId }, 'invoice issued hook failed'))
        .finally(() => this.pending.delete(p));
      this.pending.add(p);
    }
  }

  /** Resolves once every hook started so far has finished (tests; app shutdown). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** what runs after an invoice is issued (modules/invoices/hooks.ts) */
    invoiceHooks: InvoiceIssuedHooks;
  }
}

/** Runs the app's hooks for one invoice without waiting for them. */
export function runInvoiceIssuedHooks(app: FastifyInstance, invoiceId: number, opts: IssuedFacts): void {
  app.invoiceHooks.run(app, invoiceId, opts);
}
