import { AUTH_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastSmsCode, sendLoginSms, wrongCode } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { ssoTickets } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp();
});

const issue = async (account: string, app_id: string, kind: 'ticket' | 'token' = 'ticket') =>
  (await call(t.app, 'POST', '/v3/dev/sso/issue', { body: { account, kind, app_id } })).json.data
    .ticket as string;
const checkSecureId = (body: object) => call(t.app, 'POST', '/v3/multi-factor/check-secure-id', { body });
const verifyMobile = (body: object) =>
  call(t.app, 'POST', '/v3/multi-factor/verify-secure-id-mobile', { body });
const logout = async (token: string) => (await call(t.app, 'GET', '/v3/user/logout', { token })).json;

describe('POST /v3/multi-factor/check-secure-id', () => {
  it('signs the clerk in from a partner ticket (status 1) with the app as source', async () => {
    const ticket = await issue(DEMO.clerk.account, '1003');
    const res = await checkSecureId({ ticket, app_id: '1003' });
    expect(res.json.data).toMatchObject({ auth_status: 1, source: '1003', mobile: '138****0002' });
    const info = await call(t.app, 'GET', '/v3/user/info', { token: res.json.data.token });
    expect(info.json.data).toMatchObject({ account: DEMO.clerk.account, source: '1003' });
  });

  it('refuses a ticket used a second time', async () => {
    const ticket = await issue(DEMO.clerk.account, '1014');
    expect((await checkSecureId({ ticket, app_id: '1014' })).json.data.auth_status).toBe(1);
    const again = await checkSecureId({ ticket, app_id: '1014' });
    expect(again.json).toMatchObject({
      code: AUTH_CODE.TICKET_INVALID,
      message: '登录凭证无效或已过期，请重新登录',
    });
  });

  it('signs in from a partner login token too', async () => {
    const token = await issue(DEMO.clerk.account, '22', 'token');
    const res = await checkSecureId({ token });
    expect(res.json.data).toMatchObject({ auth_status: 1, source: '22' });
  });

  it('refuses a ticket presented for another app, an expired one, a token sent as a ticket, and nonsense', async () => {
    const forOther = await issue(DEMO.clerk.account, '1003');
    expect((await checkSecureId({ ticket: forOther, app_id: '1014' })).json.code).toBe(
      AUTH_CODE.TICKET_INVALID,
    );
    const token = await issue(DEMO.clerk.account, '1003', 'token');
    expect((await checkSecureId({ ticket: token })).json.code).toBe(AUTH_CODE.TICKET_INVALID);
    const expired = await issue(DEMO.clerk.account, '1003');
    await t.db
      .update(ssoTickets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoTickets.ticket, sha256(expired)));
    expect((await checkSecureId({ ticket: expired })).json.code).toBe(AUTH_CODE.TICKET_INVALID);
    expect((await checkSecureId({ ticket: 'nonsense' })).json.code).toBe(AUTH_CODE.TICKET_INVALID);
  });

  it('asks for the admin’s phone (status 2) with the masked mobile and leaves the ticket unused', async () => {
    const ticket = await issue(DEMO.admin.account, '1014');
    const first = await checkSecureId({ ticket, app_id: '1014' });
    expect(first.json.data).toEqual({ auth_status: 2, mobile: '138****0001', source: '1014' });
    expect((await checkSecureId({ ticket, app_id: '1014' })).json.data.auth_status).toBe(2);
  });
});

describe('POST /v3/multi-factor/verify-secure-id-mobile', () => {
  it('signs the admin in after the SMS code, returns a secure_id, and uses the ticket up', async () => {
    const ticket = await issue(DEMO.admin.account, '1014');
    expect((await sendLoginSms(t.app, DEMO.admin.mobile)).json.code).toBe(0);
    const code = await lastSmsCode(t.app, DEMO.admin.mobile);
    const body = { ticket, app_id: '1014', mobile: DEMO.admin.mobile };

    const otherMobile = await verifyMobile({ ...body, mobile: DEMO.clerk.mobile, sms_captcha: code });
    expect(otherMobile.json.code).toBe(AUTH_CODE.MOBILE_MISMATCH);
    const wrong = await verifyMobile({ ...body, sms_captcha: wrongCode(code) });
    expect(wrong.json.code).toBe(AUTH_CODE.BAD_SMS_CODE);

    const res = await verifyMobile({ ...body, sms_captcha: code });
    expect(res.json.data).toMatchObject({
      source: '1014',
      user: { account: DEMO.admin.account, source: '1014' },
    });
    expect((await call(t.app, 'GET', '/v3/user/info', { token: res.json.data.token })).json.code).toBe(0);
    expect((await checkSecureId({ ticket, app_id: '1014' })).json.code).toBe(AUTH_CODE.TICKET_INVALID);

    // the trusted device signs straight in with the next ticket
    const next = await issue(DEMO.admin.account, '1014');
    const trusted = await checkSecureId({ ticket: next, secure_id: res.json.data.secure_id });
    expect(trusted.json.data).toMatchObject({ auth_status: 1, source: '1014' });
  });

  it('refuses without a ticket or token', async () => {
    const res = await verifyMobile({ mobile: DEMO.admin.mobile, sms_captcha: '123456' });
    expect(res.json.code).toBe(AUTH_CODE.TICKET_INVALID);
  });
});

describe('GET /v3/user/logout', () => {
  const signInFrom = async (app_id: string) =>
    (await checkSecureId({ ticket: await issue(DEMO.clerk.account, app_id) })).json.data.token as string;

  it('sends a partner app 1003 user back to its sign-on page', async () => {
    const res = await logout(await signInFrom('1003'));
    expect(res).toEqual({ code: 0, message: 'ok', data: { redirect_url: '/sandbox/sso/login?app_id=1003' } });
  });

  it('sends a source 22 user to its own logout address', async () => {
    expect((await logout(await signInFrom('22'))).data.redirect_url).toBe('/sandbox/sso/logout?source=22');
  });

  it('gives no redirect to our own logins and ends the session', async () => {
    const token = await login(t.app, DEMO.clerk.account);
    expect((await logout(token)).data.redirect_url).toBeNull();
    expect((await call(t.app, 'GET', '/v3/user/info', { token })).json.code).toBe(401);
  });
});
