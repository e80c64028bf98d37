import { AUTH_CODE, CODE } from '@kaipiao/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountLogin, lastSmsCode, sendLoginSms, wrongCode } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, encryptPassword } from '../../../test/helper.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp();
});

const check = (account: string, secure_id?: string) =>
  call(t.app, 'POST', '/v3/multi-factor/check', { body: { account, secure_id } });

/** The ticket account-login hands out with 11007 after the admin's password and picture code. */
async function ticket(): Promise<string> {
  const res = await accountLogin(t.app, DEMO.admin.account);
  expect(res.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
  return res.json.data.mfa_ticket;
}

const mfaLogin = async (
  mobile: string,
  sms_code: string,
  mfa_ticket: string,
  account: string = DEMO.admin.account,
) => call(t.app, 'POST', '/v3/multi-factor/login', { body: { account, mfa_ticket, mobile, sms_code } });

describe('POST /v3/multi-factor/check', () => {
  it('answers an anonymous caller the same for a two-factor account, a plain one and an unknown one (L4)', async () => {
    const admin = await check(DEMO.admin.account);
    expect(admin.json).toEqual({ code: 0, message: 'ok', data: { need_verify: 0 } });
    expect((await check(DEMO.clerk.account)).json).toEqual(admin.json);
    expect((await check('nobody_here_2026')).json).toEqual(admin.json);
    expect((await check(DEMO.admin.account, 'made-up-device')).json).toEqual(admin.json);
  });
});

describe('POST /v3/multi-factor/login', () => {
  it('refuses the admin on POST /v3/user/account-login with 11007 and a ticket for the phone dialog', async () => {
    const res = await accountLogin(t.app, DEMO.admin.account);
    expect(res.json).toEqual({
      code: AUTH_CODE.MFA_REQUIRED,
      message: '为了您的账号安全，请先完成手机验证',
      data: {
        mfa_ticket: expect.stringMatching(/^\d+\.\d+\.[\w-]+\.[\w-]+$/),
        mobile: `${DEMO.admin.mobile.slice(0, 3)}****${DEMO.admin.mobile.slice(7)}`,
      },
    });
  });

  it('gives no ticket for a wrong password', async () => {
    const res = await accountLogin(t.app, DEMO.admin.account, 'Wrong@2026');
    expect(res.json).toEqual({ code: AUTH_CODE.BAD_CREDENTIALS, message: '账号或密码错误', data: null });
  });

  it('checks no password (N1): a right and a wrong one without a ticket get the same answer', async () => {
    const asBefore = async (password: string, account: string = DEMO.admin.account) =>
      (
        await call(t.app, 'POST', '/v3/multi-factor/login', {
          body: {
            account,
            password: await encryptPassword(t.app, password),
            mobile: '13900000099',
            sms_code: '123456',
          },
        })
      ).json;
    const right = await asBefore(DEMO.password);
    expect(right.code).toBe(CODE.VALIDATION);
    expect(await asBefore('Wrong@2026')).toEqual(right);
    expect(await asBefore(DEMO.password, 'nobody_here_2026')).toEqual(right);
  });

  it('refuses a forged, foreign or expired ticket with the same answer for known and unknown accounts', async () => {
    const real = await ticket();
    const [id, , nonce, sig] = real.split('.');
    const invalid = {
      code: AUTH_CODE.MFA_TICKET_INVALID,
      message: '手机验证已超时，请关闭对话框，重新输入账号、密码和图形验证码登录',
      data: null,
    };
    const forged = `${id}.${Date.now() + 3_600_000}.${nonce}.${sig}`;
    const expired = `${id}.${Date.now() - 1000}.${nonce}.${sig}`;
    for (const [account, mfa_ticket] of [
      [DEMO.admin.account, forged],
      [DEMO.admin.account, expired],
      [DEMO.admin.account, 'garbage'],
      [DEMO.clerk.account, real],
      ['nobody_here_2026', real],
    ] as const) {
      expect((await mfaLogin(DEMO.admin.mobile, '123456', mfa_ticket, account)).json).toEqual(invalid);
    }
  });

  it('refuses a mobile that is not the account’s own', async () => {
    const res = await mfaLogin(DEMO.clerk.mobile, '123456', await ticket());
    expect(res.json.code).toBe(AUTH_CODE.MOBILE_MISMATCH);
  });

  it('signs in with the SMS code from the outbox and trusts the device via secure_id', async () => {
    const mfaTicket = await ticket();
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    expect((await mfaLogin(DEMO.admin.mobile, wrongCode(code), mfaTicket)).json.code).toBe(
      AUTH_CODE.BAD_SMS_CODE,
    );

    const res = await mfaLogin(DEMO.admin.mobile, code, mfaTicket);
    expect(res.json.code).toBe(0);
    const { token, secure_id } = res.json.data;
    expect(secure_id).toMatch(/^[\w-]{24,}$/);
    const info = await call(t.app, 'GET', '/v3/user/info', { token });
    expect(info.json.data.account).toBe(DEMO.admin.account);

    // the code is used up
    expect((await mfaLogin(DEMO.admin.mobile, code, mfaTicket)).json.code).toBe(AUTH_CODE.BAD_SMS_CODE);
    // the trusted device skips the dialog next time
    const again = await accountLogin(t.app, DEMO.admin.account, DEMO.password, { secure_id });
    expect(again.json.code).toBe(0);
    // a secure_id that differs is not trusted
    const other = await accountLogin(t.app, DEMO.admin.account, DEMO.password, {
      secure_id: `${secure_id}x`,
    });
    expect(other.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
  });
});

describe('POST /v3/multi-factor/ticket-sms (issue 24 item 2)', () => {
  // its own database: the admin's mobile has had codes above, within the per-mobile minute
  let u: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    u = await buildTestApp();
  });
  const ticket = async () => {
    const res = await accountLogin(u.app, DEMO.admin.account);
    expect(res.json.code).toBe(AUTH_CODE.MFA_REQUIRED);
    return res.json.data.mfa_ticket as string;
  };
  const ticketSms = (body: Record<string, unknown>) =>
    call(u.app, 'POST', '/v3/multi-factor/ticket-sms', { body });
  const mfaLogin = (body: Record<string, unknown>) => call(u.app, 'POST', '/v3/multi-factor/login', { body });
  const masked = `${DEMO.admin.mobile.slice(0, 3)}****${DEMO.admin.mobile.slice(7)}`;

  it('sends the code to the bound mobile with no picture code and no number, and the login takes it without a mobile', async () => {
    const mfa_ticket = await ticket();
    const sent = await ticketSms({ account: DEMO.admin.account, mfa_ticket });
    expect(sent.json).toEqual({ code: 0, message: expect.any(String), data: { number: 60, mobile: masked } });
    const code = await lastSmsCode(u.app, DEMO.admin.mobile);
    const res = await mfaLogin({ account: DEMO.admin.account, mfa_ticket, sms_code: code });
    expect(res.json.code).toBe(0);
    expect(res.json.data.token).toEqual(expect.any(String));
  });

  it('refuses a made-up, another account’s or a tampered ticket, and sends nothing', async () => {
    const mfa_ticket = await ticket();
    for (const body of [
      { account: DEMO.admin.account, mfa_ticket: '1.2.3.4' },
      { account: DEMO.clerk.account, mfa_ticket },
      { account: DEMO.admin.account, mfa_ticket: `${mfa_ticket.slice(0, -2)}xx` },
    ]) {
      expect((await ticketSms(body)).json.code).toBe(AUTH_CODE.MFA_TICKET_INVALID);
    }
  });

  it('keeps the login-code limit: a second request within the minute is refused', async () => {
    const mfa_ticket = await ticket();
    const first = await ticketSms({ account: DEMO.admin.account, mfa_ticket });
    const second = await ticketSms({ account: DEMO.admin.account, mfa_ticket });
    expect([first.json.code, second.json.code].filter((c) => c === 0).length).toBeLessThanOrEqual(1);
    expect(second.json.code).not.toBe(0);
  });

  it('a ticket of an account disabled since sends nothing and signs nobody in', async () => {
    const mfa_ticket = await ticket();
    await u.pool.query(`update users set status = 'disabled' where account = $1`, [DEMO.admin.account]);
    try {
      expect((await ticketSms({ account: DEMO.admin.account, mfa_ticket })).json.code).toBe(
        AUTH_CODE.ACCOUNT_DISABLED,
      );
      const login = await mfaLogin({ account: DEMO.admin.account, mfa_ticket, sms_code: '123456' });
      expect(login.json.code).toBe(AUTH_CODE.ACCOUNT_DISABLED);
    } finally {
      await u.pool.query(`update users set status = 'active' where account = $1`, [DEMO.admin.account]);
    }
  });

  it('a mobile given with the login must still be the bound one', async () => {
    const mfa_ticket = await ticket();
    const code = await lastSmsCode(u.app, DEMO.admin.mobile);
    const res = await mfaLogin({
      account: DEMO.admin.account,
      mfa_ticket,
      mobile: '13900000099',
      sms_code: code,
    });
    expect(res.json.code).toBe(AUTH_CODE.MOBILE_MISMATCH);
  });
});
