import { AUTH_CODE } from '@kaipiao/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountLogin, lastSmsCode, wrongCode } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, encryptPassword, login, pictureCode } from '../../../test/helper.ts';

const NEW_PASSWORD = 'Newpass#2026';

describe('POST /v3/user/reset-password', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let token: string;
  let otherToken: string;
  let smsCode: string;

  beforeAll(async () => {
    t = await buildTestApp();
    token = await login(t.app, DEMO.clerk.account);
    otherToken = await login(t.app, DEMO.clerk.account);
    const body = { type: 'reset_password', picture_code: '1234', unique_code: await pictureCode(t.app) };
    expect((await call(t.app, 'POST', '/v3/system/send-sms', { token, body })).json.code).toBe(0);
    smsCode = await lastSmsCode(t.app, DEMO.clerk.mobile);
  });

  const reset = async (next: string, confirm = next, mobile_code = smsCode) =>
    call(t.app, 'POST', '/v3/user/reset-password', {
      token,
      body: {
        mobile_code,
        new_password: await encryptPassword(t.app, next),
        password_confirm: await encryptPassword(t.app, confirm),
      },
    });

  // every refusal below leaves the one SMS code usable: the rules are checked before it is spent
  it.each([
    ['too short', 'Ab#1234'],
    ['too long', 'Abcdefgh#1234567890'],
    ['only lowercase letters', 'abcdefghij'],
    ['only digits', '1234567890'],
    ['a space', 'Abc def#123'],
  ])('refuses a new password with %s (11014)', async (_, password) => {
    const res = await reset(password);
    expect(res.json).toMatchObject({
      code: AUTH_CODE.PASSWORD_RULE,
      message: '密码须为8-18位数字、字母、符号的组合',
    });
  });

  it('refuses a confirmation that differs (11017)', async () => {
    const res = await reset(NEW_PASSWORD, `${NEW_PASSWORD}x`);
    expect(res.json).toMatchObject({
      code: AUTH_CODE.PASSWORD_MISMATCH,
      message: '两次输入的密码不一致，请重新输入',
    });
  });

  it('refuses the current password as the new one (11009)', async () => {
    const res = await reset(DEMO.password);
    expect(res.json).toMatchObject({
      code: AUTH_CODE.PASSWORD_SAME_AS_OLD,
      message: '新密码不能与旧密码相同',
    });
  });

  it('refuses a wrong SMS code (11006)', async () => {
    expect((await reset(NEW_PASSWORD, NEW_PASSWORD, wrongCode(smsCode))).json.code).toBe(
      AUTH_CODE.BAD_SMS_CODE,
    );
  });

  it('changes the password with the same SMS code after all those refusals', async () => {
    const res = await reset(NEW_PASSWORD);
    expect(res.json).toEqual({ code: 0, message: '密码修改成功', data: null });
  });

  it('refuses the old password and accepts the new one afterwards', async () => {
    expect((await accountLogin(t.app, DEMO.clerk.account, DEMO.password)).json.code).toBe(
      AUTH_CODE.BAD_CREDENTIALS,
    );
    const fresh = await accountLogin(t.app, DEMO.clerk.account, NEW_PASSWORD);
    expect(fresh.json.code).toBe(0);
    expect(fresh.json.data.user).toMatchObject({ is_weak_password: 0, password_expired: 0 });
  });

  it("ends the user's other sessions and keeps the one that changed it", async () => {
    expect((await call(t.app, 'GET', '/v3/user/info', { token: otherToken })).json.code).toBe(401);
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json.code).toBe(0);
  });

  it('does not accept the spent SMS code again', async () => {
    expect((await reset('Another#2026')).json.code).toBe(AUTH_CODE.BAD_SMS_CODE);
  });
});
