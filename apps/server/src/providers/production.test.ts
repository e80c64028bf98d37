import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO } from '../../test/helper.ts';
import { buildApp } from '../app.ts';
import { loadEnv } from '../config/env.ts';
import { connectDb } from '../db/client.ts';
import { captchas, outbox } from '../db/schema/index.ts';
import { createHttpSms } from './sms.ts';

/** A stand-in SMS gateway: records what it is sent, answers `status`. */
async function gateway(status = 200) {
  const received: Array<{ auth: string | undefined; body: { mobile: string; content: string } }> = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(text) });
      res.statusCode = status;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('a production start', () => {
  it('refuses to build the app without a real SMS gateway, SMTP and the tax-channel opt-in', async () => {
    const env = loadEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent' });
    const dbHandle = connectDb('postgres://127.0.0.1:1/never', 1); // never connected
    try {
      const refused = buildApp({ env, dbHandle });
      await expect(refused).rejects.toThrow(/KAIPIAO_SMS_URL/);
      await expect(refused).rejects.toThrow(/KAIPIAO_SMTP_URL/);
      await expect(refused).rejects.toThrow(/KAIPIAO_CHANNEL=sandbox/);
    } finally {
      await dbHandle.close();
    }
  });

  it('refuses the fixed picture code and the demo seed', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', KAIPIAO_FIXED_CAPTCHA: '1234' })).toThrow(
      /KAIPIAO_FIXED_CAPTCHA/,
    );
    expect(() => loadEnv({ NODE_ENV: 'production', KAIPIAO_SEED: 'demo' })).toThrow(/KAIPIAO_SEED=demo/);
  });
});

describe('SMS codes in production', () => {
  let gw: Awaited<ReturnType<typeof gateway>>;
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    gw = await gateway();
    t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        KAIPIAO_FIXED_CAPTCHA: '',
        KAIPIAO_SMS_URL: gw.url,
        KAIPIAO_SMS_TOKEN: 'gw-token',
        KAIPIAO_SMTP_URL: 'smtp://127.0.0.1:9',
        KAIPIAO_CHANNEL: 'sandbox',
      },
    });
  });
  afterAll(() => gw.close());

  it('go to the configured gateway, never to the outbox table', async () => {
    const unique_code = (await call(t.app, 'GET', '/v3/user/picture-code')).json.data.unique_code as string;
    const [captcha] = await t.db.select().from(captchas).where(eq(captchas.uniqueCode, unique_code));
    const res = await call(t.app, 'POST', '/v3/multi-factor/reg-sms', {
      body: { mobile: DEMO.clerk.mobile, picture_code: captcha!.answer, unique_code },
    });
    expect(res.json.code).toBe(0);
    expect(gw.received).toHaveLength(1);
    expect(gw.received[0]!.auth).toBe('Bearer gw-token');
    expect(gw.received[0]!.body.mobile).toBe(DEMO.clerk.mobile);
    expect(gw.received[0]!.body.content).toMatch(/\d{6}/);
    expect(await t.db.select().from(outbox)).toEqual([]);
  });

  it('logs a masked number and no content; a gateway refusal is an error', async () => {
    const lines: string[] = [];
    const sms = createHttpSms(gw.url, { log: (l) => lines.push(l) });
    await sms.send({ mobile: '13800000009', content: '验证码 123456', code: '123456' });
    expect(lines).toEqual(['[sms] sent to 138****0009']);
    expect(lines.join()).not.toMatch(/123456|13800000009/);
    const down = await gateway(503);
    try {
      await expect(
        createHttpSms(down.url, { log: () => undefined }).send({ mobile: '13800000009', content: 'x' }),
      ).rejects.toThrow(/HTTP 503/);
    } finally {
      await down.close();
    }
  });
});
