import type { FastifyInstance } from 'fastify';
import { type AtOnceIssued, type InDatabaseChannel, isInDatabase } from '../../../channels/in-database.ts';
import type { NewInvoice } from '../repo.ts';
import { issueAtOnceSql } from './repo.ts';

/** At most this many invoices in one statement. */
const MAX_BATCH = 64;
type Waiter = {
  invoice: NewInvoice;
  resolve: (r: AtOnceIssued | null) => void;
};
/**
 * One statement in flight per queue: the next batch forms while it runs and waits for its flush.
 * (Two in flight, one running while the other waits for its WAL flush, made smaller batches and
 * measured slower: 28% of the bare route against 39% in bench/issue-api.ts.)
 */
type Queue = { waiting: Waiter[]; busy: boolean };

/** Per channel (one per app instance): the queue of each business, device and kind. */
const queuesByChannel = new WeakMap<InDatabaseChannel, Map<string, Queue>>();

/**
 * Issues a new invoice through the channel's `issueAtOnce`, if it has one (group commit): while a
 * statement for the same business, device and 数电 kind is running, the invoices that arrive wait
 * and then go together in the next statement, so the device's counter is locked, and the commit
 * flushed, once per batch instead of once per invoice. An idle device issues at once (a batch of
 * one). Older kinds take their numbers from stock ranges one invoice at a time. Null when the
 * channel did not issue it (the caller takes the two-step path).
 */
export function issueAtOnce(app: FastifyInstance, invoice: NewInvoice): Promise<AtOnceIssued | null> {
  const channel = app.taxChannel;
  // a strategy only a channel sharing our database offers (channels/in-database.ts)
  if (!isInDatabase(channel)) return Promise.resolve(null);
  if (!invoice.digital) {
    return issueBatch(channel, [invoice]).then((issued) => issued?.get(invoice.serialNo) ?? null);
  }
  let queues = queuesByChannel.get(channel);
  if (!queues) {
    queues = new Map();
    queuesByChannel.set(channel, queues);
  }
  const key = `${invoice.clientId}:${invoice.deviceId}:${invoice.req.invoice_type}`;
  let queue = queues.get(key);
  if (!queue) {
    queue = { waiting: [], busy: false };
    queues.set(key, queue);
  }
  const q = queue;
  const all = queues;
  return new Promise((resolve) => {
    q.waiting.push({ invoice, resolve });
    if (!q.busy) void drain(app, channel, all, key, q);
  });
}

/** Runs the queue's batches one after another until nobody waits. */
async function drain(
  app: FastifyInstance,
  channel: InDatabaseChannel,
  queues: Map<string, Queue>,
  key: string,
  q: Queue,
): Promise<void> {
  q.busy = true;
  while (q.waiting.length > 0) await run(app, channel, q.waiting.splice(0, MAX_BATCH));
  // Stryker disable next-line BooleanLiteral: the queue is dropped on the next line; a new arrival makes a new one
  q.busy = false;
  queues.delete(key);
}

async function run(app: FastifyInstance, channel: InDatabaseChannel, taken: Waiter[]): Promise<void> {
  // the same serial twice (a double click) goes alone to the two-step path, which answers it
  // with the first one's invoice; in the batch it would undo everybody's statement
  const seen = new Set<string>();
  const batch: Waiter[] = [];
  for (const w of taken) {
    if (seen.has(w.invoice.serialNo)) w.resolve(null);
    else {
      seen.add(w.invoice.serialNo);
      batch.push(w);
    }
  }
  try {
    const issued = await issueBatch(
      channel,
      batch.map((w) => w.invoice),
    );
    // Stryker disable next-line OptionalChaining: without the optional call the TypeError is caught below and answers null just the same
    for (const w of batch) w.resolve(issued?.get(w.invoice.serialNo) ?? null);
  } catch (err) {
    // each invoice goes the two-step way on its own, where an error belongs to the one request
    // that causes it, not to the whole batch; the serial settles what the statement did (had it
    // committed before failing, e.g. in the flush, the two-step path answers with its invoice)
    // Stryker disable next-line ObjectLiteral: the log line's fields
    app.log.warn({ err, invoices: batch.length }, 'group-commit statement failed; issuing one by one');
    for (const w of batch) w.resolve(null);
  }
}

/** One statement for invoices of one business, device and kind (all or none issued). */
function issueBatch(
  channel: InDatabaseChannel,
  invoices: NewInvoice[],
): Promise<Map<string, AtOnceIssued> | null> {
  const first = invoices[0]!;
  const invoiceType = first.req.invoice_type;
  return channel.issueAtOnce(
    {
      clientId: first.clientId,
      deviceId: first.deviceId,
      invoiceType,
      items: invoices.map((n) => ({ serialNo: n.serialNo, totalAmount: n.req.invoice_info.total_amount })),
    },
    issueAtOnceSql(invoices),
  );
}
