import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { taxDevices } from './invoicing.ts';

/**
 * 数电 number counter (domain.md §1.2): one row per device, series and calendar year; `lastSeq` is the
 * last 15-digit sequence handed out. Taken with `INSERT … ON CONFLICT DO UPDATE … RETURNING` in the
 * transaction that marks the invoice issued, so numbers are unique and gapless per device.
 * `series` is 'digital' for the 数电 kinds (81 and 82 share one sequence).
 */
export const channelNumberCounters = pgTable(
  'channel_number_counters',
  {
    deviceId: integer().notNull(),
    series: text().notNull(),
    year: integer().notNull(),
    clientId: integer().notNull(),
    lastSeq: bigint({ mode: 'number' }).notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'channel_number_counters_pkey', columns: [t.deviceId, t.series, t.year, t.clientId] }),
    foreignKey({
      name: 'channel_number_counters_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);

/**
 * Blank invoice stock of the older kinds (领用 onto a device, domain.md §7.1): one invoice code and a
 * run of 8-digit numbers `startNo..endNo`; `nextNo` is the next unused one. A range is taken in
 * order (lowest id first) with `UPDATE … RETURNING` in the issuing transaction.
 */
export const channelNumberRanges = pgTable(
  'channel_number_ranges',
  {
    id: bigserial({ mode: 'number' }),
    clientId: integer().notNull(),
    deviceId: integer().notNull(),
    invoiceType: text().notNull(),
    /** 10- or 12-digit 发票代码 */
    invoiceCode: text().notNull(),
    startNo: integer().notNull(),
    endNo: integer().notNull(),
    nextNo: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'channel_number_ranges_pkey', columns: [t.id, t.clientId] }),
    index('channel_number_ranges_device_idx').on(t.deviceId, t.invoiceType, t.id),
    uniqueIndex('channel_number_ranges_code_uq').on(t.invoiceCode, t.startNo, t.clientId),
    foreignKey({
      name: 'channel_number_ranges_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);

/**
 * Sandbox channel behaviour per device (architecture.md §1): latency and the next faults.
 * `fault`: none | error | timeout | unknown; `faultRemaining` how many further issue calls the fault
 * applies to (null = until cleared). `unknownVisibleAfterS`: an "unknown" answer's invoice becomes
 * visible to query-by-serial after this many seconds.
 */
export const channelSandboxControls = pgTable(
  'channel_sandbox_controls',
  {
    deviceId: integer().notNull(),
    clientId: integer().notNull(),
    latencyMs: integer().notNull().default(0),
    fault: text().notNull().default('none'),
    faultCode: text().notNull().default(''),
    faultMessage: text().notNull().default(''),
    faultRemaining: integer(),
    /** how long a time-out takes before the caller gives up */
    timeoutMs: integer().notNull().default(1000),
    unknownVisibleAfterS: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'channel_sandbox_controls_pkey', columns: [t.deviceId, t.clientId] }),
    foreignKey({
      name: 'channel_sandbox_controls_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);

/**
 * What the sandbox "bureau" has issued, keyed by the business's serial number: the record that
 * query-by-serial (reconciliation) reads. `visibleAt` delays an "unknown" outcome's visibility.
 */
export const channelSandboxIssues = pgTable(
  'channel_sandbox_issues',
  {
    clientId: integer().notNull(),
    serialNo: text().notNull(),
    deviceId: integer().notNull(),
    invoiceType: text().notNull(),
    invoiceCode: text().notNull().default(''),
    invoiceNo: text().notNull(),
    checkCode: text().notNull().default(''),
    totalAmount: numeric({ precision: 18, scale: 2 }).notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    visibleAt: timestamp({ withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.serialNo] })],
);
