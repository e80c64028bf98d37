// A PostgreSQL for `npm run mutation` of server modules (scripts/mutation.sh). Stryker copies the
// project into a 0700 sandbox the postgres user cannot enter, so the tests there use this cluster
// through TEST_DATABASE_URL (each test process makes and drops its own template and databases).
// Prints the admin URL on its first line and stops postgres on SIGTERM/SIGINT.
import path from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';

const dir = path.resolve(import.meta.dirname, '../.tmp/mutation-pg');
const { cluster } = await startEmbeddedPostgres(dir, { port: 55440, quiet: true, durable: false });
console.log(cluster.url('postgres'));
const stop = async () => {
  await Promise.race([cluster.stop(), new Promise((r) => setTimeout(r, 10_000))]);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
