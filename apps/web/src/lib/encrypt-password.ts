import { api } from './api.ts';

// Passwords travel RSA-OAEP(SHA-256) encrypted with the server's public key, as
// `${key_id}.${base64(cipher)}` (architecture.md §7, spec §5 "encoded before sending").

type PublicKey = { key_id: string; public_key: string };
type LoadedKey = PublicKey & { key: CryptoKey | null; loadedAt: number };

const KEY_TTL_MS = 5 * 60_000;
let cached: Promise<LoadedKey> | null = null;

/** WebCrypto exists only in secure contexts (HTTPS, localhost); plain http://<LAN address> lacks it. */
const hasWebCrypto = () => Boolean(globalThis.crypto?.subtle);

export function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}

export function toBase64(buffer: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export async function encryptWithKey(plain: string, keyId: string, key: CryptoKey): Promise<string> {
  const cipher = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
  return `${keyId}.${toBase64(cipher)}`;
}

/** The same RSA-OAEP(SHA-256, MGF1-SHA-256) in JavaScript, loaded only where WebCrypto is missing. */
export async function encryptWithForge(plain: string, keyId: string, pem: string): Promise<string> {
  const { default: forge } = await import('node-forge');
  const key = forge.pki.publicKeyFromPem(pem);
  const cipher = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return `${keyId}.${forge.util.encode64(cipher)}`;
}

export async function importPublicKey(pem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', pemToDer(pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
    'encrypt',
  ]);
}

async function loadKey(): Promise<LoadedKey> {
  const answer = await api.get<PublicKey>('/v3/user/public-key', { showError: false });
  const key = hasWebCrypto() ? await importPublicKey(answer.public_key) : null;
  return { ...answer, key, loadedAt: Date.now() };
}

async function currentKey(): Promise<LoadedKey> {
  const loaded = cached && (await cached.catch(() => null));
  if (loaded && Date.now() - loaded.loadedAt < KEY_TTL_MS) return loaded;
  cached = loadKey();
  return cached;
}

/** Encrypts one password field for the wire. */
export async function encryptPassword(plain: string): Promise<string> {
  const loaded = await currentKey();
  if (loaded.key) return encryptWithKey(plain, loaded.key_id, loaded.key);
  return encryptWithForge(plain, loaded.key_id, loaded.public_key);
}

/** Drops the cached key, e.g. after the server said the cipher was made with a retired key. */
export function forgetPublicKey() {
  cached = null;
}
