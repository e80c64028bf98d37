import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const captchas = pgTable('captchas', {
  uniqueCode: text().primaryKey(),
  answer: text().notNull(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
});

/** SMS codes sent; also the record the resend wait and daily caps are counted from. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: serial().primaryKey(),
    mobile: text().notNull(),
    purpose: text().notNull(),
    codeHash: text().notNull(),
    ip: text().notNull().default(''),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('sms_codes_mobile_idx').on(t.mobile, t.createdAt),
    index('sms_codes_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** Outgoing SMS and e-mail (sandbox providers deliver here; real ones record the attempt). */
export const outbox = pgTable(
  'outbox',
  {
    id: serial().primaryKey(),
    channel: text().notNull(), // sms | email
    recipient: text().notNull(),
    subject: text().notNull().default(''),
    content: text().notNull(),
    code: text(),
    status: text().notNull().default('sent'), // sent | failed
    /** why delivery failed (the mail server's answer) */
    error: text(),
    /** e-mail attachments' metadata: [{ file_name, content_type, size }] (the bytes are not kept here) */
    attachments: jsonb()
      .$type<{ file_name: string; content_type: string; size: number }[]>()
      .notNull()
      .default([]),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/** QR login (spec §7 qr-code / get-login-status); consumed once the browser has its session. */
export const qrLogins = pgTable('qr_logins', {
  id: text().primaryKey(),
  status: text().notNull().default('waiting'), // waiting | scanned | confirmed | consumed
  userId: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/** Server key pair for password transport encryption (architecture.md §7); one row, shared by processes. */
export const serverKeys = pgTable('server_keys', {
  id: text().primaryKey(),
  publicKey: text().notNull(),
  privateKey: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sandbox partner sign-on tickets and login tokens (apps 1003, 1014, source 22) and work-app codes.
 * `ticket` holds the sha256 of the credential, never the credential itself.
 */
export const ssoTickets = pgTable('sso_tickets', {
  ticket: text().primaryKey(),
  kind: text().notNull(), // ticket | token | wecom_code
  userId: integer(),
  appId: text().notNull().default(''),
  payload: jsonb().notNull().default({}),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
});

export const wecomUsers = pgTable(
  'wecom_users',
  {
    corpId: text().notNull(),
    qwUserId: text().notNull(),
    userId: integer(),
    role: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.corpId, t.qwUserId] })],
);

export const notices = pgTable('notices', {
  id: serial().primaryKey(),
  title: text().notNull(),
  content: text().notNull(),
  active: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const noticeReads = pgTable(
  'notice_reads',
  {
    noticeId: integer().notNull(),
    userId: integer().notNull(),
    readAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.userId] })],
);

/**
 * Password attempts per account name, known or not (so an unknown name locks like a real one and
 * the answers never tell them apart). `failures` counts attempts reserved before the password is
 * checked; the 5th locks the name for 15 minutes; a success deletes the row.
 */
export const loginAttempts = pgTable('login_attempts', {
  account: text().primaryKey(),
  failures: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Fixed-window counters shared by every process (e.g. failed logins per IP, architecture.md §7). */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    hits: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
