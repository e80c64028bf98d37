import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { clients } from './tenancy.ts';

/**
 * Invoice exports (/query/invoice/export-records): a bulk PDF zip or an Excel file built by a job.
 * `kind`: pdf_zip | excel; `status`: queued | running | done | failed (expired is derived from
 * `expiresAt`). The file lives under the data directory (`filePath`, relative to it), not in the
 * database: a zip of a thousand PDFs is tens of megabytes.
 */
export const exportRecords = pgTable(
  'export_records',
  {
    id: bigserial({ mode: 'number' }),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    kind: text().notNull(),
    /** the library filters as sent, plus the store scope resolved when the export was made */
    filters: jsonb().notNull().default(sql`'{}'::jsonb`),
    /** explicit selection (bulk select on the library page); null = every invoice the filters match */
    invoiceIds: bigint({ mode: 'number' }).array(),
    /** permitted stores at creation time; null = every store of the business */
    storeIds: integer().array(),
    status: text().notNull().default('queued'),
    progress: integer().notNull().default(0),
    rowCount: integer().notNull().default(0),
    fileName: text().notNull().default(''),
    filePath: text(),
    fileSize: bigint({ mode: 'number' }),
    error: text(),
    createdBy: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'export_records_pkey', columns: [t.id, t.clientId] }),
    index('export_records_client_created_idx').on(t.clientId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Home prompts a user answered for one business: the small-scale tax notice (spec §1: 不再提醒 /
 * 确定) and the tax-rate-change tip (POST /v3/system/clone-tax-rate-tips). `prompt`:
 * small_scale_notice | tax_rate_tip. `never` = do not remind again; `confirmedOn` = the business
 * day (Asia/Shanghai, YYYY-MM-DD) of the last 确定, which hides the notice for the rest of that day.
 */
export const homePromptStates = pgTable(
  'home_prompt_states',
  {
    userId: integer().notNull(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    prompt: text().notNull(),
    never: boolean().notNull().default(false),
    confirmedOn: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clientId, t.prompt] })],
);
