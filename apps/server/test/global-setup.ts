import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDb, runMigrations } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

const TEMPLATE = 'kaipiao_template';

/**
 * One PostgreSQL for the run: the embedded cluster (or TEST_DATABASE_URL's server), with a
 * migrated template database that each test file clones (architecture.md §8).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | null = null;
  if (!adminUrl) {
    const dir = path.resolve(import.meta.dirname, '../../../.tmp/test-pg');
    const { cluster } = await startEmbeddedPostgres(dir, { port: 55432, quiet: true });
    adminUrl = cluster.url('postgres');
    stop = cluster.stop;
  }
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE} with (force)`);
  const stale = await admin.query("select datname from pg_database where datname like 't\\_%'");
  for (const row of stale.rows) await admin.query(`drop database if exists "${row.datname}" with (force)`);
  await admin.query(`create database ${TEMPLATE}`);
  await admin.end();
  const handle = connectDb(adminUrl.replace(/\/[^/]*$/, `/${TEMPLATE}`), 2);
  await runMigrations(handle);
  await handle.close();
  project.provide('pgAdminUrl', adminUrl);
  return async () => {
    if (stop) await stop();
  };
}
