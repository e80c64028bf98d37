import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { taxDevices } from './invoicing.ts';
import { clientStores, clients } from './tenancy.ts';

/**
 * An 电子税务局 account a business issues 数电 invoices through (domain.md §7.2). The password is
 * AES-256-GCM encrypted (`lib/secret-box.ts`) and never leaves the server. `loginState`
 * (offline | online), `realNameState` (none | pending | verified | expired) and `sessionExpiresAt`
 * are kept up to date by the real-name module; `deviceId` is the 数电 device the account logs in for.
 * `whiteListed` is set by operations, not by the business (spec §6: the account page needs it).
 */
export const taxAccounts = pgTable(
  'tax_accounts',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    deviceId: integer(),
    account: text().notNull(),
    passwordEnc: text().notNull(),
    phone: text().notNull(),
    /** 01 法定代表人, 02 财务负责人, 03 办税员, 05 管理员, 09 开票员 */
    identity: text().notNull().default('03'),
    personName: text().notNull().default(''),
    channel: text().notNull().default('GP900000'),
    whiteListed: boolean().notNull().default(false),
    loginState: text().notNull().default('offline'),
    realNameState: text().notNull().default('none'),
    sessionExpiresAt: timestamp({ withTimezone: true }),
    status: text().notNull().default('active'), // active | disabled
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'tax_accounts_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('tax_accounts_account_uq').on(t.clientId, t.account),
    index('tax_accounts_device_idx').on(t.deviceId),
    foreignKey({
      name: 'tax_accounts_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);

/** Per-store settings of the store page: the invoice kinds a store's clerks start with. */
export const storeSettings = pgTable(
  'store_settings',
  {
    storeId: integer().notNull(),
    clientId: integer().notNull(),
    defaultInvoiceTypes: text().array().notNull().default(sql`'{}'::text[]`),
    remark: text().notNull().default(''),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'store_settings_pkey', columns: [t.storeId, t.clientId] }),
    foreignKey({
      name: 'store_settings_store_fk',
      columns: [t.storeId, t.clientId],
      foreignColumns: [clientStores.id, clientStores.clientId],
    }),
  ],
);

/**
 * Blank-stock movements (domain.md §7.1): `apply` = 领票 from the bureau onto a main disc,
 * `distribute` = 分发 main → branch, `return` = 退回 branch → main. The numbers moved are
 * `invoiceCode` `startNo..endNo` (one row per range touched).
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: bigserial({ mode: 'number' }),
    clientId: integer().notNull(),
    kind: text().notNull(),
    deviceId: integer().notNull(),
    targetDeviceId: integer(),
    invoiceType: text().notNull(),
    count: integer().notNull(),
    invoiceCode: text().notNull().default(''),
    startNo: integer(),
    endNo: integer(),
    userId: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'stock_movements_pkey', columns: [t.id, t.clientId] }),
    index('stock_movements_client_idx').on(t.clientId, t.id.desc()),
    foreignKey({
      name: 'stock_movements_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);

/**
 * Monthly filing (抄报税) of a device for `period` (YYYY-MM, the month reported), done in the 1st–15th
 * of the next month: `copiedAt` 抄税 (the summary uploaded to the sandbox bureau with its totals),
 * `clearedAt` 清卡.
 */
export const deviceFilings = pgTable(
  'device_filings',
  {
    clientId: integer().notNull(),
    deviceId: integer().notNull(),
    period: text().notNull(),
    copiedAt: timestamp({ withTimezone: true }),
    clearedAt: timestamp({ withTimezone: true }),
    invoiceCount: integer().notNull().default(0),
    totalAmount: numeric({ precision: 18, scale: 2 }).notNull().default('0'),
    totalTax: numeric({ precision: 18, scale: 2 }).notNull().default('0'),
    uploadNo: text().notNull().default(''),
    userId: integer(),
  },
  (t) => [
    primaryKey({ name: 'device_filings_pkey', columns: [t.deviceId, t.period, t.clientId] }),
    foreignKey({
      name: 'device_filings_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);
