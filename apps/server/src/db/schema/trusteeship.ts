import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
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
 * A device or 数电 account handed over for hosted issuing (托管, domain.md §8.4). `mode`: device (the
 * disc / UKey sits in the provider's cabinet) | account (the provider keeps the 电子税务局 session).
 * `status`: hosted | revoked; at most one hosted row per device. A revoked row keeps its history.
 */
export const deviceTrusteeships = pgTable(
  'device_trusteeships',
  {
    id: serial(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    deviceId: integer().notNull(),
    mode: text().notNull(),
    status: text().notNull().default('hosted'),
    /** where the hosting centre keeps it: a cabinet slot, or the session host of an account */
    location: text().notNull().default(''),
    /** 办税小号 / contact phone the hosting centre uses for SMS codes (account hosting) */
    contactMobile: text().notNull().default(''),
    handedOverBy: integer(),
    handedOverAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    revokedBy: integer(),
    revokedAt: timestamp({ withTimezone: true }),
    revokeReason: text().notNull().default(''),
    /** the stores that were granted when it was revoked */
    revokedStoreIds: integer().array(),
  },
  (t) => [
    primaryKey({ name: 'device_trusteeships_pkey', columns: [t.id, t.clientId] }),
    uniqueIndex('device_trusteeships_hosted_uq')
      .on(t.deviceId, t.clientId)
      .where(sql`${t.status} = 'hosted'`),
    index('device_trusteeships_client_idx').on(t.clientId, t.id),
    foreignKey({
      name: 'device_trusteeships_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);

/**
 * Stores that may issue through a hosted device (besides the stores it is bound to in `device_stores`).
 * Rows exist only while the trusteeship is hosted: revoking deletes them in the same transaction, so the
 * issuing check is one primary-key lookup, like `device_stores`.
 */
export const trusteeshipGrants = pgTable(
  'trusteeship_grants',
  {
    deviceId: integer().notNull(),
    storeId: integer().notNull(),
    trusteeshipId: integer().notNull(),
    clientId: integer().notNull(),
    grantedBy: integer(),
    grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'trusteeship_grants_pkey', columns: [t.deviceId, t.storeId, t.clientId] }),
    index('trusteeship_grants_store_idx').on(t.storeId),
    foreignKey({
      name: 'trusteeship_grants_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
    foreignKey({
      name: 'trusteeship_grants_store_fk',
      columns: [t.storeId, t.clientId],
      foreignColumns: [clientStores.id, clientStores.clientId],
    }),
    foreignKey({
      name: 'trusteeship_grants_trusteeship_fk',
      columns: [t.trusteeshipId, t.clientId],
      foreignColumns: [deviceTrusteeships.id, deviceTrusteeships.clientId],
    }),
  ],
);
