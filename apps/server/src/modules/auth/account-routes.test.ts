import { CODE } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO, login, pictureCode } from '../../../test/helper.ts';

/**
 * The account routes' options (body schemas, scopes) are evaluated when the app is built; an app
 * built in `beforeAll` is not traced to any test, so the mutation run only tries them against tests
 * that build their own app. This one does: each account route answers as registered, and a body
 * its schema refuses never reaches the service.
 */
describe('the account routes as registered', () => {
  it('send-sms, reset-password, info and logout answer; malformed bodies are refused in Chinese', async () => {
    const t = await buildTestApp();
    const token = await login(t.app, DEMO.clerk.account);

    const sms = async (body: Record<string, unknown>) =>
      (await call(t.app, 'POST', '/v3/system/send-sms', { token, body })).json;
    expect(
      await sms({ type: 'reset_password', picture_code: '1234', unique_code: await pictureCode(t.app) }),
    ).toEqual({ code: 0, message: '短信验证码已发送到您的手机，请注意查收', data: { number: 60 } });
    // without its picture code's key the request never reaches the captcha check
    const noKey = await sms({ type: 'reset_password', picture_code: '1234' });
    expect(noKey).toEqual({
      code: CODE.VALIDATION,
      message: '请填写图片验证码标识',
      data: { errors: [{ field: 'unique_code', message: '请填写图片验证码标识' }] },
    });

    const reset = (await call(t.app, 'POST', '/v3/user/reset-password', { token, body: {} })).json;
    expect(reset.code).toBe(CODE.VALIDATION);
    expect(reset.data.errors.map((e: { field: string }) => e.field)).toEqual([
      'mobile_code',
      'new_password',
      'password_confirm',
    ]);
    expect(reset.message).toMatch(/[\u4e00-\u9fff]/);

    const info = (await call(t.app, 'GET', '/v3/user/info', { token })).json;
    expect(info).toMatchObject({
      code: 0,
      data: { account: DEMO.clerk.account, plain_mobile: DEMO.clerk.mobile },
    });
    expect((await call(t.app, 'POST', '/v3/user/logout', { token })).json).toEqual({
      code: 0,
      message: 'ok',
      data: { redirect_url: null },
    });
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json.code).toBe(401);
  });
});
