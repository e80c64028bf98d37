import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Secrets at rest (tax-bureau passwords; design architecture.md §7): AES-256-GCM with a 32-byte key
 * from `KAIPIAO_SECRET_KEY` (base64), else from `<KAIPIAO_DATA_DIR>/secret.key`, generated on first
 * use (mode 0600). The file appears whole or not at all: the key is written to a private temporary
 * file and hard-linked into place, so of two processes starting together the first link wins and
 * the other reads that key, never a file still being written (the earlier `wx` open let a reader
 * see it empty: "Invalid key length" once in a parallel test run).
 * Stored as `v1.<iv>.<tag>.<cipher>` (base64url parts).
 */
const keys = new Map<string, Promise<Buffer>>();

/**
 * Creates `file` (mode 0600) holding `content` unless it exists: written to a private temporary
 * file and hard-linked into place, so the file appears whole or not at all and, of two processes
 * racing, the first link wins (the loser keeps the winner's file; read it back after this call).
 */
export async function writeFileOnce(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(tmp, content, { mode: 0o600 });
  try {
    await link(tmp, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') {
      // a file system without hard links: create-exclusive, and the reads below wait for the content
      await writeFile(file, content, { flag: 'wx', mode: 0o600 }).catch((e2: unknown) => {
        if ((e2 as NodeJS.ErrnoException).code !== 'EEXIST') throw e2;
      });
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** The key in `file`; null while there is none (absent, or not yet a whole 32-byte key). */
async function readKey(file: string): Promise<Buffer | null> {
  try {
    const k = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    return k.length === 32 ? k : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function loadKey(dataDir: string): Promise<Buffer> {
  const fromEnv = process.env.KAIPIAO_SECRET_KEY;
  if (fromEnv) {
    const k = Buffer.from(fromEnv, 'base64');
    if (k.length !== 32) throw new Error('KAIPIAO_SECRET_KEY must be 32 bytes, base64');
    return k;
  }
  const file = path.join(dataDir, 'secret.key');
  const existing = await readKey(file);
  if (existing) return existing;
  await writeFileOnce(file, randomBytes(32).toString('base64'));
  // the winner's key (a file left half-written by an older version is waited for, then refused)
  for (let i = 0; i < 50; i++) {
    const k = await readKey(file);
    if (k) return k;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file} does not hold a 32-byte base64 key`);
}

export function secretKey(dataDir: string): Promise<Buffer> {
  let k = keys.get(dataDir);
  if (!k) {
    k = loadKey(dataDir);
    keys.set(dataDir, k);
  }
  return k;
}

export async function sealSecret(dataDir: string, plain: string): Promise<string> {
  const key = await secretKey(dataDir);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', iv, c.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export async function openSecret(dataDir: string, sealed: string): Promise<string> {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('bad sealed secret');
  const key = await secretKey(dataDir);
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}
