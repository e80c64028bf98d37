import type { App } from '../src/app.ts';
import { call, DEMO, encryptPassword, pictureCode } from './helper.ts';

/** The account-login body with a fresh picture code (fixed to 1234 in tests). */
export async function loginBody(app: App, account: string, password: string = DEMO.password, extra = {}) {
  return {
    account,
    password: await encryptPassword(app, password),
    picture_code: '1234',
    unique_code: await pictureCode(app),
    ...extra,
  };
}

export async function accountLogin(app: App, account: string, password?: string, extra = {}) {
  return call(app, 'POST', '/v3/user/account-login', {
    body: await loginBody(app, account, password, extra),
  });
}

/** Asks for a login SMS code the way the phone-verification dialog does. */
export async function sendLoginSms(app: App, mobile: string, headers?: Record<string, string>) {
  const body = { mobile, picture_code: '1234', unique_code: await pictureCode(app) };
  return call(app, 'POST', '/v3/multi-factor/reg-sms', { body, headers });
}

/** The newest code the sandbox SMS gateway delivered to `mobile` (GET /v3/dev/outbox). */
export async function lastSmsCode(app: App, mobile: string): Promise<string> {
  const res = await call(app, 'GET', `/v3/dev/outbox?to=${mobile}&limit=1`);
  const code = res.json.data[0]?.code;
  if (!code) throw new Error(`no SMS to ${mobile}`);
  return code;
}

/** Another 6-digit code than `code`. */
export const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');
