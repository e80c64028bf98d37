import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
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
 * 商品和服务税收分类编码 (domain.md §6): the shared reference table, upserted on start from
 * modules/goods/tax-class-data.ts. Only non-summary codes may go on an invoice.
 */
export const taxClassCodes = pgTable(
  'tax_class_codes',
  {
    /** 19 digits: 篇 + 9 levels of 2 */
    code: text().primaryKey(),
    name: text().notNull(),
    /** 商品简称: printed between the asterisks, `*简称*名称` */
    shortName: text().notNull(),
    /** 税率 under the general method ("0.06") */
    rates: text().array().notNull().default(sql`'{}'::text[]`),
    /** 征收率 (simplified method / small-scale) */
    levyRates: text().array().notNull().default(sql`'{}'::text[]`),
    /** 数电 优惠政策标识 the code admits ('01' … '18') */
    preferentialOptions: text().array().notNull().default(sql`'{}'::text[]`),
    isSummary: boolean().notNull().default(false),
    /** 特定业务 tag (03 / 04 / 06 / 09) or null */
    specialBusiness: text(),
    keywords: text().notNull().default(''),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tax_class_codes_short_name_idx').on(t.shortName)],
);

/** A business's goods code (商品编码): what a clerk picks for an invoice line. */
export const goods = pgTable(
  'goods',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    name: text().notNull(),
    taxClassCode: text().notNull(),
    /** copied from the classification code when saved */
    shortName: text().notNull(),
    spec: text().notNull().default(''),
    unit: text().notNull().default(''),
    /** as entered: tax-inclusive when priceIncludesTax; null = priced on the invoice */
    price: numeric({ precision: 24, scale: 8 }),
    priceIncludesTax: boolean().notNull().default(true),
    taxRate: numeric({ precision: 7, scale: 4 }).notNull(),
    /** 数电 优惠政策标识 '01'…'18' or '' */
    preferentialCode: text().notNull().default(''),
    /** '' | 1 免税 | 2 不征税 | 3 普通零税率 */
    zeroRateFlag: text().notNull().default(''),
    isDefault: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'goods_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('goods_name_spec_uq').on(t.clientId, t.name, t.spec),
    // at most one default per business
    uniqueIndex('goods_default_uq').on(t.clientId).where(sql`${t.isDefault}`),
    index('goods_client_updated_idx').on(t.clientId, t.updatedAt.desc(), t.id.desc()),
  ],
);

/** A saved buyer (购方抬头). titleType 1 个人/非企业单位, 2 企业. */
export const buyerTitles = pgTable(
  'buyer_titles',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    titleType: smallint().notNull().default(2),
    name: text().notNull(),
    taxCode: text().notNull().default(''),
    address: text().notNull().default(''),
    phone: text().notNull().default(''),
    bankName: text().notNull().default(''),
    bankAccount: text().notNull().default(''),
    email: text().notNull().default(''),
    mobile: text().notNull().default(''),
    /** how often the invoice form used it: autocomplete puts the most used first */
    useCount: integer().notNull().default(0),
    lastUsedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'buyer_titles_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('buyer_titles_name_uq').on(t.clientId, t.name),
    index('buyer_titles_tax_code_idx').on(t.clientId, t.taxCode),
    index('buyer_titles_usage_idx').on(t.clientId, t.useCount.desc(), t.lastUsedAt.desc()),
  ],
);
