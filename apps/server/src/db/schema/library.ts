import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from './tenancy.ts';

/**
 * How often buyer-name characters and pairs occur in a business (migration 0018, issue 25): the
 * library search picks its plan from them (modules/query/search-plan.ts). Refreshed by the job
 * `library.term-stats` from a sample of the business's invoices; a plan input only, never a result.
 */
export const libraryTermStats = pgTable('library_term_stats', {
  clientId: integer()
    .primaryKey()
    .references(() => clients.id),
  /** the business's invoices when sampled */
  invoices: integer().notNull(),
  /** how many of them the sample held (all of them up to the sample size) */
  sampled: integer().notNull(),
  /** the oldest and newest list time (issue time, or submission time while not issued) */
  firstAt: timestamp({ withTimezone: true }),
  lastAt: timestamp({ withTimezone: true }),
  /** invoices per store id */
  storeInvoices: jsonb().$type<Record<string, number>>().notNull().default({}),
  refreshedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const libraryTermGrams = pgTable(
  'library_term_grams',
  {
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    /** the GIN key: '<client_id> <character or pair>' of the lower-cased name (kp_name_grams) */
    gram: text().notNull(),
    /** invoices whose buyer name holds it, scaled from the sample to all the business's invoices */
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.gram] })],
);
