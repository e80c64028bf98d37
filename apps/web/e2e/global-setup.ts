import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitUntilAnswering(url: string, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `the server exited (${child.exitCode}) before answering:\n${readFileSync(logFile, 'utf8')}`,
      );
    }
    try {
      const res = await fetch(`${url}/v3/user/picture-code`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `the server did not answer within ${START_TIMEOUT_MS / 1000} s:\n${readFileSync(logFile, 'utf8')}`,
  );
}

/**
 * Starts the real console (server + built web app) with a fresh embedded PostgreSQL in
 * .tmp/e2e-<random>, on a free port, and stops it (SIGINT, as Ctrl-C would) after the run.
 */
export default async function globalSetup() {
  const indexHtml = path.join(ROOT, 'apps/web/dist/index.html');
  if (!existsSync(indexHtml)) {
    throw new Error(
      'apps/web/dist is missing: run `npm run build -w @kaipiao/web` first (scripts/e2e.sh does)',
    );
  }
  const dataDir = path.join(ROOT, '.tmp', `e2e-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    KAIPIAO_DATA_DIR: dataDir,
    KAIPIAO_FIXED_CAPTCHA: '1234',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL; // always a fresh embedded database
  // one secret key for this server and any second process a spec starts on its database (they
  // open each other's sealed secrets: the login key, tax-account passwords)
  env.KAIPIAO_SECRET_KEY = process.env.KAIPIAO_SECRET_KEY ?? randomBytes(32).toString('base64');
  process.env.KAIPIAO_SECRET_KEY = env.KAIPIAO_SECRET_KEY;
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/server.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
    log.end();
    // the server's log outlives the data dir, for reading after a failed run
    await fs.copyFile(logFile, path.join(ROOT, '.tmp/e2e-server.log')).catch(() => undefined);
    if (process.env.KAIPIAO_E2E_KEEP === '1') {
      console.log(`[e2e] kept ${dataDir}`);
    } else {
      await fs.rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  try {
    await waitUntilAnswering(url, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  process.env.KAIPIAO_E2E_URL = url;
  // the embedded cluster's address, for specs that start a second server process on the same database
  const pgPort = /embedded PostgreSQL on port (\d+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  // the embedded cluster's generated password (apps/server/src/db/embedded.ts, PASSWORD_FILE)
  const pgPassword = readFileSync(path.join(dataDir, 'postgres', 'db-password'), 'utf8').trim();
  if (pgPort)
    process.env.KAIPIAO_E2E_DATABASE_URL = `postgres://postgres:${encodeURIComponent(pgPassword)}@127.0.0.1:${pgPort}/kaipiao`;
  console.log(`[e2e] console at ${url} (data ${path.relative(ROOT, dataDir)})`);
  return stop;
}
