import { AUTH_CODE, CODE, startOfBeijingDay } from '@kaipiao/shared';
import { desc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountLogin, lastSmsCode, loginBody, sendLoginSms, wrongCode } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, encryptPassword, login, pictureCode } from '../../../test/helper.ts';
import { captchas, loginAttempts, rateCounters, sessions, smsCodes, users } from '../../db/schema/index.ts';
import { hashCode } from '../../lib/code-hash.ts';
import { MFA_TICKET_MINUTES } from './mfa-ticket.ts';
import { LOCK_AFTER_FAILURES, LOCK_MINUTES } from './repo.ts';
import { LOGIN_IP_LIMIT } from './service.ts';
import { SMS_LIMITS } from './sms-codes.ts';

/**
 * The limits of sign-in at their exact boundaries (issue 22): codes one second before and after
 * their expiry, attempts at N-1 and N, the ends of the lock and of the per-IP window. Expiries the
 * code reads from a stored row are moved in the database; the ones it reads from the clock (the
 * two-factor ticket, the per-IP window) get a fake `Date` that keeps running.
 */

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  // behind a trusted proxy, so each test can speak from an address of its own
  t = await buildTestApp({ env: { KAIPIAO_TRUST_PROXY: '127.0.0.1' } });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Fakes `Date` only (timers stay real) and stops it at `ms`, so a boundary is hit exactly. */
function clockAt(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}

const BAD_CAPTCHA = {
  code: AUTH_CODE.BAD_CAPTCHA,
  message: '图形验证码错误或已失效，请重新输入',
  data: null,
};
const BAD_SMS = { code: AUTH_CODE.BAD_SMS_CODE, message: '短信验证码错误或已失效', data: null };
const LOCKED = {
  code: AUTH_CODE.ACCOUNT_LOCKED,
  message: '密码错误次数过多，账号已锁定15分钟，请稍后再试',
  data: null,
};
const BAD_CREDENTIALS = { code: AUTH_CODE.BAD_CREDENTIALS, message: '账号或密码错误', data: null };

const attempts = async (account: string) =>
  (await t.db.select().from(loginAttempts).where(eq(loginAttempts.account, account)))[0];
const sessionCount = async (account: string) => {
  const [u] = await t.db.select().from(users).where(eq(users.account, account));
  return (await t.db.select().from(sessions).where(eq(sessions.userId, u!.id))).length;
};
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('picture codes (single use, 5 minutes)', () => {
  const expiryOf = async (uniqueCode: string) =>
    (await t.db.select().from(captchas).where(eq(captchas.uniqueCode, uniqueCode)))[0]!.expiresAt.getTime();

  it('gives each new code five minutes', async () => {
    const before = Date.now();
    const uniqueCode = await pictureCode(t.app);
    const expires = await expiryOf(uniqueCode);
    expect(expires).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
  });

  it('signs in with a code one second before its expiry', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    clockAt((await expiryOf(body.unique_code)) - 1000);
    const res = await call(t.app, 'POST', '/v3/user/account-login', { body, headers: from('198.51.100.1') });
    expect(res.json).toMatchObject({ code: 0, message: '登录成功' });
  });

  it('refuses a code one second after its expiry with 11001, before any password is tried', async () => {
    const account = DEMO.clerk.account;
    const sessionsBefore = await sessionCount(account);
    const attemptsBefore = await attempts(account);
    const body = await loginBody(t.app, account, 'Wrong@2026');
    clockAt((await expiryOf(body.unique_code)) + 1000);
    const res = await call(t.app, 'POST', '/v3/user/account-login', { body, headers: from('198.51.100.2') });
    expect(res.json).toEqual(BAD_CAPTCHA);
    // the wrong password behind the stale code was never checked: no attempt counted, no session
    expect(await attempts(account)).toEqual(attemptsBefore);
    expect(await sessionCount(account)).toBe(sessionsBefore);
  });

  it('refuses a code used once already, even with the right answer and password', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    expect((await call(t.app, 'POST', '/v3/user/account-login', { body })).json.code).toBe(0);
    const again = await call(t.app, 'POST', '/v3/user/account-login', { body });
    expect(again.json).toEqual(BAD_CAPTCHA);
    const [row] = await t.db.select().from(captchas).where(eq(captchas.uniqueCode, body.unique_code));
    expect(row!.usedAt).not.toBeNull();
  });

  it('refuses an unknown unique_code', async () => {
    const body = { ...(await loginBody(t.app, DEMO.clerk.account)), unique_code: 'no-such-code-0000' };
    expect((await call(t.app, 'POST', '/v3/user/account-login', { body })).json).toEqual(BAD_CAPTCHA);
  });

  it('reads the answer without regard to case (the picture mixes cases)', async () => {
    const body = await loginBody(t.app, DEMO.clerk.account);
    await t.db.update(captchas).set({ answer: 'k7mp' }).where(eq(captchas.uniqueCode, body.unique_code));
    const res = await call(t.app, 'POST', '/v3/user/account-login', {
      body: { ...body, picture_code: 'K7mP' },
    });
    expect(res.json.code).toBe(0);
  });

  it('guards the SMS send too: an expired code sends nothing', async () => {
    const mobile = '13900000301';
    const uniqueCode = await pictureCode(t.app);
    clockAt((await expiryOf(uniqueCode)) + 1000);
    const res = await call(t.app, 'POST', '/v3/multi-factor/reg-sms', {
      body: { mobile, picture_code: '1234', unique_code: uniqueCode },
    });
    expect(res.json).toEqual(BAD_CAPTCHA);
    expect(await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile))).toHaveLength(0);
  });
});

describe('SMS codes (6 digits, 5 minutes, 5 tries)', () => {
  const mobile = DEMO.admin.mobile;
  let ticket: string;

  beforeAll(async () => {
    const res = await accountLogin(t.app, DEMO.admin.account);
    expect(res.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
    ticket = res.json.data.mfa_ticket;
  });

  /** A fresh login code for the admin (earlier ones deleted, so the 60 s wait does not apply). */
  async function freshCode(): Promise<string> {
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, mobile));
    expect((await sendLoginSms(t.app, mobile)).json.code).toBe(0);
    return lastSmsCode(t.app, mobile);
  }
  const newest = async () =>
    (await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile)).orderBy(desc(smsCodes.id)))[0]!;
  const mfaLogin = (sms_code: string, mfa_ticket = ticket) =>
    call(t.app, 'POST', '/v3/multi-factor/login', {
      body: { account: DEMO.admin.account, mfa_ticket, mobile, sms_code },
    });

  it('keeps a sent code for five minutes', async () => {
    const before = Date.now();
    await freshCode();
    const expires = (await newest()).expiresAt.getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect(SMS_LIMITS.ttlMinutes).toBe(5);
  });

  it('signs in with a code one second before its expiry', async () => {
    const code = await freshCode();
    clockAt((await newest()).expiresAt.getTime() - 1000);
    expect((await mfaLogin(code)).json.code).toBe(0);
    expect((await newest()).usedAt).not.toBeNull();
  });

  it('refuses the right code one second after its expiry with 11006, and counts no try', async () => {
    const code = await freshCode();
    clockAt((await newest()).expiresAt.getTime() + 1000);
    expect((await mfaLogin(code)).json).toEqual(BAD_SMS);
    expect(await newest()).toMatchObject({ attempts: 0, usedAt: null });
  });

  it(`signs in with the right code after ${SMS_LIMITS.maxAttempts - 1} wrong ones`, async () => {
    const code = await freshCode();
    for (let i = 0; i < SMS_LIMITS.maxAttempts - 1; i++) {
      expect((await mfaLogin(wrongCode(code))).json).toEqual(BAD_SMS);
    }
    expect((await mfaLogin(code)).json.code).toBe(0);
    expect(await newest()).toMatchObject({ attempts: SMS_LIMITS.maxAttempts });
  });

  it(`burns the code at the ${SMS_LIMITS.maxAttempts}th wrong try: the right one is refused after it`, async () => {
    const code = await freshCode();
    for (let i = 0; i < SMS_LIMITS.maxAttempts; i++) {
      expect((await mfaLogin(wrongCode(code))).json).toEqual(BAD_SMS);
    }
    expect((await mfaLogin(code)).json).toEqual(BAD_SMS);
    expect(await newest()).toMatchObject({ attempts: SMS_LIMITS.maxAttempts, usedAt: null });
    expect(SMS_LIMITS.maxAttempts).toBe(5);
  });

  it('accepts only the newest code: an older live one sent to the same mobile is refused', async () => {
    const code = await freshCode();
    // an older code, still live, whose digits differ from the newest one's
    const older = wrongCode(code);
    await t.db.insert(smsCodes).values({
      mobile,
      purpose: 'login',
      codeHash: await hashCode(t.app.env.dataDir, mobile, older),
      createdAt: new Date(Date.now() - 30_000),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await mfaLogin(older)).json).toEqual(BAD_SMS);
    expect((await mfaLogin(code)).json.code).toBe(0);
  });

  it('does not take a code sent for another purpose (a password-change code cannot sign in)', async () => {
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, mobile));
    const token = await login(t.app, DEMO.admin.account);
    const body = { type: 'reset_password', picture_code: '1234', unique_code: await pictureCode(t.app) };
    expect((await call(t.app, 'POST', '/v3/system/send-sms', { token, body })).json.code).toBe(0);
    const code = await lastSmsCode(t.app, mobile);
    expect((await mfaLogin(code)).json).toEqual(BAD_SMS);
    expect(await newest()).toMatchObject({ purpose: 'reset_password', attempts: 0, usedAt: null });
  });

  it('waits 60 s between two codes to one mobile: refused up to 59.9 s with the second left, sent at 60 s', async () => {
    const other = '13900000302';
    expect((await sendLoginSms(t.app, other)).json.code).toBe(0);
    const [sent] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, other));
    const tooEarly = {
      code: AUTH_CODE.SMS_TOO_FREQUENT,
      message: '短信发送过于频繁，请1秒后再试',
      data: { number: 1 },
    };
    clockAt(sent!.createdAt.getTime() + 59_000);
    expect((await sendLoginSms(t.app, other)).json).toEqual(tooEarly);
    vi.setSystemTime(sent!.createdAt.getTime() + 59_900);
    expect((await sendLoginSms(t.app, other)).json).toEqual(tooEarly);
    vi.setSystemTime(sent!.createdAt.getTime() + 60_000);
    expect((await sendLoginSms(t.app, other)).json).toMatchObject({ code: 0, data: { number: 60 } });
  });

  it("counts the day's codes from midnight in Beijing: yesterday's ten do not block today's", async () => {
    const other = '13900000303';
    // 03:00 in Beijing, 19:00 UTC the day before: the two calendars name different days, so a day
    // counted in UTC, or from a midnight shifted either way, moves one of the marks below
    const midnightBj = startOfBeijingDay(new Date()).getTime();
    clockAt(midnightBj + 3 * 3600_000);
    const insert = (at: number, n: number) =>
      t.db.insert(smsCodes).values(
        Array.from({ length: n }, () => ({
          mobile: other,
          purpose: 'login',
          codeHash: 'h1$x$y',
          ip: '198.51.100.30',
          createdAt: new Date(at),
          expiresAt: new Date(at + 5 * 60_000),
        })),
      );
    // ten codes one minute before midnight (Beijing): yesterday's, today's cap is untouched
    await insert(midnightBj - 60_000, SMS_LIMITS.perMobilePerDay);
    expect((await sendLoginSms(t.app, other)).json.code).toBe(0);
    // the code just sent is stamped by PostgreSQL's clock: put it at 00:02 of the stopped day
    await t.db
      .update(smsCodes)
      .set({ createdAt: new Date(midnightBj + 120_000) })
      .where(sql`${smsCodes.mobile} = ${other} and ${smsCodes.createdAt} > ${new Date(midnightBj)}`);
    // nine more one minute after midnight: with that one, today's ten are used up
    await insert(midnightBj + 60_000, SMS_LIMITS.perMobilePerDay - 1);
    expect((await sendLoginSms(t.app, other)).json).toEqual({
      code: AUTH_CODE.SMS_DAILY_CAP,
      message: '今日短信发送次数已达上限，请明天再试',
      data: null,
    });
  });
});

describe('two-factor ticket (10 minutes after the password)', () => {
  const mobile = DEMO.admin.mobile;
  const expired = {
    code: AUTH_CODE.MFA_TICKET_INVALID,
    message: '手机验证已超时，请关闭对话框，重新输入账号、密码和图形验证码登录',
    data: null,
  };

  /** A ticket issued at `at`, and a login code that is still live ten minutes later. */
  async function ticketAndCode(at: number) {
    clockAt(at);
    const res = await accountLogin(t.app, DEMO.admin.account);
    expect(res.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, mobile));
    expect((await sendLoginSms(t.app, mobile)).json.code).toBe(0);
    await t.db
      .update(smsCodes)
      .set({ expiresAt: new Date(at + 3_600_000) })
      .where(eq(smsCodes.mobile, mobile));
    return { ticket: res.json.data.mfa_ticket as string, code: await lastSmsCode(t.app, mobile) };
  }
  const mfaLogin = (mfa_ticket: string, sms_code: string) =>
    call(t.app, 'POST', '/v3/multi-factor/login', {
      body: { account: DEMO.admin.account, mfa_ticket, mobile, sms_code },
    });

  it('signs in with a ticket one second before its ten minutes are up', async () => {
    const start = Date.now();
    const { ticket, code } = await ticketAndCode(start);
    vi.setSystemTime(start + MFA_TICKET_MINUTES * 60_000 - 1000);
    expect((await mfaLogin(ticket, code)).json.code).toBe(0);
  });

  it('refuses it one second after (11018), with the right SMS code, and leaves the code untried', async () => {
    const start = Date.now();
    const { ticket, code } = await ticketAndCode(start);
    vi.setSystemTime(start + MFA_TICKET_MINUTES * 60_000 + 1000);
    expect((await mfaLogin(ticket, code)).json).toEqual(expired);
    const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile));
    expect(row).toMatchObject({ attempts: 0, usedAt: null });
    expect(MFA_TICKET_MINUTES).toBe(10);
  });

  it('is void once the password changes (the ticket is bound to the password hash)', async () => {
    const { ticket, code } = await ticketAndCode(Date.now());
    const [admin] = await t.db.select().from(users).where(eq(users.account, DEMO.admin.account));
    await t.db
      .update(users)
      .set({ passwordHash: `${admin!.passwordHash}x` })
      .where(eq(users.id, admin!.id));
    try {
      expect((await mfaLogin(ticket, code)).json).toEqual(expired);
    } finally {
      await t.db.update(users).set({ passwordHash: admin!.passwordHash }).where(eq(users.id, admin!.id));
    }
  });
});

describe(`account lock (${LOCK_AFTER_FAILURES} failures in a row, ${LOCK_MINUTES} minutes)`, () => {
  const account = DEMO.clerk.account;
  const send = async (body: object) =>
    (await call(t.app, 'POST', '/v3/user/account-login', { body, headers: from('198.51.100.40') })).json;
  const tryLogin = async (password: string) => send(await loginBody(t.app, account, password));
  /** Moves the lock's end relative to PostgreSQL's clock (which ends it), the body made beforehand. */
  const lockEndsIn = (interval: string) =>
    t.db
      .update(loginAttempts)
      .set({ lockedUntil: sql`now() + ${interval}::interval` })
      .where(eq(loginAttempts.account, account));

  it(`signs in with the right password after ${LOCK_AFTER_FAILURES - 1} wrong ones, and starts the count again`, async () => {
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, account));
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++)
      expect(await tryLogin(`Wrong@${i}a`)).toEqual(BAD_CREDENTIALS);
    expect(await attempts(account)).toMatchObject({ failures: LOCK_AFTER_FAILURES - 1, lockedUntil: null });
    expect((await tryLogin(DEMO.password)).code).toBe(0);
    expect(await attempts(account)).toBeUndefined();
    // a fresh count: another four wrong ones still do not lock
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++)
      expect(await tryLogin(`Wrong@${i}b`)).toEqual(BAD_CREDENTIALS);
    expect((await tryLogin(DEMO.password)).code).toBe(0);
  });

  it(`locks at the ${LOCK_AFTER_FAILURES}th wrong password for ${LOCK_MINUTES} minutes`, async () => {
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, account));
    const answers = [];
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) answers.push(await tryLogin(`Wrong@${i}c`));
    expect(answers).toEqual([...Array(LOCK_AFTER_FAILURES - 1).fill(BAD_CREDENTIALS), LOCKED]);
    const row = (await attempts(account))!;
    expect(row.failures).toBe(LOCK_AFTER_FAILURES);
    const left = row.lockedUntil!.getTime() - Date.now();
    expect(left).toBeGreaterThan(LOCK_MINUTES * 60_000 - 30_000);
    expect(left).toBeLessThanOrEqual(LOCK_MINUTES * 60_000 + 30_000);
    expect([LOCK_AFTER_FAILURES, LOCK_MINUTES]).toEqual([5, 15]);
  });

  it('refuses the right password one second before the lock ends, without counting it', async () => {
    const body = await loginBody(t.app, account);
    await lockEndsIn('1 second');
    const before = (await attempts(account))!;
    expect(await send(body)).toEqual(LOCKED);
    const after = (await attempts(account))!;
    expect(after.failures).toBe(before.failures);
    expect(after.lockedUntil!.getTime()).toBe(before.lockedUntil!.getTime());
  });

  it('signs in with the right password one second after the lock ended, and clears the count', async () => {
    await lockEndsIn('-1 second');
    expect((await tryLogin(DEMO.password)).code).toBe(0);
    expect(await attempts(account)).toBeUndefined();
  });

  it('gives a lapsed lock one fresh count: the next failure is the first, not a new lock', async () => {
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, account));
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) await tryLogin(`Wrong@${i}d`);
    await lockEndsIn('-1 second');
    expect(await tryLogin('Wrong@again')).toEqual(BAD_CREDENTIALS);
    expect(await attempts(account)).toMatchObject({ failures: 1, lockedUntil: null });
    await t.db.delete(loginAttempts).where(eq(loginAttempts.account, account));
  });
});

describe(`per-IP failures (${LOGIN_IP_LIMIT.failures} per fixed ${LOGIN_IP_LIMIT.windowSeconds / 60}-minute window)`, () => {
  const windowMs = LOGIN_IP_LIMIT.windowSeconds * 1000;
  /**
   * One minute into a window that starts on the hour (the clock stopped there, so no request
   * straddles a window's end; on the hour, so a window twice as long would not end with it).
   */
  const intoWindow = () => {
    const now = Date.now();
    const start = now - (now % 3_600_000) + 3_600_000;
    clockAt(start + 60_000);
    return start;
  };

  /** `n` failed logins from `ip`, each on a name of its own (no account lock in the way). */
  async function failures(ip: string, n: number, tag: string) {
    const password = await encryptPassword(t.app, 'Wrong@2026');
    for (let i = 0; i < n; i++) {
      const body = {
        account: `ipfail_${tag}_${i}`,
        password,
        picture_code: '1234',
        unique_code: await pictureCode(t.app),
      };
      const res = await call(t.app, 'POST', '/v3/user/account-login', { body, headers: from(ip) });
      expect(res.json).toEqual(BAD_CREDENTIALS);
    }
  }
  const rightLogin = async (ip: string) =>
    (
      await call(t.app, 'POST', '/v3/user/account-login', {
        body: await loginBody(t.app, DEMO.clerk.account),
        headers: from(ip),
      })
    ).json;
  const hits = async (ip: string) =>
    (
      await t.db
        .select()
        .from(rateCounters)
        .where(eq(rateCounters.key, `login-fail:${ip}`))
    ).map((r) => r.hits);

  it(`answers the ${LOGIN_IP_LIMIT.failures}th failure and refuses the next attempt with 10029; a right password does not count`, {
    timeout: 60_000,
  }, async () => {
    intoWindow();
    const ip = '203.0.113.120';
    await failures(ip, LOGIN_IP_LIMIT.failures - 1, 'a');
    // a right password does not count: it gives its reservation back
    expect((await rightLogin(ip)).code).toBe(0);
    expect(await hits(ip)).toEqual([LOGIN_IP_LIMIT.failures - 1]);
    await failures(ip, 1, 'b');
    expect(await hits(ip)).toEqual([LOGIN_IP_LIMIT.failures]);
    expect(await rightLogin(ip)).toEqual({
      code: CODE.RATE_LIMITED,
      message: '操作过于频繁，请稍后再试',
      data: null,
    });
    expect(LOGIN_IP_LIMIT).toEqual({ failures: 50, windowSeconds: 900 });
  });

  it('lets the address in again once its window has ended', { timeout: 60_000 }, async () => {
    const start = intoWindow();
    const ip = '203.0.113.121';
    await failures(ip, LOGIN_IP_LIMIT.failures, 'c');
    expect((await rightLogin(ip)).code).toBe(CODE.RATE_LIMITED);
    const [row] = await t.db
      .select()
      .from(rateCounters)
      .where(eq(rateCounters.key, `login-fail:${ip}`));
    expect(row!.windowStart.getTime()).toBe(start);
    // one second before the window ends: still refused
    const end = start + windowMs;
    vi.setSystemTime(end - 1000);
    expect((await rightLogin(ip)).code).toBe(CODE.RATE_LIMITED);
    vi.setSystemTime(end + 1000);
    expect((await rightLogin(ip)).code).toBe(0);
  });
});
