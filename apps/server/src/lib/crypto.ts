import { createHash, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** scrypt cost: N = 2^logN, block size r, parallelisation p. */
export type ScryptCost = { logN: number; r: number; p: number };

/** OWASP Password Storage Cheat Sheet (2025): scrypt N=2^17, r=8, p=1 (architecture.md §7). */
export const OWASP_SCRYPT: ScryptCost = { logN: 17, r: 8, p: 1 };
/** Tests only: the suite logs in thousands of times; never used outside NODE_ENV=test. */
const TEST_SCRYPT: ScryptCost = { logN: 12, r: 8, p: 1 };
/** What the first format (`scrypt$<salt>$<hash>`) used: Node's defaults. */
const LEGACY_SCRYPT: ScryptCost = { logN: 14, r: 8, p: 1 };

/** The cost new hashes get: OWASP's everywhere but under NODE_ENV=test. */
export const passwordCost = (nodeEnv = process.env.NODE_ENV): ScryptCost =>
  nodeEnv === 'test' ? TEST_SCRYPT : OWASP_SCRYPT;

function scrypt(password: string, salt: Buffer, len: number, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.logN;
  // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below OWASP's 128 MiB
  const maxmem = 256 * N * cost.r;
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, len, { N, r: cost.r, p: cost.p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * scrypt with a random 16-byte salt per password, stored with its cost so a later cost still
 * verifies it: `scrypt$<logN>$<r>$<p>$<salt>$<hash>` (base64 salt and hash).
 */
export async function hashPassword(password: string, cost: ScryptCost = passwordCost()): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, cost);
  return `scrypt$${cost.logN}$${cost.r}$${cost.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

type Parsed = { cost: ScryptCost; salt: Buffer; hash: Buffer };

function parseHash(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return null;
  if (parts.length === 3) {
    // the first format: Node's default cost
    return {
      cost: LEGACY_SCRYPT,
      salt: Buffer.from(parts[1]!, 'base64'),
      hash: Buffer.from(parts[2]!, 'base64'),
    };
  }
  if (parts.length !== 6) return null;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const sane = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (!sane(logN, 20) || !sane(r, 32) || !sane(p, 16)) return null;
  return {
    cost: { logN, r, p },
    salt: Buffer.from(parts[4]!, 'base64'),
    hash: Buffer.from(parts[5]!, 'base64'),
  };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.salt.length === 0 || parsed.hash.length === 0) return false;
  const actual = await scrypt(password, parsed.salt, parsed.hash.length, parsed.cost);
  return timingSafeEqual(actual, parsed.hash);
}

/** A stored hash weaker than today's cost (or in the first format): rehash it after a successful login. */
export function passwordNeedsRehash(stored: string, cost: ScryptCost = passwordCost()): boolean {
  const parsed = parseHash(stored);
  if (!parsed || stored.split('$').length !== 6) return true;
  const c = parsed.cost;
  return c.logN < cost.logN || c.r < cost.r || c.p < cost.p;
}

/** A numeric code of `digits` digits from a CSPRNG (uniform: no modulo bias). */
export function numericCode(digits: number): string {
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, '0');
}
