import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
export type DbHandle = { pool: pg.Pool; db: Db; close: () => Promise<void> };

// numeric stays a string (decimal-safe); bigint count(*) becomes a number
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function connectDb(url: string, max = 20): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'kaipiao' });
  pool.on('error', (err) => console.error('[pg pool]', err.message));
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return { pool, db, close: () => pool.end() };
}

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Applies committed migrations; an advisory lock keeps two starting processes from racing. */
export async function runMigrations(handle: DbHandle): Promise<void> {
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock(727001)');
    await migrate(drizzle(client, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS });
  } finally {
    await client.query('select pg_advisory_unlock(727001)').catch(() => undefined);
    client.release();
  }
}
