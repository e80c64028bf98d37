import { createHmac, hkdf, randomBytes, timingSafeEqual } from 'node:crypto';
import { secretKey } from './secret-box.ts';

/**
 * Keys derived from the server secret (`KAIPIAO_SECRET_KEY` or `<data dir>/secret.key`, the same
 * key source as secret-box.ts) with HKDF-SHA256, one per use, so the AES key itself never signs or
 * hashes anything.
 */
export type KeyUse = 'code-hash' | 'mfa-ticket';
const derived = new Map<string, Promise<Buffer>>();

export function derivedKey(dataDir: string, use: KeyUse): Promise<Buffer> {
  const id = `${dataDir}\u0000${use}`;
  let k = derived.get(id);
  if (!k) {
    k = secretKey(dataDir).then(
      (master) =>
        new Promise<Buffer>((resolve, reject) =>
          hkdf('sha256', master, Buffer.alloc(0), `kaipiao ${use} v1`, 32, (err, key) =>
            err ? reject(err) : resolve(Buffer.from(key)),
          ),
        ),
    );
    k.catch(() => derived.delete(id));
    derived.set(id, k);
  }
  return k;
}

const mac = (key: Buffer, salt: string, subject: string, code: string) =>
  createHmac('sha256', key).update(`${salt}|${subject}|${code}`).digest();

/**
 * A one-time code (SMS, e-mail) at rest: HMAC-SHA256(server key, salt|subject|code) with a random
 * salt per code, as `h1$<salt>$<mac>`. Without the server key a leaked table cannot be reversed by
 * trying the million 6-digit codes.
 */
export async function hashCode(dataDir: string, subject: string, code: string): Promise<string> {
  const salt = randomBytes(16).toString('base64url');
  const key = await derivedKey(dataDir, 'code-hash');
  return `h1$${salt}$${mac(key, salt, subject, code).toString('base64url')}`;
}

export async function codeMatches(dataDir: string, subject: string, code: string, stored: string) {
  const [v, salt, want] = stored.split('$');
  if (v !== 'h1' || !salt || !want) return false;
  const key = await derivedKey(dataDir, 'code-hash');
  const expected = Buffer.from(want, 'base64url');
  const actual = mac(key, salt, subject, code);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
