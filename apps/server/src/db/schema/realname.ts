import { foreignKey, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { taxDevices } from './invoicing.ts';

/**
 * The sandbox bureau's real-name (实名/实人) state per 数电 device (spec §3, §4; domain.md §7.3),
 * keyed by (business, device). Kept here because the tax-accounts table did not exist yet; the row is
 * created on first use from the device. `authStatus`: 0 none, 1 QR valid, 2 authenticated,
 * 3 QR expired, 4 log in to the app again. `qrDay`/`smsDay` are Beijing dates for the daily caps.
 */
export const realnameSessions = pgTable(
  'realname_sessions',
  {
    clientId: integer().notNull(),
    deviceId: integer().notNull(),
    taxAccount: text().notNull(),
    taxMobile: text().notNull(),
    personName: text().notNull(),
    /** spec §3 auth_way: "1" SMS, "2" QR */
    authWay: text().notNull().default('1'),
    eleTaxLoginType: text().notNull().default('1'),
    /** 0 税务APP, 1 个人所得税APP */
    authType: smallint().notNull().default(0),
    authStatus: smallint().notNull().default(0),
    loginExpiresAt: timestamp({ withTimezone: true }),
    qrToken: text(),
    qrIssuedAt: timestamp({ withTimezone: true }),
    qrExpiresAt: timestamp({ withTimezone: true }),
    qrDay: text().notNull().default(''),
    qrDayCount: integer().notNull().default(0),
    smsCodeHash: text(),
    smsSentAt: timestamp({ withTimezone: true }),
    smsExpiresAt: timestamp({ withTimezone: true }),
    smsAttempts: integer().notNull().default(0),
    smsDay: text().notNull().default(''),
    smsDayCount: integer().notNull().default(0),
    /** 1: the current QR / status was raised by the bureau (socket prompt), 0: the person's own dialog */
    promptRaised: smallint().notNull().default(0),
    /** sandbox control: the next SMS send answers code 10000 */
    smsAnswer10000: smallint().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.deviceId] }),
    foreignKey({
      name: 'realname_sessions_device_fk',
      columns: [t.deviceId, t.clientId],
      foreignColumns: [taxDevices.id, taxDevices.clientId],
    }),
  ],
);
