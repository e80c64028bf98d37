import { describe, expect, it } from 'vitest';
import { encryptWithForge, encryptWithKey, importPublicKey, toBase64 } from './encrypt-password.ts';

function toPem(der: ArrayBuffer): string {
  const lines = toBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

async function keyPair() {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  return { pair, pem: toPem(await crypto.subtle.exportKey('spki', pair.publicKey)) };
}

async function decrypt(privateKey: CryptoKey, wire: string) {
  const [keyId, cipher] = wire.split('.');
  const bytes = Uint8Array.from(atob(cipher), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, bytes);
  return { keyId, plain: new TextDecoder().decode(plain) };
}

describe('password encryption', () => {
  it('produces key_id.base64 that the private key decrypts back to the password (WebCrypto)', async () => {
    const { pair, pem } = await keyPair();
    const wire = await encryptWithKey('Kaipiao@2026', 'k1', await importPublicKey(pem));
    expect(await decrypt(pair.privateKey, wire)).toEqual({ keyId: 'k1', plain: 'Kaipiao@2026' });
  });

  it('produces the same wire format without WebCrypto (insecure http contexts)', async () => {
    const { pair, pem } = await keyPair();
    const wire = await encryptWithForge('密码Kaipiao@2026', 'k2', pem);
    expect(await decrypt(pair.privateKey, wire)).toEqual({ keyId: 'k2', plain: '密码Kaipiao@2026' });
  });
});
