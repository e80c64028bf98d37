import { AUTH_CODE, SESSION_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountLogin, lastSmsCode, sendLoginSms } from '../../../test/auth-helpers.ts';
import {
  buildTestApp,
  call,
  DEMO,
  demoIds,
  encryptPassword,
  login,
  pictureCode,
} from '../../../test/helper.ts';
import { sessions, smsCodes, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';

/**
 * Who may sign in (issue 22): a disabled account is refused by every entry — password, the phone
 * check after it, partner sign-on, the login QR, the work app — and a session it already holds
 * ends. Also what a new session says about its user, and the signed-in user's own account calls.
 */

let t: Awaited<ReturnType<typeof buildTestApp>>;
let ids: { software: number };
beforeAll(async () => {
  t = await buildTestApp();
  ids = await demoIds(t.app, await login(t.app, DEMO.clerk.account));
});

afterEach(() => {
  vi.useRealTimers();
  // entries cached under a moved clock must not outlive the test
  t.app.accessService.forgetAll();
});

const DISABLED = { code: AUTH_CODE.ACCOUNT_DISABLED, message: '账号已停用，请联系管理员', data: null };
const UNAUTHORIZED = { code: 401, message: '登录已失效，请重新登录', data: null };

const userOf = async (account: string) =>
  (await t.db.select().from(users).where(eq(users.account, account)))[0]!;
const setStatus = async (account: string, status: 'active' | 'disabled') =>
  t.db.update(users).set({ status }).where(eq(users.account, account));
const sessionsOf = async (account: string) =>
  (
    await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, (await userOf(account)).id))
  ).length;

/** Runs `fn` with `account` disabled, and enables it again whatever happens. */
async function whileDisabled(account: string, fn: () => Promise<void>) {
  await setStatus(account, 'disabled');
  try {
    await fn();
  } finally {
    await setStatus(account, 'active');
  }
}

describe('a disabled account signs in by no entry (11015 账号已停用，请联系管理员)', () => {
  it('password login: the right password is refused and no session is made; enabled again, it signs in', async () => {
    const before = await sessionsOf(DEMO.clerk.account);
    await whileDisabled(DEMO.clerk.account, async () => {
      expect((await accountLogin(t.app, DEMO.clerk.account)).json).toEqual(DISABLED);
      expect(await sessionsOf(DEMO.clerk.account)).toBe(before);
    });
    expect((await accountLogin(t.app, DEMO.clerk.account)).json.code).toBe(0);
  });

  it('password login: a wrong password tells nothing of the status', async () => {
    await whileDisabled(DEMO.clerk.account, async () => {
      const res = await accountLogin(t.app, DEMO.clerk.account, 'Wrong@2026');
      expect(res.json).toEqual({ code: AUTH_CODE.BAD_CREDENTIALS, message: '账号或密码错误', data: null });
    });
  });

  it('two-factor account: refused after the password, with no ticket for the phone dialog', async () => {
    await whileDisabled(DEMO.admin.account, async () => {
      expect((await accountLogin(t.app, DEMO.admin.account)).json).toEqual(DISABLED);
    });
  });

  it('phone check: a ticket given before the account was disabled no longer signs in, and the code is not tried', async () => {
    const res = await accountLogin(t.app, DEMO.admin.account);
    expect(res.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    const before = await sessionsOf(DEMO.admin.account);
    await whileDisabled(DEMO.admin.account, async () => {
      const mfa = await call(t.app, 'POST', '/v3/multi-factor/login', {
        body: {
          account: DEMO.admin.account,
          mfa_ticket: res.json.data.mfa_ticket,
          mobile: DEMO.admin.mobile,
          sms_code: code,
        },
      });
      expect(mfa.json).toEqual(DISABLED);
    });
    const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect(row).toMatchObject({ attempts: 0, usedAt: null });
    expect(await sessionsOf(DEMO.admin.account)).toBe(before);
  });

  const ssoTicket = async (account: string, app_id = '1003') =>
    (await call(t.app, 'POST', '/v3/dev/sso/issue', { body: { account, kind: 'ticket', app_id } })).json.data
      .ticket as string;

  it('partner sign-on: refused, and the ticket stays unused for when the account is enabled again', async () => {
    const ticket = await ssoTicket(DEMO.clerk.account);
    await whileDisabled(DEMO.clerk.account, async () => {
      const res = await call(t.app, 'POST', '/v3/multi-factor/check-secure-id', {
        body: { ticket, app_id: '1003' },
      });
      expect(res.json).toEqual(DISABLED);
    });
    const later = await call(t.app, 'POST', '/v3/multi-factor/check-secure-id', {
      body: { ticket, app_id: '1003' },
    });
    expect(later.json.data).toMatchObject({ auth_status: 1, source: '1003' });
  });

  it("partner sign-on's phone check: refused with the right code, which is not tried", async () => {
    const ticket = await ssoTicket(DEMO.admin.account, '1014');
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    await whileDisabled(DEMO.admin.account, async () => {
      const res = await call(t.app, 'POST', '/v3/multi-factor/verify-secure-id-mobile', {
        body: { ticket, app_id: '1014', mobile: DEMO.admin.mobile, sms_captcha: code },
      });
      expect(res.json).toEqual(DISABLED);
    });
    const [row] = await t.db.select().from(smsCodes).where(eq(smsCodes.mobile, DEMO.admin.mobile));
    expect(row).toMatchObject({ attempts: 0, usedAt: null });
  });

  it('login QR: a QR confirmed on the phone gives no session once the account is disabled', async () => {
    const { qr_id } = (await call(t.app, 'GET', '/v3/user/qr-code')).json.data;
    const confirm = await call(t.app, 'POST', '/v3/dev/qr-confirm', {
      body: { qr_id, account: DEMO.clerk.account, step: 'confirm' },
    });
    expect(confirm.json.data).toEqual({ status: 'confirmed' });
    const before = await sessionsOf(DEMO.clerk.account);
    await whileDisabled(DEMO.clerk.account, async () => {
      const res = await call(t.app, 'GET', `/v3/user/get-login-status?qr_id=${qr_id}`);
      expect(res.json).toMatchObject({ code: 0, data: { status: 'expired' } });
      expect(res.json.data.token).toBeUndefined();
    });
    expect(await sessionsOf(DEMO.clerk.account)).toBe(before);
  });

  it('work app (WeCom): a bound member of a disabled account gets no token', async () => {
    const issueCode = async () =>
      (
        await call(t.app, 'POST', '/v3/dev/wecom/issue-code', {
          body: { corp_id: DEMO.wecom.corpId, qw_user_id: DEMO.wecom.clerk },
        })
      ).json.data.code as string;
    const lookUp = async (code: string) =>
      call(t.app, 'POST', '/v3/enterprise-we-chat/get-qwuserid-and-corpid', { body: { code } });
    const before = await sessionsOf(DEMO.clerk.account);
    await whileDisabled(DEMO.clerk.account, async () => {
      const res = await lookUp(await issueCode());
      expect(res.json.data).toEqual({
        corp_id: DEMO.wecom.corpId,
        qw_user_id: DEMO.wecom.clerk,
        is_register: 1,
        role: 2,
      });
    });
    expect(await sessionsOf(DEMO.clerk.account)).toBe(before);
    expect((await lookUp(await issueCode())).json.data.token).toEqual(expect.any(String));
  });

  it('a session held when the account is disabled ends within the session cache (10 s): 401', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const menu = `/v3/authority/menu-list?client_id=${ids.software}&sid=-1`;
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json.code).toBe(0);
    expect((await call(t.app, 'GET', menu, { token })).json.code).toBe(0);
    await whileDisabled(DEMO.clerk.account, async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 10_001);
      expect((await call(t.app, 'GET', '/v3/user/info', { token })).json).toEqual(UNAUTHORIZED);
      expect((await call(t.app, 'GET', menu, { token })).json).toEqual(UNAUTHORIZED);
      vi.useRealTimers();
    });
  });
});

describe('the session a login issues', () => {
  it('lasts two hours (spec §3 token about 2 hours) and stores only the hash of its token', async () => {
    const before = Date.now();
    const res = await accountLogin(t.app, DEMO.clerk.account);
    expect(res.json.data.expires_in).toBe(7200);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(res.json.data.token)));
    expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 7200_000);
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7200_000);
    expect(row).toMatchObject({ userId: (await userOf(DEMO.clerk.account)).id, source: '', platform: '' });
  });

  it('says password_expired 1 once the password is over 90 days old (spec §9), 0 a day before', async () => {
    const at = async (days: number) => {
      await t.db
        .update(users)
        .set({ passwordChangedAt: new Date(Date.now() - days * 86_400_000) })
        .where(eq(users.account, DEMO.clerk.account));
      return (await accountLogin(t.app, DEMO.clerk.account)).json.data.user.password_expired;
    };
    try {
      expect(await at(89)).toBe(0);
      expect(await at(91)).toBe(1);
    } finally {
      await t.db
        .update(users)
        .set({ passwordChangedAt: new Date() })
        .where(eq(users.account, DEMO.clerk.account));
    }
  });

  it('says is_weak_password from the stored flag, and masks the mobile (first 3 and last 4)', async () => {
    await t.db.update(users).set({ isWeakPassword: true }).where(eq(users.account, DEMO.clerk.account));
    try {
      const user = (await accountLogin(t.app, DEMO.clerk.account)).json.data.user;
      expect(user).toMatchObject({
        is_weak_password: 1,
        mobile: '138****0002',
        plain_mobile: DEMO.clerk.mobile,
        nickname: DEMO.clerk.nickname,
      });
    } finally {
      await t.db.update(users).set({ isWeakPassword: false }).where(eq(users.account, DEMO.clerk.account));
    }
    expect((await accountLogin(t.app, DEMO.clerk.account)).json.data.user.is_weak_password).toBe(0);
  });
});

describe("the signed-in user's own account", () => {
  const sendSms = async (token: string, body: object) =>
    call(t.app, 'POST', '/v3/system/send-sms', {
      token,
      body: { picture_code: '1234', unique_code: await pictureCode(t.app), ...body },
    });
  const codesTo = async (mobile: string) => t.db.select().from(smsCodes).where(eq(smsCodes.mobile, mobile));

  it('sends a password-change code to her own mobile, whatever mobile the request names', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, DEMO.clerk.mobile));
    const res = await sendSms(token, { type: 'reset_password', mobile: '13900000401' });
    expect(res.json).toEqual({
      code: 0,
      message: '短信验证码已发送到您的手机，请注意查收',
      data: { number: 60 },
    });
    expect(await codesTo('13900000401')).toHaveLength(0);
    expect((await codesTo(DEMO.clerk.mobile)).map((r) => r.purpose)).toEqual(['reset_password']);
  });

  it('sends a binding code to the new mobile it names', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    expect((await sendSms(token, { type: 'bind_mobile', mobile: '13900000402' })).json.code).toBe(0);
    expect((await codesTo('13900000402')).map((r) => r.purpose)).toEqual(['bind_mobile']);
  });

  it('sends nothing with a wrong picture code', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const res = await call(t.app, 'POST', '/v3/system/send-sms', {
      token,
      body: {
        type: 'bind_mobile',
        mobile: '13900000403',
        picture_code: 'zzzz',
        unique_code: await pictureCode(t.app),
      },
    });
    expect(res.json.code).toBe(AUTH_CODE.BAD_CAPTCHA);
    expect(await codesTo('13900000403')).toHaveLength(0);
  });

  it('refuses a login code for a password change (each code serves its own purpose)', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    await t.db.delete(smsCodes).where(eq(smsCodes.mobile, DEMO.clerk.mobile));
    expect((await sendLoginSms(t.app, DEMO.clerk.mobile)).json.code).toBe(0);
    const res = await call(t.app, 'POST', '/v3/user/reset-password', {
      token,
      body: {
        mobile_code: await lastSmsCode(t.app, DEMO.clerk.mobile),
        new_password: await encryptPassword(t.app, 'Newpass#2026'),
        password_confirm: await encryptPassword(t.app, 'Newpass#2026'),
      },
    });
    expect(res.json).toEqual({ code: AUTH_CODE.BAD_SMS_CODE, message: '短信验证码错误或已失效', data: null });
    expect((await accountLogin(t.app, DEMO.clerk.account)).json.code).toBe(0);
  });

  it('GET logout with the cookie alone keeps the session (12006); with the header it ends only that one', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    const other = await login(t.app, DEMO.clerk.account);
    const byCookie = await t.app.inject({
      method: 'GET',
      url: '/v3/user/logout',
      cookies: { kp_token: token },
    });
    expect(byCookie.json()).toMatchObject({ code: SESSION_CODE.LOGOUT_NEEDS_POST, data: null });
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json.code).toBe(0);

    expect((await call(t.app, 'GET', '/v3/user/logout', { token })).json).toMatchObject({ code: 0 });
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json).toEqual(UNAUTHORIZED);
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, sha256(token))),
    ).toHaveLength(0);
    expect((await call(t.app, 'GET', '/v3/user/info', { token: other })).json.code).toBe(0);
  });

  it('POST logout ends the session at once, though it was cached a moment before', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json.code).toBe(0);
    expect((await call(t.app, 'POST', '/v3/user/logout', { token })).json.code).toBe(0);
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json).toEqual(UNAUTHORIZED);
  });
});
