import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Secrets at rest (tax-bureau passwords; design architecture.md §7): AES-256-GCM with a 32-byte key
 * from `KAIPIAO_SECRET_KEY` (base64), else from `<KAIPIAO_DATA_DIR>/secret.key`, generated on first
 * use (mode 0600; `wx` so two processes starting together end up reading the same key).
 * Stored as `v1.<iv>.<tag>.<cipher>` (base64url parts).
 */
const keys = new Map<string, Promise<Buffer>>();

async function loadKey(dataDir: string): Promise<Buffer> {
  const fromEnv = process.env.KAIPIAO_SECRET_KEY;
  if (fromEnv) {
    const k = Buffer.from(fromEnv, 'base64');
    if (k.length !== 32) throw new Error('KAIPIAO_SECRET_KEY must be 32 bytes, base64');
    return k;
  }
  const file = path.join(dataDir, 'secret.key');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  } catch {
    await mkdir(dataDir, { recursive: true });
    try {
      await writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  }
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
