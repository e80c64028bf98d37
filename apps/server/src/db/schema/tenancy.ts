import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A group (集团). Its package decides which menu entries are paid or gray (spec §6). */
export const orgs = pgTable('orgs', {
  id: serial().primaryKey(),
  name: text().notNull(),
  packageCode: text().notNull().default('trial'), // trial | basic | pro | none
  packageExpiresAt: timestamp({ withTimezone: true }),
  bookkeepingExpiresAt: timestamp({ withTimezone: true }),
  grayFeatures: text().array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A taxpayer business (纳税人). */
export const clients = pgTable(
  'clients',
  {
    id: serial().primaryKey(),
    orgId: integer()
      .notNull()
      .references(() => orgs.id),
    name: text().notNull(),
    taxCode: text().notNull(),
    industry: text().notNull().default('general'), // general | hotel
    taxpayerType: text().notNull().default('general'), // general | small
    address: text().notNull().default(''),
    phone: text().notNull().default(''),
    bankName: text().notNull().default(''),
    bankAccount: text().notNull().default(''),
    hasWhiteListedTaxAccount: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('clients_tax_code_uq').on(t.taxCode), index('clients_org_idx').on(t.orgId)],
);

export const clientStores = pgTable(
  'client_stores',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    name: text().notNull(),
    code: text().notNull(),
    status: text().notNull().default('active'), // active | disabled
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'client_stores_pkey', columns: [t.id, t.clientId] }),
    index('client_stores_client_idx').on(t.clientId),
    uniqueIndex('client_stores_code_uq').on(t.clientId, t.code),
  ],
);
