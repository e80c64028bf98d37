import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { serverKeys } from '../../db/schema/index.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';

describe('the login RSA key at rest', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  it('stores the private key sealed, not as a PEM, and still decrypts passwords', async () => {
    const key = (await call(t.app, 'GET', '/v3/user/public-key')).json.data;
    const [row] = await t.db.select().from(serverKeys).where(eq(serverKeys.id, key.key_id));
    expect(row!.privateKey.startsWith('v1.')).toBe(true);
    expect(row!.privateKey).not.toMatch(/BEGIN|PRIVATE KEY/);
    expect(await openSecret(t.app.env.dataDir, row!.privateKey)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await login(t.app, DEMO.clerk.account)).toBeTruthy();
  });

  it('seals a key stored in clear text by an older version the first time it is read', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await t.db
      .insert(serverKeys)
      .values({ id: 'legacy', publicKey, privateKey, createdAt: new Date(Date.now() + 60_000) });
    // another process (its own key cache) hands out the newest key: the clear-text one
    const other = await buildTestApp({ reuse: t });
    expect((await call(other.app, 'GET', '/v3/user/public-key')).json.data.key_id).toBe('legacy');
    expect(await login(other.app, DEMO.clerk.account)).toBeTruthy();
    const [row] = await t.db.select().from(serverKeys).where(eq(serverKeys.id, 'legacy'));
    expect(row!.privateKey.startsWith('v1.')).toBe(true);
    expect(await openSecret(t.app.env.dataDir, row!.privateKey)).toBe(privateKey);
  });

  it('makes a new pair when the stored one was sealed under another secret key', async () => {
    const { publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    // sealed with a key this process does not have (another data dir's secret.key)
    const foreignDir = await mkdtemp(path.join(os.tmpdir(), 'kp-foreign-'));
    const foreign = await sealSecret(foreignDir, 'x');
    await rm(foreignDir, { recursive: true, force: true });
    await t.db
      .insert(serverKeys)
      .values({ id: 'foreign', publicKey, privateKey: foreign, createdAt: new Date(Date.now() + 120_000) });
    const other = await buildTestApp({ reuse: t });
    expect((await call(other.app, 'GET', '/v3/user/public-key')).json.data.key_id).not.toBe('foreign');
    expect(await login(other.app, DEMO.clerk.account)).toBeTruthy();
  });
});
