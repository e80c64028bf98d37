// A PostgreSQL for `npm run mutation` of server modules (scripts/mutation.sh). Stryker copies the
// project into a 0700 sandbox the postgres user cannot enter, so the tests there use this cluster
// through TEST_DATABASE_URL (each test process makes and drops its own template and databases).
// Prints the admin URL on its first line and stops postgres on SIGTERM/SIGINT.
// A second module's run while one is going gets a cluster of its own (directory and port), so
// either may end first.
import fs from 'node:fs/promises';
import path from 'node:path';
import { StartupError, startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';

const dir = path.resolve(import.meta.dirname, '../.tmp/mutation-pg');
let own: string | null = null;
let started: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
try {
  started = await startEmbeddedPostgres(dir, { port: 55440, quiet: true, durable: false });
} catch (e) {
  if (!(e instanceof StartupError && e.reason === 'in-use')) throw e;
  own = `${dir}-${process.pid}`;
  started = await startEmbeddedPostgres(own, { quiet: true, durable: false });
}
const { cluster } = started;
console.log(cluster.url('postgres'));
const stop = async () => {
  await Promise.race([cluster.stop(), new Promise((r) => setTimeout(r, 10_000))]);
  if (own) await fs.rm(own, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
