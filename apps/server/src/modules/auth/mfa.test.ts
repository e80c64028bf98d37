import { AUTH_CODE } from '@kaipiao/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountLogin, lastSmsCode, sendLoginSms, wrongCode } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, encryptPassword } from '../../../test/helper.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp();
});

const check = (account: string, secure_id?: string) =>
  call(t.app, 'POST', '/v3/multi-factor/check', { body: { account, secure_id } });

const mfaLogin = async (mobile: string, sms_code: string, account: string = DEMO.admin.account) =>
  call(t.app, 'POST', '/v3/multi-factor/login', {
    body: { account, password: await encryptPassword(t.app, DEMO.password), mobile, sms_code },
  });

describe('POST /v3/multi-factor/check', () => {
  it('says the group admin needs phone verification on a new device', async () => {
    expect((await check(DEMO.admin.account)).json).toMatchObject({ code: 0, data: { need_verify: 1 } });
  });

  it('says the clerk, and an unknown account, need none', async () => {
    expect((await check(DEMO.clerk.account)).json.data).toEqual({ need_verify: 0 });
    expect((await check('nobody_here_2026')).json.data).toEqual({ need_verify: 0 });
  });

  it('does not trust a made-up secure_id', async () => {
    expect((await check(DEMO.admin.account, 'made-up-device')).json.data).toEqual({ need_verify: 1 });
  });
});

describe('POST /v3/multi-factor/login', () => {
  it('refuses the admin on POST /v3/user/account-login with 11007 before the phone is verified', async () => {
    const res = await accountLogin(t.app, DEMO.admin.account);
    expect(res.json).toEqual({
      code: AUTH_CODE.MFA_REQUIRED,
      message: '为了您的账号安全，请先完成手机验证',
      data: null,
    });
  });

  it('refuses a mobile that is not the account’s own', async () => {
    const res = await mfaLogin(DEMO.clerk.mobile, '123456');
    expect(res.json.code).toBe(AUTH_CODE.MOBILE_MISMATCH);
  });

  it('refuses a wrong password before looking at the phone', async () => {
    const res = await call(t.app, 'POST', '/v3/multi-factor/login', {
      body: {
        account: DEMO.admin.account,
        password: await encryptPassword(t.app, 'Wrong@2026'),
        mobile: DEMO.admin.mobile,
        sms_code: '123456',
      },
    });
    expect(res.json.code).toBe(AUTH_CODE.BAD_CREDENTIALS);
  });

  it('signs in with the SMS code from the outbox and trusts the device via secure_id', async () => {
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    expect((await mfaLogin(DEMO.admin.mobile, wrongCode(code))).json.code).toBe(AUTH_CODE.BAD_SMS_CODE);

    const res = await mfaLogin(DEMO.admin.mobile, code);
    expect(res.json.code).toBe(0);
    const { token, secure_id } = res.json.data;
    expect(secure_id).toMatch(/^[\w-]{24,}$/);
    const info = await call(t.app, 'GET', '/v3/user/info', { token });
    expect(info.json.data.account).toBe(DEMO.admin.account);

    // the code is used up
    expect((await mfaLogin(DEMO.admin.mobile, code)).json.code).toBe(AUTH_CODE.BAD_SMS_CODE);
    // the trusted device skips the dialog next time
    expect((await check(DEMO.admin.account, secure_id)).json.data).toEqual({ need_verify: 0 });
    const again = await accountLogin(t.app, DEMO.admin.account, DEMO.password, { secure_id });
    expect(again.json.code).toBe(0);
    // a secure_id that differs is not trusted
    expect((await check(DEMO.admin.account, `${secure_id}x`)).json.data).toEqual({ need_verify: 1 });
  });
});
