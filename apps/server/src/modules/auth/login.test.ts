import { AUTH_CODE, CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountLogin, loginBody } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, encryptPassword, login, pictureCode } from '../../../test/helper.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { LOGIN_IP_LIMIT } from './service.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  // behind a trusted proxy at 127.0.0.1, as deployed: X-Forwarded-For names the client
  t = await buildTestApp({ env: { KAIPIAO_TRUST_PROXY: '127.0.0.1' } });
});

const failedLogins = async (account: string) =>
  (await t.db.select().from(users).where(eq(users.account, account)))[0]!;

describe('POST /v3/user/account-login', () => {
  it('signs the clerk in with a token and her user info when everything is right', async () => {
    const res = await accountLogin(t.app, DEMO.clerk.account);
    expect(res.json).toMatchObject({ code: 0, message: '登录成功' });
    expect(res.json.data).toMatchObject({ expires_in: 7200, user: { account: 'kaipiao_clerk', source: '' } });
    const stored = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(res.json.data.token)));
    expect(stored).toHaveLength(1);
  });

  it('refuses a wrong password with 11002', async () => {
    const res = await accountLogin(t.app, DEMO.clerk.account, 'Wrong@2026');
    expect(res.json).toEqual({ code: AUTH_CODE.BAD_CREDENTIALS, message: '账号或密码错误', data: null });
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    const unknown = await accountLogin(t.app, 'nobody_here_2026', DEMO.password);
    const wrong = await accountLogin(t.app, DEMO.clerk.account, 'Wrong@2026');
    expect(unknown.json).toEqual(wrong.json);
  });

  it('locks the account after 5 failures in a row and then refuses the right password too', async () => {
    const account = DEMO.admin.account;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await accountLogin(t.app, account, `Wrong@${i}x`)).json.code);
    expect(codes).toEqual([...Array(4).fill(AUTH_CODE.BAD_CREDENTIALS), AUTH_CODE.ACCOUNT_LOCKED]);
    const right = await accountLogin(t.app, account, DEMO.password);
    expect(right.json.code).toBe(AUTH_CODE.ACCOUNT_LOCKED);
    expect((await failedLogins(account)).lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  it('lets the account try again from scratch when the lock has run out', async () => {
    const account = DEMO.admin.account;
    await t.db
      .update(users)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.account, account));
    const slip = await accountLogin(t.app, account, 'Wrong@2026');
    expect(slip.json.code).toBe(AUTH_CODE.BAD_CREDENTIALS);
    expect(await failedLogins(account)).toMatchObject({ failedLogins: 1, lockedUntil: null });
  });

  it(`refuses an IP with 10029 after ${LOGIN_IP_LIMIT.failures} failed logins, whatever the account`, async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    const password = await encryptPassword(t.app, 'Wrong@2026');
    for (let i = 0; i < LOGIN_IP_LIMIT.failures; i++) {
      const body = {
        account: `guess_${i}`,
        password,
        picture_code: '1234',
        unique_code: await pictureCode(t.app),
      };
      const res = await call(t.app, 'POST', '/v3/user/account-login', { body, headers });
      expect(res.json.code).toBe(AUTH_CODE.BAD_CREDENTIALS);
    }
    const body = await loginBody(t.app, DEMO.clerk.account);
    const limited = await call(t.app, 'POST', '/v3/user/account-login', { body, headers });
    expect(limited.json).toMatchObject({ code: CODE.RATE_LIMITED, data: null });
    const elsewhere = await call(t.app, 'POST', '/v3/user/account-login', {
      body: await loginBody(t.app, DEMO.clerk.account),
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(elsewhere.json.code).toBe(0);
  });

  it('ignores X-Forwarded-For when no proxy is trusted, so a spoofed header cannot dodge the limit', async () => {
    const direct = await buildTestApp(); // own database: this test uses up 127.0.0.1's allowance
    const password = await encryptPassword(direct.app, 'Wrong@2026');
    for (let i = 0; i < LOGIN_IP_LIMIT.failures; i++) {
      const body = {
        account: `spoof_${i}`,
        password,
        picture_code: '1234',
        unique_code: await pictureCode(direct.app),
      };
      const headers = { 'x-forwarded-for': `198.51.100.${i}` };
      await call(direct.app, 'POST', '/v3/user/account-login', { body, headers });
    }
    const body = await loginBody(direct.app, DEMO.clerk.account);
    const res = await call(direct.app, 'POST', '/v3/user/account-login', {
      body,
      headers: { 'x-forwarded-for': '198.51.100.250' },
    });
    expect(res.json.code).toBe(CODE.RATE_LIMITED);
  });
});

describe('GET /v3/user/picture-code', () => {
  it('returns a base64 picture and a unique_code', async () => {
    const res = await call(t.app, 'GET', '/v3/user/picture-code');
    expect(res.json.data.picture).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(res.json.data.unique_code).toMatch(/^[\w-]{16,}$/);
  });

  it('refuses a picture code used a second time', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    expect((await call(t.app, 'POST', '/v3/user/account-login', { body })).json.code).toBe(0);
    const again = await call(t.app, 'POST', '/v3/user/account-login', { body });
    expect(again.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
  });

  it('uses the picture code up when the answer is wrong', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    const wrong = await call(t.app, 'POST', '/v3/user/account-login', {
      body: { ...body, picture_code: 'abcd' },
    });
    expect(wrong.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
    const right = await call(t.app, 'POST', '/v3/user/account-login', { body });
    expect(right.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
  });
});

describe('GET /v3/user/info', () => {
  it('answers 401 when the session has expired', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(token)));
    const res = await call(t.app, 'GET', '/v3/user/info', { token });
    expect(res.json).toEqual({ code: 401, message: '登录已失效，请重新登录', data: null });
  });

  it('describes the signed-in user with the masked mobile', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const res = await call(t.app, 'GET', '/v3/user/info', { token });
    expect(res.json.data).toMatchObject({ account: 'kaipiao_clerk', mobile: '138****0002', platform: '' });
  });
});
