// A PostgreSQL for `npm run mutation` of server modules (scripts/mutation.sh). Stryker copies the
// project into a 0700 sandbox the postgres user cannot enter, so the tests there use this cluster
// through TEST_DATABASE_URL (each test process makes and drops its own template and databases).
// Prints the admin URL on its first line and stops postgres on SIGTERM/SIGINT.
// A second module's run while one is going gets a cluster of its own (directory and port), so
// either may end first.
//
// The cluster lives only as long as the run: a run's test databases are dropped by the test files'
// afterAll, but a mutant that breaks a file's teardown (or a worker Stryker kills on a time-out)
// leaves its database behind — thousands of mutants left 74 GB once and filled the disk. So: what a
// killed run left is dropped at start, the cluster's data is removed at the end, and every minute
// the test databases nobody has been connected to for two minutes are dropped.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { StartupError, startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';

// outside the project: Stryker walks the project when it copies it to its sandbox, and a database
// directory dropped during that walk failed the run (ENOENT on .tmp/mutation-pg/pg/base/…)
const base = path.join(os.tmpdir(), 'kaipiao-mutation-pg');
let dir = base;
let started: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
try {
  started = await startEmbeddedPostgres(base, { port: 55440, quiet: true, durable: false });
} catch (e) {
  if (!(e instanceof StartupError && e.reason === 'in-use')) throw e;
  dir = `${base}-${process.pid}`;
  started = await startEmbeddedPostgres(dir, { quiet: true, durable: false });
}
const { cluster } = started;
const adminUrl = cluster.url('postgres');
console.log(adminUrl);

// a cluster left by a run that was killed: its test databases and templates are of no use
{
  const c = new pg.Client(adminUrl);
  await c.connect();
  const { rows } = await c.query<{ datname: string }>(
    `select datname from pg_database where datname like 't\\_%' or datname like 'kaipiao\\_template%'`,
  );
  for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
  await c.end();
}

const idleSince = new Map<string, number>();
const sweep = async () => {
  const c = new pg.Client(adminUrl);
  try {
    await c.connect();
    const { rows } = await c.query<{ datname: string; n: number }>(`
      select d.datname, (select count(*)::int from pg_stat_activity a where a.datname = d.datname) as n
      from pg_database d where d.datname like 't\\_%'`);
    const now = Date.now();
    for (const { datname, n } of rows) {
      if (n > 0) idleSince.delete(datname);
      else if (!idleSince.has(datname)) idleSince.set(datname, now);
      else if (now - idleSince.get(datname)! > 120_000) {
        await c.query(`drop database if exists "${datname}" with (force)`);
        idleSince.delete(datname);
      }
    }
  } catch {
    // the cluster is busy or stopping: next minute
  } finally {
    await c.end().catch(() => undefined);
  }
};
const sweeper = setInterval(() => void sweep(), 60_000);

const stop = async () => {
  clearInterval(sweeper);
  await Promise.race([cluster.stop(), new Promise((r) => setTimeout(r, 10_000))]);
  await fs.rm(path.join(dir, 'pg'), { recursive: true, force: true }).catch(() => undefined);
  if (dir !== base) await fs.rm(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
