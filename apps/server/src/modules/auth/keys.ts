import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { AUTH_CODE } from '@kaipiao/shared';
import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { serverKeys } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';

type KeyPair = { id: string; publicKey: string; privateKey: string };
const cache = new WeakMap<Db, KeyPair>();

/**
 * The RSA key the browser encrypts passwords with (architecture.md §7). One row in the database
 * so every web process decrypts what any of them handed out.
 */
export async function currentKey(db: Db): Promise<KeyPair> {
  const hit = cache.get(db);
  if (hit) return hit;
  const rows = await db.select().from(serverKeys).orderBy(desc(serverKeys.createdAt)).limit(1);
  if (rows[0]) {
    cache.set(db, rows[0]);
    return rows[0];
  }
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  await db
    .insert(serverKeys)
    .values({ id: randomToken(6), publicKey, privateKey })
    .onConflictDoNothing();
  const again = await db.select().from(serverKeys).orderBy(desc(serverKeys.createdAt)).limit(1);
  cache.set(db, again[0]!);
  return again[0]!;
}

/** `${key_id}.${base64(RSA-OAEP-SHA256(password))}` → password. */
export async function decryptPassword(db: Db, cipher: string): Promise<string> {
  const key = await currentKey(db);
  const [keyId, body] = cipher.split('.');
  if (keyId !== key.id || !body) throw new AppError(AUTH_CODE.BAD_PASSWORD_CIPHER);
  try {
    return privateDecrypt(
      { key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(body, 'base64'),
    ).toString('utf8');
  } catch {
    throw new AppError(AUTH_CODE.BAD_PASSWORD_CIPHER);
  }
}
