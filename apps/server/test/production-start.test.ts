import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPidFile } from '../src/db/embedded.ts';
import { answering, freePort, type Server, start } from './server-process.ts';

const PRODUCTION = { NODE_ENV: 'production', KAIPIAO_FIXED_CAPTCHA: '' };
const PROVIDERS = {
  KAIPIAO_SMS_URL: 'http://127.0.0.1:9/sms',
  KAIPIAO_SMTP_URL: 'smtp://127.0.0.1:9',
  KAIPIAO_CHANNEL: 'sandbox',
};

/** Issue 21 (H2, M3): `NODE_ENV=production npm start` with no demo secrets and no sandboxes. */
describe('NODE_ENV=production npm start', () => {
  let dataDir: string;
  const servers: Server[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'kp-prod-'));
    await chmod(dataDir, 0o755); // as root, the postgres user must be able to enter it
  });
  afterAll(async () => {
    for (const s of servers) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGINT');
        await s.exited;
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses to start without a real SMS gateway, SMTP and the channel opt-in, naming them', async () => {
    const s = start(dataDir, await freePort(), PRODUCTION);
    servers.push(s);
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(/KAIPIAO_SMS_URL/);
    expect(s.output()).toMatch(/KAIPIAO_SMTP_URL/);
    expect(s.output()).toMatch(/KAIPIAO_CHANNEL=sandbox/);
    expect(s.output()).not.toMatch(/undefined|at .*\.ts:\d+/); // a sentence, not a stack
  }, 120_000);

  it('refuses the demo seed and the fixed picture code', async () => {
    const seed = start(dataDir, await freePort(), { ...PRODUCTION, ...PROVIDERS, KAIPIAO_SEED: 'demo' });
    const captcha = start(dataDir, await freePort(), { ...PROVIDERS, NODE_ENV: 'production' });
    servers.push(seed, captcha);
    expect(await seed.exited).toBe(1);
    expect(seed.output()).toMatch(/KAIPIAO_SEED=demo is refused/);
    expect(await captcha.exited).toBe(1); // KAIPIAO_FIXED_CAPTCHA=1234 from the test env
    expect(captcha.output()).toMatch(/KAIPIAO_FIXED_CAPTCHA is refused/);
  }, 120_000);

  it('starts with them, seeds no account and answers no sandbox route', async () => {
    const port = await freePort();
    const s = start(dataDir, port, { ...PRODUCTION, ...PROVIDERS });
    servers.push(s);
    await answering(s, `http://127.0.0.1:${port}`);
    expect(s.output()).toMatch(/还没有任何账号/);
    expect((await fetch(`http://127.0.0.1:${port}/v3/dev/outbox`)).status).toBe(404);
    const pid = await readPidFile(path.join(dataDir, 'postgres', 'pg'));
    const password = (await readFile(path.join(dataDir, 'postgres', 'db-password'), 'utf8')).trim();
    const c = new pg.Client({
      host: '127.0.0.1',
      port: pid!.port,
      user: 'postgres',
      password,
      database: 'kaipiao',
    });
    await c.connect();
    try {
      expect((await c.query('select account from users')).rows).toEqual([]);
    } finally {
      await c.end();
    }
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  }, 180_000);
});
