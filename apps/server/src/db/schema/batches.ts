import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients } from './tenancy.ts';

/**
 * A batch of invoices uploaded from the Excel template (domain.md §9 item 5), issued by the batch
 * runner. `status`: ready (validated, not started) | running | paused | cancelled | done.
 * `pauseReason`: '' | user | bookkeeping (spec §1: an expired bookkeeping service pauses batches).
 */
export const batches = pgTable(
  'batches',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    storeId: integer().notNull(),
    deviceId: integer().notNull(),
    /** the kind chosen on the page; rows may name their own */
    invoiceType: text().notNull(),
    fileName: text().notNull(),
    /** sha256 of the uploaded file: a second upload of the same file is pointed out */
    fileSha256: text().notNull(),
    status: text().notNull().default('ready'),
    pauseReason: text().notNull().default(''),
    sendEmail: boolean().notNull().default(false),
    /** invoices in the file (rows of 发票信息), invoices to issue after splitting, item lines */
    sourceCount: integer().notNull(),
    invoiceCount: integer().notNull(),
    lineCount: integer().notNull(),
    /** file invoices that were split by the per-invoice limit or the line limit */
    splitSources: integer().notNull().default(0),
    totalAmount: numeric({ precision: 18, scale: 2 }).notNull(),
    totalTax: numeric({ precision: 18, scale: 2 }).notNull(),
    totalWithTax: numeric({ precision: 18, scale: 2 }).notNull(),
    createdBy: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'batches_pkey', columns: [t.id, t.clientId] }),
    index('batches_client_created_idx').on(t.clientId, t.createdAt.desc()),
    index('batches_status_idx').on(t.status),
  ],
);

/**
 * One invoice of a batch (after splitting) with its canonical blue-invoice request. `serialNo` is
 * deterministic (`B<batch>-<source>[-<part>]`): re-driving a row after a crash goes through the same
 * serial, so the issuing service's idempotency makes it issue at most once.
 * `status`: pending | issuing (claimed by the live runner `worker`) | issued | failed | skipped.
 */
export const batchRows = pgTable(
  'batch_rows',
  {
    batchId: integer().notNull(),
    seq: integer().notNull(),
    clientId: integer().notNull(),
    /** the file's 流水号 and its row on 发票信息 */
    sourceSerial: text().notNull(),
    sourceRow: integer().notNull(),
    partNo: smallint().notNull().default(1),
    partCount: smallint().notNull().default(1),
    serialNo: text().notNull(),
    invoiceType: text().notNull(),
    buyerName: text().notNull(),
    lineCount: integer().notNull(),
    totalAmount: numeric({ precision: 18, scale: 2 }).notNull(),
    totalTax: numeric({ precision: 18, scale: 2 }).notNull(),
    totalWithTax: numeric({ precision: 18, scale: 2 }).notNull(),
    request: jsonb().notNull(),
    status: text().notNull().default('pending'),
    /** runner that claimed the row (its liveness lock key); null when not claimed */
    worker: integer(),
    attempts: integer().notNull().default(0),
    invoiceId: bigint({ mode: 'number' }),
    invoiceCode: text().notNull().default(''),
    invoiceNo: text(),
    issuedAt: timestamp({ withTimezone: true }),
    errorCode: text(),
    errorMessage: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'batch_rows_pkey', columns: [t.batchId, t.seq, t.clientId] }),
    foreignKey({
      name: 'batch_rows_batch_fk',
      columns: [t.batchId, t.clientId],
      foreignColumns: [batches.id, batches.clientId],
    }),
    uniqueIndex('batch_rows_serial_uq').on(t.clientId, t.serialNo),
    index('batch_rows_batch_status_idx').on(t.batchId, t.status, t.seq),
  ],
);
