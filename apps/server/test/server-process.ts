import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { DEMO } from '../src/seed/demo.ts';

/** The real server as a child process (crash-restart, production-start and scale-out tests). */
const ROOT = path.resolve(import.meta.dirname, '../../..');

export type Server = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export function start(dataDir: string, port: number, extraEnv: NodeJS.ProcessEnv = {}): Server {
  // this process's database and address are not the child's; extraEnv may give them
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.HOST;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    NODE_ENV: 'test',
    PORT: String(port),
    KAIPIAO_DATA_DIR: dataDir,
    KAIPIAO_FIXED_CAPTCHA: '1234',
    KAIPIAO_JOBS: 'off',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
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
export async function answering(server: Server, url: string, ms = 120_000) {
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

export async function api(url: string, p: string, body?: unknown, token?: string) {
  const res = await fetch(`${url}${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'access-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: any };
}

export async function login(url: string, account: string = DEMO.clerk.account): Promise<string> {
  const key = (await api(url, '/v3/user/public-key')).data;
  const password = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(DEMO.password),
  ).toString('base64');
  const unique_code = (await api(url, '/v3/user/picture-code')).data.unique_code;
  const res = await api(url, '/v3/user/account-login', {
    account,
    password: `${key.key_id}.${password}`,
    picture_code: '1234',
    unique_code,
  });
  if (res.code !== 0)
    throw Object.assign(new Error(`login failed: ${JSON.stringify(res)}`), { code: res.code });
  return res.data.token;
}
