import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
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

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A tax device or 数电 account a business issues through (domain.md §7). `kind`:
 * digital (数电账户) | ukey (税务UKey) | golden_disc (金税盘) | tax_disc (税控盘) | blockchain.
 * Branch discs point at their main disc (`parentId`, extension 1…); the main disc has extension 0.
 */
export const taxDevices = pgTable(
  'tax_devices',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    kind: text().notNull(),
    /** channel code (e.g. GP900000) for 数电 accounts; provider channel for discs */
    channel: text().notNull().default(''),
    name: text().notNull(),
    /** 12-digit 盘号 / 机器编号, or the 电子税务局 account for 数电 */
    deviceNo: text().notNull(),
    extensionNo: integer().notNull().default(0),
    parentId: integer(),
    terminalNo: text().notNull().default(''),
    /** province-level area code used in 20-digit 数电 numbers (digits 3-4) */
    areaCode: text().notNull().default('33'),
    /** invoice-type codes this device issues: 81 82 004 007 025 026 028 032 */
    invoiceTypes: text().array().notNull().default(sql`'{}'::text[]`),
    /** 最高开票限额: single-invoice cap on the tax-exclusive total */
    perInvoiceLimit: numeric({ precision: 18, scale: 2 }).notNull().default('99999999.99'),
    /** 数电 monthly 发票总额度 (tax-exclusive); null for stock-based discs */
    monthlyQuota: numeric({ precision: 18, scale: 2 }),
    quotaUsed: numeric({ precision: 18, scale: 2 }).notNull().default('0'),
    quotaMonth: text().notNull().default(''),
    online: boolean().notNull().default(true),
    /** 已到锁死期: the filing lock (抄税/清卡 not done) */
    locked: boolean().notNull().default(false),
    hosted: boolean().notNull().default(false),
    status: text().notNull().default('active'), // active | disabled
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // every key of a tenant table ends in client_id (distributable by it, migration 0019)
    primaryKey({ name: 'tax_devices_pkey', columns: [t.id, t.clientId] }),
    index('tax_devices_client_idx').on(t.clientId),
  ],
);

/** Which stores may issue through a device (both of the row's business). */
export const deviceStores = pgTable(
  'device_stores',
  {
    deviceId: integer().notNull(),
    storeId: integer().notNull(),
    clientId: integer().notNull(),
  },
  (t) => [
    primaryKey({ name: 'device_stores_pkey', columns: [t.deviceId, t.storeId, t.clientId] }),
    foreignKey({
      name: 'device_stores_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
    foreignKey({
      name: 'device_stores_store_fk',
      columns: [t.storeId, t.clientId],
      foreignColumns: [clientStores.id, clientStores.clientId],
    }),
    index('device_stores_store_idx').on(t.storeId),
  ],
);

/**
 * An invoice, blue or red (architecture.md §5). `status`: issuing | issued | failed | unknown | voided;
 * `redStatus`: none | partial | full (blue invoices only). One row per serial number per business.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: bigserial({ mode: 'number' }),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    storeId: integer().notNull(),
    deviceId: integer().notNull(),
    /** 流水号: idempotency key, unique per business */
    serialNo: text().notNull(),
    /** sha256 of the canonical request: the same serial with another payload is refused */
    requestHash: text().notNull(),
    source: text().notNull().default('online'), // online | batch | scan | api
    invoiceType: text().notNull(),
    direction: text().notNull().default('blue'), // blue | red
    status: text().notNull().default('issuing'),
    redStatus: text().notNull().default('none'),
    invoiceCode: text().notNull().default(''),
    invoiceNo: text(),
    checkCode: text().notNull().default(''),
    issuedAt: timestamp({ withTimezone: true }),
    buyerTitleType: smallint().notNull().default(2), // 1 personal / government, 2 enterprise
    buyerName: text().notNull(),
    buyerTaxCode: text().notNull().default(''),
    buyerAddress: text().notNull().default(''),
    buyerPhone: text().notNull().default(''),
    buyerBankName: text().notNull().default(''),
    buyerBankAccount: text().notNull().default(''),
    buyerEmail: text().notNull().default(''),
    buyerMobile: text().notNull().default(''),
    sellerName: text().notNull(),
    sellerTaxCode: text().notNull(),
    sellerAddress: text().notNull().default(''),
    sellerPhone: text().notNull().default(''),
    sellerBankName: text().notNull().default(''),
    sellerBankAccount: text().notNull().default(''),
    priceIncludesTax: boolean().notNull().default(true),
    /** 合计金额 (tax-exclusive), 合计税额, 价税合计; negative on red invoices */
    totalAmount: numeric({ precision: 18, scale: 2 }).notNull(),
    totalTax: numeric({ precision: 18, scale: 2 }).notNull(),
    totalWithTax: numeric({ precision: 18, scale: 2 }).notNull(),
    remark: text().notNull().default(''),
    drawer: text().notNull().default(''),
    payee: text().notNull().default(''),
    reviewer: text().notNull().default(''),
    /** 特定业务 03 / 04 / 06 / 09 and its block (domain.md §4) */
    specificBusinessCode: text(),
    specificBusiness: jsonb(),
    /** red invoice → the blue invoice it reverses */
    originalInvoiceId: bigint({ mode: 'number' }),
    redFormId: bigint({ mode: 'number' }),
    /** 票面 QR string (domain.md §1.2) */
    qrString: text().notNull().default(''),
    errorCode: text(),
    errorMessage: text(),
    createdBy: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'invoices_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('invoices_serial_uq').on(t.clientId, t.serialNo),
    uniqueIndex('invoices_number_uq')
      .on(t.deviceId, t.invoiceType, t.invoiceCode, t.invoiceNo, t.clientId)
      .where(sql`${t.invoiceNo} is not null`),
    index('invoices_client_no_idx').on(t.clientId, t.invoiceNo),
    // red invoices only (migration 0020): a blue invoice adds no entry
    index('invoices_original_idx').on(t.originalInvoiceId).where(sql`${t.originalInvoiceId} is not null`),
  ],
);

/** Item lines (应税明细). `lineKind` 0 normal, 1 discount line, 2 discounted line (domain.md §2.4). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    invoiceId: bigint({ mode: 'number' }).notNull(),
    lineNo: integer().notNull(),
    clientId: integer().notNull(),
    lineKind: smallint().notNull().default(0),
    goodsId: integer(),
    /** 19-digit 税收分类编码, its 简称, the item name and the printed `*简称*名称` */
    taxClassCode: text().notNull(),
    shortName: text().notNull(),
    itemName: text().notNull(),
    fullName: text().notNull(),
    spec: text().notNull().default(''),
    unit: text().notNull().default(''),
    quantity: numeric({ precision: 24, scale: 8 }),
    /** tax-exclusive and tax-inclusive unit prices */
    unitPrice: numeric({ precision: 24, scale: 8 }),
    unitPriceWithTax: numeric({ precision: 24, scale: 8 }),
    amount: numeric({ precision: 18, scale: 2 }).notNull(),
    taxRate: numeric({ precision: 7, scale: 4 }).notNull(),
    taxAmount: numeric({ precision: 18, scale: 2 }).notNull(),
    amountWithTax: numeric({ precision: 18, scale: 2 }).notNull(),
    /** 数电 优惠政策标识 01…18, or '' */
    preferentialCode: text().notNull().default(''),
    /** 零税率标识: '' | 0 出口零税率 | 1 免税 | 2 不征税 | 3 普通零税率 */
    zeroRateFlag: text().notNull().default(''),
  },
  (t) => [
    primaryKey({ name: 'invoice_lines_pkey', columns: [t.invoiceId, t.lineNo, t.clientId] }),
    foreignKey({
      name: 'invoice_lines_invoice_fk',
      columns: [t.invoiceId, t.clientId],
      foreignColumns: [invoices.id, invoices.clientId],
    }),
  ],
);

/** Every state change of an invoice and who made it. */
export const invoiceEvents = pgTable(
  'invoice_events',
  {
    id: bigserial({ mode: 'number' }),
    invoiceId: bigint({ mode: 'number' }).notNull(),
    clientId: integer().notNull(),
    /** created | issuing | issued | failed | unknown | reconciled | emailed | email_failed | rendered | reddened | voided */
    kind: text().notNull(),
    userId: integer(),
    detail: jsonb().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'invoice_events_pkey', columns: [t.id, t.clientId] }),
    index('invoice_events_invoice_idx').on(t.invoiceId, t.id),
  ],
);

/** Rendered documents, cached (architecture.md §5): pdf | xml. */
export const invoiceFiles = pgTable(
  'invoice_files',
  {
    invoiceId: bigint({ mode: 'number' }).notNull(),
    kind: text().notNull(),
    clientId: integer().notNull(),
    fileName: text().notNull(),
    content: bytea().notNull(),
    size: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'invoice_files_pkey', columns: [t.invoiceId, t.kind, t.clientId] })],
);
