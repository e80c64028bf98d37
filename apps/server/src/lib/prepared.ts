import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import type { Db } from '../db/client.ts';

const dialect = new PgDialect({ casing: 'snake_case' });
const names = new Map<string, string>();

/**
 * Runs a raw SQL statement as a named prepared statement on the pool, so PostgreSQL parses and
 * plans it once per connection instead of on every call: for the large CTE statements of the hot
 * issuing path the planning costs more than the execution. Statements of the same text share a
 * name; values stay parameters. Autocommit only (not inside a transaction).
 */
export async function executePrepared<T extends QueryResultRow>(db: Db, query: SQL): Promise<QueryResult<T>> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = names.get(text);
  if (!name) {
    name = `kp_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  // drizzle's node-postgres database carries its pool as $client (not in the Db type)
  const pool = (db as Db & { $client: Pool }).$client;
  return pool.query<T>({ name, text, values: params as unknown[] });
}
