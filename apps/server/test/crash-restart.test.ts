import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isRunning, readPidFile } from '../src/db/embedded.ts';
import { DEMO } from '../src/db/seed/demo.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

type Server = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

function start(dataDir: string, port: number): Server {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    KAIPIAO_DATA_DIR: dataDir,
    KAIPIAO_FIXED_CAPTCHA: '1234',
    KAIPIAO_JOBS: 'off',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.HOST;
  // node itself, not the tsx CLI: the CLI would leave this process running as a grandchild
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Resolves once the server answers HTTP; fails with its output if it exits first. */
async function answering(server: Server, url: string, ms = 120_000) {
  const until = Date.now() + ms;
  let exit: number | null | undefined;
  void server.exited.then((c) => {
    exit = c;
  });
  while (Date.now() < until) {
    if (exit !== undefined) throw new Error(`the server exited (${exit}):\n${server.output()}`);
    try {
      const res = await fetch(`${url}/v3/user/picture-code`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer within ${ms} ms:\n${server.output()}`);
}

async function api(url: string, p: string, body?: unknown, token?: string) {
  const res = await fetch(`${url}${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'access-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: any };
}

async function login(url: string): Promise<string> {
  const key = (await api(url, '/v3/user/public-key')).data;
  const password = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(DEMO.password),
  ).toString('base64');
  const unique_code = (await api(url, '/v3/user/picture-code')).data.unique_code;
  const res = await api(url, '/v3/user/account-login', {
    account: DEMO.clerk.account,
    password: `${key.key_id}.${password}`,
    picture_code: '1234',
    unique_code,
  });
  if (res.code !== 0) throw new Error(`login failed: ${JSON.stringify(res)}`);
  return res.data.token;
}

const servers: Server[] = [];
let dataDir = '';
afterAll(async () => {
  for (const s of servers) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGINT');
      await s.exited;
    }
  }
  if (dataDir) {
    // a postgres this test left behind (a failed assertion) is stopped before its files go
    const left = await readPidFile(path.join(dataDir, 'postgres', 'pg')).catch(() => null);
    if (left && (await isRunning(left.pid))) process.kill(left.pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 1000));
    await rm(dataDir, { recursive: true, force: true });
  }
});

/**
 * Issue 21 (M4): `kill -9` of the server leaves its embedded PostgreSQL running; the FIRST start
 * after it must come up (stop the orphan, start again) with the data of before.
 */
it('comes up on the first start after the server was killed with SIGKILL, data intact', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-crash-'));
  await chmod(dataDir, 0o755); // as root, the postgres user must be able to enter it
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const first = start(dataDir, port);
  servers.push(first);
  await answering(first, url);
  const token = await login(url);
  const before = await api(url, '/v3/user/client-list', {}, token);
  expect(before.code).toBe(0);

  const pidFile = await readPidFile(path.join(dataDir, 'postgres', 'pg'));
  expect(pidFile).not.toBeNull();
  first.child.kill('SIGKILL'); // the node process only: its postgres stays behind
  await first.exited;
  expect(await isRunning(pidFile!.pid)).toBe(true);

  const second = start(dataDir, port);
  servers.push(second);
  await answering(second, url);
  expect(second.output()).toMatch(/PostgreSQL left running by a stopped server/);
  expect(await isRunning(pidFile!.pid)).toBe(false);
  // the session and the tenant of before: the same answer with the token issued before the kill
  const after = await api(url, '/v3/user/client-list', {}, token);
  expect(after).toEqual(before);

  second.child.kill('SIGINT');
  expect(await second.exited).toBe(0);
}, 240_000);
