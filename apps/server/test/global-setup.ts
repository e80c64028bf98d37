import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDb, runMigrations } from '../src/db/client.ts';
import { StartupError, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { currentKey } from '../src/modules/auth/keys.ts';
import { seedDemo } from '../src/seed/demo.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    pgDemoTemplate: string;
  }
}

/**
 * One PostgreSQL for the run: the embedded cluster (or TEST_DATABASE_URL's server), with a
 * migrated template database that each test file clones (architecture.md §8).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | null = null;
  // A shared server (TEST_DATABASE_URL) may serve several runs at once: each run gets its own
  // template and only ever drops its own databases.
  const shared = Boolean(adminUrl);
  const TEMPLATE = shared ? `kaipiao_template_${process.pid}` : 'kaipiao_template';
  if (!adminUrl) {
    const dir = path.resolve(import.meta.dirname, '../../../.tmp/test-pg');
    let started: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
    try {
      started = await startEmbeddedPostgres(dir, { port: 55432, quiet: true, durable: false });
    } catch (e) {
      // another run uses the shared cluster right now: this run gets a cluster of its own
      if (!(e instanceof StartupError && e.reason === 'in-use')) throw e;
      const own = `${dir}-${process.pid}`;
      started = await startEmbeddedPostgres(own, { quiet: true, durable: false });
      const stopOwn = started.cluster.stop;
      started.cluster.stop = async () => {
        await stopOwn();
        await fs.rm(own, { recursive: true, force: true });
      };
    }
    adminUrl = started.cluster.url('postgres');
    stop = started.cluster.stop;
  }
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  const DEMO_TEMPLATE = `${TEMPLATE}_demo`;
  await admin.query(`drop database if exists ${TEMPLATE} with (force)`);
  await admin.query(`drop database if exists ${DEMO_TEMPLATE} with (force)`);
  if (!shared) {
    const stale = await admin.query("select datname from pg_database where datname like 't\\_%'");
    for (const row of stale.rows) await admin.query(`drop database if exists "${row.datname}" with (force)`);
  }
  await admin.query(`create database ${TEMPLATE}`);
  const handle = connectDb(adminUrl.replace(/\/[^/]*$/, `/${TEMPLATE}`), 2);
  await runMigrations(handle);
  await handle.close();
  // The demo tenant and the login RSA key made once, not by every test file (seeding and a
  // 2048-bit key cost ~2 s a file: a mutation run pays that for every mutant, issue 22)
  await admin.query(`create database ${DEMO_TEMPLATE} template ${TEMPLATE}`);
  await admin.end();
  const demo = connectDb(adminUrl.replace(/\/[^/]*$/, `/${DEMO_TEMPLATE}`), 2);
  // without the demo history, as the test workers (NODE_ENV=test) seeded it, whatever NODE_ENV this process has
  await seedDemo(demo.db, { history: false });
  await currentKey(demo.db);
  await demo.close();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);
  project.provide('pgDemoTemplate', DEMO_TEMPLATE);
  const url = adminUrl;
  return async () => {
    if (shared) {
      const a = new pg.Client(url);
      await a.connect();
      await a.query(`drop database if exists ${TEMPLATE} with (force)`);
      await a.query(`drop database if exists ${DEMO_TEMPLATE} with (force)`);
      await a.end();
    }
    if (stop) await stop();
  };
}
