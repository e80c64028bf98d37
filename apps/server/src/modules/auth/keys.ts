import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { AUTH_CODE } from '@kaipiao/shared';
import { and, desc, eq } from 'drizzle-orm';
import { loadEnv } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { serverKeys } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';

/** `privateKey` is the clear PEM in memory; at rest it is sealed (`v1.…`, lib/secret-box.ts). */
type KeyPair = { id: string; publicKey: string; privateKey: string };
const current = new WeakMap<Db, KeyPair>();
const byId = new WeakMap<Db, Map<string, KeyPair>>();

// the secret box's key: KAIPIAO_SECRET_KEY, else <KAIPIAO_DATA_DIR>/secret.key (as the tax passwords)
let dataDir: string | undefined;
const secretDir = () => {
  dataDir ??= loadEnv(process.env).dataDir;
  return dataDir;
};

/**
 * A stored row with its private key opened. A row written before keys were sealed holds the PEM
 * in clear text: it is sealed in place now (no migration needed; the `v1.` prefix tells them apart).
 */
async function opened(db: Db, row: typeof serverKeys.$inferSelect): Promise<KeyPair | undefined> {
  const stored = row.privateKey;
  if (stored.startsWith('v1.')) {
    // sealed under another secret key (a lost data dir, a process without KAIPIAO_SECRET_KEY):
    // unusable here, so a new pair is made rather than every login failing
    const privateKey = await openSecret(secretDir(), stored).catch(() => null);
    return privateKey ? { ...row, privateKey } : undefined;
  }
  await db
    .update(serverKeys)
    .set({ privateKey: await sealSecret(secretDir(), stored) })
    .where(and(eq(serverKeys.id, row.id), eq(serverKeys.privateKey, stored)));
  return { ...row, privateKey: stored };
}

const newest = async (db: Db) => {
  const [row] = await db
    .select()
    .from(serverKeys)
    .orderBy(desc(serverKeys.createdAt), serverKeys.id)
    .limit(1);
  return row ? opened(db, row) : undefined;
};

/**
 * The RSA key the browser encrypts passwords with (architecture.md §7). Kept in the database so
 * every web process decrypts what any of them handed out; the private key sealed with the secret
 * box's key, so a database dump alone does not decrypt passwords in transit.
 */
export async function currentKey(db: Db): Promise<KeyPair> {
  const hit = current.get(db);
  if (hit) return hit;
  let key = await newest(db);
  if (!key) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const id = randomToken(6);
    await db
      .insert(serverKeys)
      .values({ id, publicKey, privateKey: await sealSecret(secretDir(), privateKey) })
      .onConflictDoNothing();
    // the newest pair: another process's made at the same moment, else ours
    key = (await newest(db)) ?? { id, publicKey, privateKey };
  }
  current.set(db, key);
  return key;
}

/** Any key we ever handed out: two processes starting together may each have made one. */
async function keyById(db: Db, id: string): Promise<KeyPair | undefined> {
  let map = byId.get(db);
  if (!map) {
    map = new Map();
    byId.set(db, map);
  }
  const hit = map.get(id);
  if (hit) return hit;
  const [row] = await db.select().from(serverKeys).where(eq(serverKeys.id, id)).limit(1);
  if (!row) return undefined;
  const key = await opened(db, row);
  if (key) map.set(id, key);
  return key;
}

/** `${key_id}.${base64(RSA-OAEP-SHA256(password))}` → password. */
export async function decryptPassword(db: Db, cipher: string): Promise<string> {
  const [keyId, body] = cipher.split('.');
  const key = keyId && body ? await keyById(db, keyId) : undefined;
  if (!key) throw new AppError(AUTH_CODE.BAD_PASSWORD_CIPHER);
  try {
    return privateDecrypt(
      { key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(body!, 'base64'),
    ).toString('utf8');
  } catch {
    throw new AppError(AUTH_CODE.BAD_PASSWORD_CIPHER);
  }
}
