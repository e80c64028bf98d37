import type { FastifyInstance } from 'fastify';
import { countTitleUses } from './repo.ts';

/** How long uses gather before one statement counts them (a ranking hint may lag a moment). */
const FLUSH_MS = 250;

type Batch = { ids: number[]; done: Promise<void>; run: () => void };
// keyed by the database handle: the same for every encapsulated instance of one app
const batches = new WeakMap<object, Batch>();

async function flush(app: FastifyInstance, ids: number[]): Promise<void> {
  // a ranking hint, not a record: committed without waiting for the WAL flush
  await countTitleUses(app.db, ids);
}

/**
 * After an invoice is issued, its buyer's saved title (same business, same name) counts one more
 * use, so the invoice form's autocomplete offers the buyers a clerk invoices most often first. A
 * buyer without a saved title changes nothing (the clerk saves titles explicitly).
 *
 * Uses gather for FLUSH_MS and are counted in one statement: one row per busy buyer updated per
 * flush instead of once per invoice (every invoice to the same buyer would otherwise queue on that
 * row). The returned promise settles when the flush holding this invoice has run, so
 * `drainInvoiceHooks` still waits for it.
 */
export function countTitleUse(app: FastifyInstance, invoiceId: number): Promise<void> {
  let batch = batches.get(app.db);
  if (!batch) {
    const ids: number[] = [];
    let run!: () => void;
    const done = new Promise<void>((resolve, reject) => {
      run = () => {
        clearTimeout(timer);
        if (batches.get(app.db) === created) batches.delete(app.db);
        flush(app, ids).then(resolve, reject);
      };
    });
    const timer = setTimeout(() => run(), FLUSH_MS);
    const created: Batch = { ids, done, run };
    batches.set(app.db, created);
    batch = created;
  }
  batch.ids.push(invoiceId);
  return batch.done;
}

/** Counts the uses still gathering now (the app is closing: its pool must still be open). */
export async function flushTitleUses(app: FastifyInstance): Promise<void> {
  const batch = batches.get(app.db);
  if (!batch) return;
  batch.run();
  await batch.done.catch(() => undefined);
}
