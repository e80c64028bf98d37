import { AUTH_CODE } from '@kaipiao/shared';
import { desc, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountLogin, lastSmsCode, sendLoginSms } from '../../../test/auth-helpers.ts';
import { testClock } from '../../../test/clock.ts';
import { buildTestApp, call, DEMO, login, pictureCode } from '../../../test/helper.ts';
import { holdLock } from '../../../test/race.ts';
import { smsCodes } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { SMS_LIMITS } from './sms-codes.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
// the resend wait and the daily caps are read on the app's clock: their tests stand it still
const clock = testClock();
beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterEach(() => clock.release());

// a day of its own (ahead of the real one): the day's caps count only this test's codes
const BEIJING_NOON = '2030-06-03T04:00:00Z'; // 12:00 on 2030-06-03 in Beijing

describe('POST /v3/multi-factor/reg-sms', () => {
  it('sends a 6-digit code through the sandbox gateway to the outbox', async () => {
    const res = await sendLoginSms(t.app, '13900000011');
    expect(res.json).toEqual({
      code: 0,
      message: '短信验证码已发送到您的手机，请注意查收',
      data: { number: 60 },
    });
    expect(await lastSmsCode(t.app, '13900000011')).toMatch(/^\d{6}$/);
    const sent = (await call(t.app, 'GET', '/v3/dev/outbox?to=13900000011&limit=1')).json.data[0];
    expect(sent.content).toBe(
      `【开票台】您的登录验证码为${sent.code}，${SMS_LIMITS.ttlMinutes}分钟内有效，请勿泄露给他人。`,
    );
  });

  it('refuses a resend inside 60 s with the seconds left in data.number, and sends at 60 s', async () => {
    clock.set(BEIJING_NOON);
    expect((await sendLoginSms(t.app, '13900000012')).json.code).toBe(0);
    const again = await sendLoginSms(t.app, '13900000012');
    expect(again.json).toEqual({
      code: AUTH_CODE.SMS_TOO_FREQUENT,
      message: '短信发送过于频繁，请60秒后再试',
      data: { number: 60 },
    });
    clock.advance(59_999);
    const last = await sendLoginSms(t.app, '13900000012');
    expect(last.json).toMatchObject({ code: AUTH_CODE.SMS_TOO_FREQUENT, data: { number: 1 } });
    expect(last.json.message).toBe('短信发送过于频繁，请1秒后再试');
    clock.advance(1);
    expect((await sendLoginSms(t.app, '13900000012')).json.code).toBe(0);
  });

  it(`refuses the ${SMS_LIMITS.perMobilePerDay + 1}th code of a Beijing day to one mobile, and sends the next day`, async () => {
    const mobile = '13900000014';
    clock.set('2030-06-03T15:40:00Z'); // 23:40 in Beijing: ten codes a minute apart fit in the day
    for (let i = 0; i < SMS_LIMITS.perMobilePerDay; i++) {
      expect((await sendLoginSms(t.app, mobile)).json.code, `code ${i + 1}`).toBe(0);
      clock.advance(61_000);
    }
    const capped = await sendLoginSms(t.app, mobile);
    expect(capped.json).toMatchObject({
      code: AUTH_CODE.SMS_DAILY_CAP,
      message: '今日短信发送次数已达上限，请明天再试',
    });
    clock.set('2030-06-03T15:59:59.999Z'); // the day's last millisecond
    expect((await sendLoginSms(t.app, mobile)).json.code).toBe(AUTH_CODE.SMS_DAILY_CAP);
    clock.advance(1); // 00:00 on 2030-06-04 in Beijing
    expect((await sendLoginSms(t.app, mobile)).json.code).toBe(0);
  });

  it('lets only one of two simultaneous sends through', async () => {
    const results = await Promise.all([
      sendLoginSms(t.app, '13900000015'),
      sendLoginSms(t.app, '13900000015'),
    ]);
    expect(results.map((r) => r.json.code).sort()).toEqual([0, AUTH_CODE.SMS_TOO_FREQUENT]);
  });

  it('does not start the wait when the gateway refuses the message', async () => {
    const mobile = '19999999999'; // the sandbox gateway rejects this recipient
    const failed = await sendLoginSms(t.app, mobile);
    expect(failed.json).toMatchObject({
      code: AUTH_CODE.SMS_SEND_FAILED,
      message: '短信发送失败，请稍后重试',
    });
    const again = await sendLoginSms(t.app, mobile);
    expect(again.json.code).toBe(AUTH_CODE.SMS_SEND_FAILED);
    expect(await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile))).toHaveLength(0);
  });

  it('sends nothing when the picture code is wrong', async () => {
    const body = { mobile: '13900000016', picture_code: 'abcd', unique_code: await pictureCode(t.app) };
    const res = await call(t.app, 'POST', '/v3/multi-factor/reg-sms', { body });
    expect(res.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
    expect(await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, '13900000016'))).toHaveLength(0);
  });

  it('refuses a malformed mobile with the spec message', async () => {
    const body = { mobile: '2390000001', picture_code: '1234', unique_code: await pictureCode(t.app) };
    const res = await call(t.app, 'POST', '/v3/multi-factor/reg-sms', { body });
    expect(res.json).toMatchObject({ code: 10001, message: '必填，请输入正确的手机号' });
  });
});

describe('SMS limits under bursts and codes at rest (issue 21)', () => {
  it(`sends no more than ${SMS_LIMITS.perIpPerDay} codes a day from one IP, even in parallel`, {
    timeout: 60_000,
  }, async () => {
    clock.set(BEIJING_NOON);
    const proxied = await buildTestApp({ env: { KAIPIAO_TRUST_PROXY: '127.0.0.1' }, clock });
    const headers = { 'x-forwarded-for': '203.0.113.80' };
    const n = SMS_LIMITS.perIpPerDay + 10;
    const prepared = await Promise.all(
      Array.from({ length: n }, async (_, i) => ({
        mobile: `137${String(i).padStart(8, '0')}`,
        picture_code: '1234',
        unique_code: await pictureCode(proxied.app),
      })),
    );
    const codes = (
      await Promise.all(
        prepared.map((body) => call(proxied.app, 'POST', '/v3/multi-factor/reg-sms', { body, headers })),
      )
    ).map((r) => r.json.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(SMS_LIMITS.perIpPerDay);
    expect(codes.filter((c) => c === AUTH_CODE.SMS_DAILY_CAP)).toHaveLength(10);
  });

  it('compares no more than 5 guesses of one code, even sent in parallel', async () => {
    const mfa = await accountLogin(t.app, DEMO.admin.account);
    const mfa_ticket = mfa.json.data.mfa_ticket;
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    const guess = (sms_code: string) =>
      call(t.app, 'POST', '/v3/multi-factor/login', {
        body: { account: DEMO.admin.account, mfa_ticket, mobile: DEMO.admin.mobile, sms_code },
      });
    const guesses = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const codes = (await Promise.all(guesses.map(guess))).map((r) => r.json.code);
    expect(codes).toEqual(Array(20).fill(AUTH_CODE.BAD_SMS_CODE));
    const [row] = await t.db
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.mobile, DEMO.admin.mobile))
      .orderBy(desc(smsCodes.id))
      .limit(1);
    expect(row!.attempts).toBe(SMS_LIMITS.maxAttempts);
    // burnt: the right code no longer works
    expect((await guess(code)).json.code).toBe(AUTH_CODE.BAD_SMS_CODE);
  });

  it('lets one right code sign in once when two dialogs send it at the same moment', async () => {
    const mfa_ticket = (await accountLogin(t.app, DEMO.admin.account)).json.data.mfa_ticket;
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    // both requests queue on the code's row, then read it unused: only the claim of usedAt decides
    const held = await holdLock(t.url, 'select id from sms_codes where id = $1 for update', [row!.id]);
    const both = [1, 2].map(() =>
      call(t.app, 'POST', '/v3/multi-factor/login', {
        body: { account: DEMO.admin.account, mfa_ticket, mobile: DEMO.admin.mobile, sms_code: code },
      }),
    );
    await held.waiters(2);
    await held.release();
    const codes = (await Promise.all(both)).map((r) => r.json.code).sort();
    expect(codes).toEqual([0, AUTH_CODE.BAD_SMS_CODE]);
  });

  it('compares no more than 5 guesses sent in parallel through the partner sign-on check too', async () => {
    const issued = await call(t.app, 'POST', '/v3/dev/sso/issue', {
      body: { account: DEMO.admin.account, app_id: '1003' },
    });
    const ticket = issued.json.data.ticket;
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    const guesses = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const codes = (
      await Promise.all(
        guesses.map((sms_captcha) =>
          call(t.app, 'POST', '/v3/multi-factor/verify-secure-id-mobile', {
            body: { ticket, app_id: '1003', mobile: DEMO.admin.mobile, sms_captcha },
          }),
        ),
      )
    ).map((r) => r.json.code);
    expect(codes).toEqual(Array(20).fill(AUTH_CODE.BAD_SMS_CODE));
    const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect(row!.attempts).toBe(SMS_LIMITS.maxAttempts);
  });

  it('keeps each code as a salted HMAC, never as sha256(mobile:code)', async () => {
    const mobiles = ['13900000021', '13900000022'];
    const stored = [];
    for (const mobile of mobiles) {
      expect((await sendLoginSms(t.app, mobile)).json.code).toBe(0);
      const code = await lastSmsCode(t.app, mobile);
      const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile));
      expect(row!.codeHash).toMatch(/^h1\$[\w-]{22}\$[\w-]{43}$/);
      expect(row!.codeHash).not.toContain(sha256(`${mobile}:${code}`));
      expect(row!.codeHash).not.toContain(code);
      stored.push(row!.codeHash.split('$')[1]);
    }
    expect(stored[0]).not.toBe(stored[1]);
  });
});

describe('POST /v3/system/send-sms', () => {
  it("sends a password code to the signed-in user's own mobile", async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const body = { type: 'reset_password', picture_code: '1234', unique_code: await pictureCode(t.app) };
    const res = await call(t.app, 'POST', '/v3/system/send-sms', { token, body });
    expect(res.json.code).toBe(0);
    const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, DEMO.clerk.mobile));
    expect(row!.purpose).toBe('reset_password');
  });
});

describe('GET /v3/dev/outbox', () => {
  it('lists the recent SMS with recipient, content, code and time', async () => {
    const res = await call(t.app, 'GET', '/v3/dev/outbox?to=13900000011');
    expect(res.json.data[0]).toMatchObject({
      channel: 'sms',
      to: '13900000011',
      code: expect.stringMatching(/^\d{6}$/),
    });
    expect(res.json.data[0].content).toContain(res.json.data[0].code);
  });
});
