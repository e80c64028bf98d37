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
import { clientStores, clients, orgs } from './tenancy.ts';

export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    account: text().notNull(),
    nickname: text().notNull(),
    mobile: text().notNull(),
    passwordHash: text().notNull(),
    passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    isWeakPassword: boolean().notNull().default(false),
    /** two-factor login: phone verification on an untrusted device */
    mfaRequired: boolean().notNull().default(false),
    status: text().notNull().default('active'),
    needContract: integer().notNull().default(0), // spec §4: 1 unsigned, 2 expired
    taxRateChangeTips: integer().notNull().default(0),
    lastOrgId: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_account_uq').on(t.account), index('users_mobile_idx').on(t.mobile)],
);

/** Named permission rule (权限规则): the menu urls an employee may use. */
export const authorityRules = pgTable('authority_rules', {
  id: serial().primaryKey(),
  orgId: integer()
    .notNull()
    .references(() => orgs.id),
  name: text().notNull(),
  urls: text().array().notNull().default(sql`'{}'::text[]`),
});

/** Membership of a user in an org. Group admins see every business and every url. */
export const employees = pgTable(
  'employees',
  {
    id: serial().primaryKey(),
    orgId: integer()
      .notNull()
      .references(() => orgs.id),
    userId: integer()
      .notNull()
      .references(() => users.id),
    role: text().notNull().default('staff'), // admin | staff
    isGroupAdmin: boolean().notNull().default(false),
    authorityRuleId: integer().references(() => authorityRules.id),
    status: text().notNull().default('active'),
  },
  (t) => [
    uniqueIndex('employees_org_user_uq').on(t.orgId, t.userId),
    index('employees_user_idx').on(t.userId),
  ],
);

/** Which businesses (and, optionally, which single stores) a staff employee may act for. */
export const employeeScopes = pgTable(
  'employee_scopes',
  {
    employeeId: integer()
      .notNull()
      .references(() => employees.id),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    /** 0 = every store of the business */
    storeId: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.employeeId, t.clientId, t.storeId] })],
);

export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    orgId: integer(),
    source: text().notNull().default(''),
    platform: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Trusted devices after a passed phone verification (secure-id, spec §4). */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    secureIdHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('trusted_devices_user_idx').on(t.userId)],
);

export { clientStores, clients };
