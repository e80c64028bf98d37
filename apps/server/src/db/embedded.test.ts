import { appendFile, chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isRunning,
  PASSWORD_FILE,
  readPidFile,
  recoverStalePostgres,
  StartupError,
  startEmbeddedPostgres,
} from './embedded.ts';

const connect = async (port: number, password: string) => {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await c.connect();
    await c.end();
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
};

describe('embedded PostgreSQL', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kp-embedded-'));
    await chmod(dir, 0o755); // as root, the database user must be able to enter it
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('generates its password into a 0600 file, listens on 127.0.0.1 only and refuses postgres/postgres', async () => {
    const { cluster } = await startEmbeddedPostgres(dir, { quiet: true, port: 0 });
    try {
      const file = path.join(dir, PASSWORD_FILE);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const password = (await readFile(file, 'utf8')).trim();
      expect(password.length).toBeGreaterThanOrEqual(24);
      expect(cluster.url('x')).toContain(encodeURIComponent(password));
      expect(await connect(cluster.port, password)).toBe('ok');
      expect(await connect(cluster.port, 'postgres')).toBe('28P01');
      // initdb's one-time password is replaced and forgotten
      expect(await stat(path.join(dir, `${PASSWORD_FILE}.init`)).catch(() => null)).toBeNull();
      const pidFile = await readFile(path.join(dir, 'pg', 'postmaster.pid'), 'utf8');
      expect(pidFile.split('\n')[5]).toBe('127.0.0.1'); // listen address
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('refuses to start a second time on a data directory a live server uses, and says so', async () => {
    const { cluster } = await startEmbeddedPostgres(dir, { quiet: true, port: 0 });
    try {
      const second = startEmbeddedPostgres(dir, { quiet: true, port: 0 });
      await expect(second).rejects.toBeInstanceOf(StartupError);
      await expect(second).rejects.toMatchObject({ reason: 'in-use' });
      await expect(second).rejects.toThrow(/正由另一个进程.*使用/);
      // the running one was left alone
      expect(
        await connect(cluster.port, (await readFile(path.join(dir, PASSWORD_FILE), 'utf8')).trim()),
      ).toBe('ok');
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('converts a cluster made with postgres/postgres to a generated password', async () => {
    const first = await startEmbeddedPostgres(dir, { quiet: true, port: 0 });
    const c = new pg.Client(first.cluster.url('postgres'));
    await c.connect();
    await c.query("alter role postgres password 'postgres'");
    await c.end();
    await first.cluster.stop();
    await rm(path.join(dir, PASSWORD_FILE)); // as an older version left it, clear-text auth included
    const hba = path.join(dir, 'pg', 'pg_hba.conf');
    await writeFile(hba, (await readFile(hba, 'utf8')).replaceAll('scram-sha-256', 'password'));
    const { cluster } = await startEmbeddedPostgres(dir, { quiet: true, port: 0 });
    try {
      const password = (await readFile(path.join(dir, PASSWORD_FILE), 'utf8')).trim();
      expect(password).not.toBe('postgres');
      expect(await connect(cluster.port, password)).toBe('ok');
      expect(await connect(cluster.port, 'postgres')).toBe('28P01');
      expect(await readFile(hba, 'utf8')).toMatch(/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+scram-sha-256$/m);
      expect(await readFile(hba, 'utf8')).not.toMatch(/\spassword$/m);
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('stops at once when its postgres already died (a kill, a crash)', async () => {
    const { cluster } = await startEmbeddedPostgres(dir, { quiet: true, port: 0 });
    const pid = (await readPidFile(path.join(dir, 'pg')))!.pid;
    process.kill(pid, 'SIGKILL');
    while (await isRunning(pid)) await new Promise((r) => setTimeout(r, 50));
    await cluster.stop(); // used to wait forever for an exit that had already happened
    expect(await recoverStalePostgres(path.join(dir, 'pg'))).toBe('removed');
  }, 60_000);

  it('removes a pid file whose process is gone', async () => {
    const file = path.join(dir, 'pg', 'postmaster.pid');
    await writeFile(file, `999999\n${path.join(dir, 'pg')}\n0\n5432\n/tmp\n127.0.0.1\n0 0\nready\n`);
    expect((await readPidFile(path.join(dir, 'pg')))?.pid).toBe(999999);
    expect(await recoverStalePostgres(path.join(dir, 'pg'))).toBe('removed');
    expect(await readPidFile(path.join(dir, 'pg'))).toBeNull();
  });

  it("prints postgres's own reason when it does not start, never `undefined`", async () => {
    const conf = path.join(dir, 'pg', 'postgresql.auto.conf');
    const before = await readFile(conf, 'utf8');
    await appendFile(conf, "\nshared_buffers = 'lots'\n");
    try {
      const failed = startEmbeddedPostgres(dir, { quiet: true, port: 0 });
      await expect(failed).rejects.toBeInstanceOf(StartupError);
      await expect(failed).rejects.toThrow(/shared_buffers/);
      await expect(failed).rejects.toThrow(/没有启动/);
    } finally {
      await writeFile(conf, before);
    }
  }, 60_000);

  it.skipIf(process.getuid?.() !== 0)(
    'explains, as root, a data directory the postgres user cannot enter (not initdb: Permission denied)',
    async () => {
      const closed = await mkdtemp(path.join(os.tmpdir(), 'kp-closed-')); // 0700, root's
      try {
        const refused = startEmbeddedPostgres(path.join(closed, 'postgres'), { quiet: true, port: 0 });
        await expect(refused).rejects.toMatchObject({ reason: 'permission' });
        await expect(refused).rejects.toThrow(`chmod o+x ${closed}`);
      } finally {
        await rm(closed, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
