import type { FastifyInstance } from 'fastify';
import {
  type AtOnceIssued,
  atOnceKey,
  type InDatabaseChannel,
  isInDatabase,
} from '../../../channels/in-database.ts';
import type { NewInvoice } from '../repo.ts';
import { issueAtOnceSql } from './repo.ts';

/** At most this many invoices in one statement. */
const MAX_BATCH = 64;
/**
 * Lanes of statements: a device always uses the same lane (its id modulo LANES), so its invoices
 * keep their order and two lanes never wait for each other's device locks (two statements locking
 * the same devices in different orders could deadlock). One lane measured best on the two-core
 * bench machine (bench/issue-api.ts, 200 businesses, issue 11): 2 or 4 lanes made smaller
 * batches and cost more CPU per invoice (node + PostgreSQL at 64 connections, measured while the
 * next statement started at the previous one's commit: ~490 µs with one lane, ~650 with two,
 * 800–1000 with four). A larger server may want more.
 */
export const LANES = 1;
type Waiter = {
  invoice: NewInvoice;
  resolve: (r: AtOnceIssued | null) => void;
};
/**
 * One statement in flight per lane, held until it returns — committed synchronously, so on disk:
 * the next batch forms while it runs. Statements of a lane never run at once, so they never wait
 * for each other's locks. (Letting the next statement start once the one before had committed,
 * while that one waited for a separate WAL flush — fully or one flush deep — made smaller batches
 * and cost more CPU per invoice for one device and for 200 businesses alike, measured in issue 11:
 * e.g. 200 businesses at 64 connections ~420 µs node + PostgreSQL per invoice held, ~470 not.)
 */
type Lane = {
  waiting: Waiter[];
  busy: boolean;
  /** the answers of the statement that returned last, given once the next statement is sent */
  answers: Array<() => void>;
};

/** Per channel (one per app instance): its lanes. */
const lanesByChannel = new WeakMap<InDatabaseChannel, Lane[]>();

/**
 * Issues a new invoice through the channel's `issueAtOnce`, if it has one (group commit): while a
 * statement of the device's lane is running, the new 数电 invoices that arrive for any device of
 * that lane — of any business — wait and then go together in the next statement, so the commit is
 * made, and flushed, once per batch instead of once per invoice, and each device's counter is
 * locked once per batch. An idle lane issues at once (a batch of one). Older kinds take their
 * numbers from stock ranges one invoice at a time. Null when the channel did not issue it (the
 * caller takes the two-step path).
 */
export function issueAtOnce(app: FastifyInstance, invoice: NewInvoice): Promise<AtOnceIssued | null> {
  const channel = app.taxChannel;
  // a strategy only a channel sharing our database offers (channels/in-database.ts)
  if (!isInDatabase(channel)) return Promise.resolve(null);
  if (!invoice.digital) {
    return issueBatch(channel, [invoice]).then((issued) => issued?.get(keyOf(invoice)) ?? null);
  }
  let lanes = lanesByChannel.get(channel);
  if (!lanes) {
    lanes = Array.from({ length: LANES }, (): Lane => ({ waiting: [], busy: false, answers: [] }));
    lanesByChannel.set(channel, lanes);
  }
  const lane = lanes[invoice.deviceId % LANES]!;
  return new Promise((resolve) => {
    lane.waiting.push({ invoice, resolve });
    if (!lane.busy) void drain(app, channel, lane);
  });
}

const keyOf = (n: NewInvoice) => atOnceKey(n.clientId, n.serialNo);

/**
 * Runs the lane's batches one after another until nobody waits. When a statement returns, the next
 * one is sent before its callers are answered: answering (each request's remaining work, its
 * reply) is node's work of several hundred microseconds for a batch, and PostgreSQL would sit idle
 * through it. The pool hands the next statement its connection in a `process.nextTick`, and a
 * nextTick queued after it runs after it, so the answers go out in one right behind the statement
 * (issue 11: ~0.35 ms of each statement's cycle at 10 connections).
 */
async function drain(app: FastifyInstance, channel: InDatabaseChannel, lane: Lane): Promise<void> {
  lane.busy = true;
  let running = run(app, channel, lane, lane.waiting.splice(0, MAX_BATCH));
  for (;;) {
    await running;
    const answers = lane.answers;
    lane.answers = [];
    if (lane.waiting.length === 0) {
      // Stryker disable next-line BooleanLiteral: a lane left busy would never drain again
      lane.busy = false;
      for (const answer of answers) answer();
      return;
    }
    running = run(app, channel, lane, lane.waiting.splice(0, MAX_BATCH));
    process.nextTick(() => {
      for (const answer of answers) answer();
    });
  }
}

async function run(
  app: FastifyInstance,
  channel: InDatabaseChannel,
  lane: Lane,
  taken: Waiter[],
): Promise<void> {
  // the same serial twice (a double click) goes alone to the two-step path, which answers it
  // with the first one's invoice; in the batch it would undo everybody's statement
  const seen = new Set<string>();
  const batch: Waiter[] = [];
  for (const w of taken) {
    const key = keyOf(w.invoice);
    if (seen.has(key)) w.resolve(null);
    else {
      seen.add(key);
      batch.push(w);
    }
  }
  const byDevice = new Map<number, Waiter[]>();
  for (const w of batch) {
    const mine = byDevice.get(w.invoice.deviceId);
    if (mine) mine.push(w);
    else byDevice.set(w.invoice.deviceId, [w]);
  }
  const done = await attempt(app, channel, lane, batch, byDevice.size > 1);
  if (done) return;
  // the shared statement was undone (a failure, or a concurrent request with one of its serials):
  // each device tries again in a statement of its own, so that what broke belongs to its device
  // only; nothing of the undone statement was issued, so nothing is issued twice
  for (const group of byDevice.values()) await attempt(app, channel, lane, group, false);
}

/**
 * One statement for `batch`; queues every waiter's answer (drain gives them) and answers true, or —
 * when the statement was undone and `retry` — answers nobody and false. A waiter the channel did not issue
 * (its device refused, its serial was known) resolves null: the two-step path names why.
 */
async function attempt(
  app: FastifyInstance,
  channel: InDatabaseChannel,
  lane: Lane,
  batch: Waiter[],
  retry: boolean,
): Promise<boolean> {
  let issued: Map<string, AtOnceIssued> | null;
  try {
    issued = await issueBatch(
      channel,
      batch.map((w) => w.invoice),
    );
  } catch (err) {
    // each invoice goes the two-step way on its own, where an error belongs to the one request
    // that causes it, not to the whole batch; the serial settles what the statement did (had it
    // committed before its answer was lost, the two-step path answers with its invoice)
    // Stryker disable next-line ObjectLiteral: the log line's fields
    app.log.warn(
      { err, invoices: batch.length },
      retry
        ? 'group-commit statement failed; issuing device by device'
        : 'group-commit statement failed; issuing one by one',
    );
    if (retry) return false;
    issued = null;
  }
  if (issued === null && retry) return false;
  for (const w of batch) {
    const mine = issued?.get(keyOf(w.invoice)) ?? null;
    lane.answers.push(() => w.resolve(mine));
  }
  return true;
}

/** One statement for the invoices (of one or several devices; an older kind alone). */
function issueBatch(
  channel: InDatabaseChannel,
  invoices: NewInvoice[],
): Promise<Map<string, AtOnceIssued> | null> {
  return channel.issueAtOnce(
    {
      items: invoices.map((n) => ({
        clientId: n.clientId,
        deviceId: n.deviceId,
        invoiceType: n.req.invoice_type,
        serialNo: n.serialNo,
        totalAmount: n.req.invoice_info.total_amount,
      })),
    },
    issueAtOnceSql(invoices),
  );
}
