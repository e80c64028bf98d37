import { AUTH_CODE } from '@kaipiao/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginBody } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';

describe('sandbox controls when NODE_ENV=production', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        KAIPIAO_FIXED_CAPTCHA: '',
        // production refuses to start without real providers and the sandbox channel's opt-in
        KAIPIAO_SMS_URL: 'http://127.0.0.1:9/sms',
        KAIPIAO_SMTP_URL: 'smtp://127.0.0.1:9',
        KAIPIAO_CHANNEL: 'sandbox',
      },
    });
  });

  it.each([
    ['GET', '/v3/dev/outbox'],
    ['POST', '/v3/dev/qr-confirm'],
    ['POST', '/v3/dev/notice-unread'],
    ['POST', '/v3/dev/sso/issue'],
    ['POST', '/v3/dev/wecom/issue-code'],
    ['GET', '/sandbox/qr-login?qr_id=x'],
    ['GET', '/sandbox/sso/login?app_id=1003'],
    ['GET', '/sandbox/sso/logout?source=22'],
    ['GET', '/sandbox/wecom/login'],
  ] as const)('answers HTTP 404 for %s %s', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(404);
  });

  it('does not fix the picture code', async () => {
    const res = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, DEMO.clerk.account),
    });
    expect(res.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
  });

  it('still serves the real login endpoints', async () => {
    expect((await call(t.app, 'GET', '/v3/user/qr-code')).json.code).toBe(0);
  });
});
