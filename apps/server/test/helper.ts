import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { AUTH_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { connectDb, type DbHandle } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import type { Clock } from '../src/lib/clock.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { trustDevice } from '../src/modules/auth/repo.ts';
import { DEMO } from '../src/seed/demo.ts';

export { DEMO };

type TestApp = { app: App; db: DbHandle['db']; pool: DbHandle['pool']; url: string };

/**
 * A fresh database cloned from the migrated template, and the app on it (fastify/demo test/helper.ts).
 * `reuse` builds a second app (another "process") on an existing test app's database instead.
 */
export async function buildTestApp(
  opts: {
    seed?: boolean;
    env?: Record<string, string>;
    reuse?: TestApp;
    webDist?: string;
    /** the app's clock (test/clock.ts); the system clock by default */
    clock?: Clock;
    /** the app's pool size (5): a race of more requests than that needs more */
    poolMax?: number;
  } = {},
): Promise<TestApp> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  let url = opts.reuse?.url;
  if (!url) {
    const admin = new pg.Client(adminUrl);
    await admin.connect();
    // the demo tenant comes seeded with the template (test/global-setup.ts)
    const template = opts.seed === false ? inject('pgTemplate') : inject('pgDemoTemplate');
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  }
  const dbHandle: DbHandle = connectDb(url, opts.poolMax ?? 5);
  const env = loadEnv({ ...process.env, NODE_ENV: 'test', KAIPIAO_FIXED_CAPTCHA: '1234', ...opts.env });
  const app = await buildApp({ env, dbHandle, webDist: opts.webDist, clock: opts.clock });
  await app.ready();
  // hooks run in reverse order: an app reusing the database closes before its owner drops it
  afterAll(async () => {
    await app.close();
    await dbHandle.close();
    if (opts.reuse) return;
    const a = new pg.Client(adminUrl);
    await a.connect();
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  });
  return { app, db: dbHandle.db, pool: dbHandle.pool, url };
}

export type Json = { code: number; message: string; data: any };

export async function call(
  app: App,
  method: 'GET' | 'POST',
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await app.inject({
    method,
    url,
    headers: { ...opts.headers, ...(opts.token ? { 'access-token': opts.token } : {}) },
    payload: opts.body as object | undefined,
  });
  return { status: res.statusCode, json: res.json() as Json };
}

export async function encryptPassword(app: App, password: string): Promise<string> {
  const key = (await call(app, 'GET', '/v3/user/public-key')).json.data;
  const cipher = publicEncrypt(
    { key: key.public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(password),
  );
  return `${key.key_id}.${cipher.toString('base64')}`;
}

export async function pictureCode(app: App): Promise<string> {
  return (await call(app, 'GET', '/v3/user/picture-code')).json.data.unique_code;
}

const TEST_SECURE_ID = 'test-trusted-device';

/**
 * Logs a demo account in through the real endpoint; returns the token. An account that requires
 * two-factor (kaipiao_admin) logs in from a device the test marks as trusted, so only the tests
 * of the phone check itself go through SMS.
 */
export async function login(app: App, account: string, password: string = DEMO.password): Promise<string> {
  const attempt = async (secure_id?: string) =>
    call(app, 'POST', '/v3/user/account-login', {
      body: {
        account,
        password: await encryptPassword(app, password),
        picture_code: '1234',
        unique_code: await pictureCode(app),
        secure_id,
      },
    });
  let res = await attempt();
  if (res.json.code === AUTH_CODE.MFA_REQUIRED) {
    const user = (await app.db.select().from(users).where(eq(users.account, account)))[0]!;
    await trustDevice(app.db, user.id, sha256(TEST_SECURE_ID));
    res = await attempt(TEST_SECURE_ID);
  }
  if (res.json.code !== 0) throw new Error(`login of ${account} failed: ${JSON.stringify(res.json)}`);
  return res.json.data.token;
}

/** The demo ids, looked up rather than assumed. */
export async function demoIds(app: App, token: string) {
  const clients = (await call(app, 'POST', '/v3/user/client-list', { token, body: {} })).json.data as Array<{
    client_id: number;
    tax_code: string;
  }>;
  const software = clients.find((c) => c.tax_code === DEMO.software.taxCode)!;
  const hotel = clients.find((c) => c.tax_code === DEMO.hotel.taxCode);
  return { software: software.client_id, hotel: hotel?.client_id };
}
