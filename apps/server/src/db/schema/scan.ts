import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import { clientStores, clients } from './tenancy.ts';

/**
 * Scan-to-invoice settings per store (domain.md §8.1): `mode` audit (requests wait for a clerk) |
 * immediate (requests whose goods are known are issued on submit); the device and kind used.
 */
export const scanSettings = pgTable(
  'scan_settings',
  {
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    storeId: integer().notNull(),
    mode: text().notNull().default('audit'),
    deviceId: integer(),
    invoiceType: text().notNull().default('82'),
    defaultValidMinutes: integer().notNull().default(1440),
    updatedBy: integer(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.storeId] }),
    foreignKey({
      name: 'scan_settings_store_fk',
      columns: [t.storeId, t.clientId],
      foreignColumns: [clientStores.id, clientStores.clientId],
    }),
  ],
);

/**
 * A QR code the buyer scans. `kind`: store (the store's static card, one per store) | counter (a
 * static card per counter) | order (a dynamic code per order: amount, items, validity). `token` is
 * the unguessable part of the buyer's URL (/s/<token>); nothing else identifies a code publicly.
 */
export const scanCodes = pgTable(
  'scan_codes',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    storeId: integer().notNull(),
    kind: text().notNull(),
    name: text().notNull().default(''),
    token: text().notNull(),
    status: text().notNull().default('active'), // active | disabled
    orderNo: text(),
    /** order codes: 价税合计 and the items (scanItemSchema[]), the hotel stay */
    amount: numeric({ precision: 18, scale: 2 }),
    items: jsonb(),
    hotelStay: jsonb(),
    remark: text().notNull().default(''),
    expiresAt: timestamp({ withTimezone: true }),
    createdBy: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'scan_codes_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('scan_codes_token_uq').on(t.token, t.clientId),
    foreignKey({
      name: 'scan_codes_store_fk',
      columns: [t.storeId, t.clientId],
      foreignColumns: [clientStores.id, clientStores.clientId],
    }),
    uniqueIndex('scan_codes_store_uq').on(t.clientId, t.storeId).where(sql`${t.kind} = 'store'`),
    uniqueIndex('scan_codes_order_uq').on(t.clientId, t.orderNo).where(sql`${t.orderNo} is not null`),
    index('scan_codes_client_store_idx').on(t.clientId, t.storeId, t.kind, t.id.desc()),
  ],
);

/**
 * A buyer's request (the audit queue). `status`: pending | issuing | issued | rejected | failed.
 * `serialNo` is fixed when issuing starts (`SCAN-O<code>` for an order, `SCAN-R<id>` otherwise) and
 * `issueRequest` keeps the exact payload, so a retry goes through the issuing service's idempotency
 * under the same serial; an order's serial also makes a second invoice for it impossible.
 * At most one live (not rejected) request per order code (`scan_requests_order_uq`).
 */
export const scanRequests = pgTable(
  'scan_requests',
  {
    id: bigserial({ mode: 'number' }),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    storeId: integer().notNull(),
    codeId: integer().notNull(),
    codeKind: text().notNull(),
    orderNo: text(),
    /** the buyer's status page: /s/<code token>?r=<token> */
    token: text().notNull(),
    status: text().notNull().default('pending'),
    titleType: smallint().notNull(),
    buyerName: text().notNull(),
    buyerTaxCode: text().notNull().default(''),
    buyerAddress: text().notNull().default(''),
    buyerPhone: text().notNull().default(''),
    buyerBankName: text().notNull().default(''),
    buyerBankAccount: text().notNull().default(''),
    email: text().notNull().default(''),
    mobile: text().notNull().default(''),
    buyerRemark: text().notNull().default(''),
    amount: numeric({ precision: 18, scale: 2 }),
    items: jsonb(),
    hotelStay: jsonb(),
    invoiceType: text(),
    serialNo: text(),
    issueRequest: jsonb(),
    invoiceId: bigint({ mode: 'number' }),
    rejectReason: text().notNull().default(''),
    errorMessage: text(),
    submitIp: text().notNull().default(''),
    reviewedBy: integer(),
    reviewedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'scan_requests_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('scan_requests_token_uq').on(t.token, t.clientId),
    uniqueIndex('scan_requests_order_uq')
      .on(t.codeId, t.clientId)
      .where(sql`${t.codeKind} = 'order' and ${t.status} <> 'rejected'`),
    uniqueIndex('scan_requests_serial_uq')
      .on(t.clientId, t.serialNo)
      .where(sql`${t.serialNo} is not null and ${t.status} <> 'rejected'`),
    foreignKey({
      name: 'scan_requests_code_fk',
      columns: [t.codeId, t.clientId],
      foreignColumns: [scanCodes.id, scanCodes.clientId],
    }),
    index('scan_requests_queue_idx').on(t.clientId, t.status, t.id.desc()),
    index('scan_requests_store_idx').on(t.clientId, t.storeId, t.id.desc()),
  ],
);
