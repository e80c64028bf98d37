import { beforeAll, describe, expect, it } from 'vitest';
import { lastSmsCode } from '../../../test/auth-helpers.ts';
import { buildTestApp, call, DEMO, encryptPassword, login, pictureCode } from '../../../test/helper.ts';

// Two apps on one database stand for two web processes. Each caches sessions for 10 s, so a
// refusal well inside that time can only come from the NOTIFY of the other process.
const WELL_INSIDE_CACHE_MS = 3_000;

describe('session revocation across processes (LISTEN/NOTIFY)', () => {
  let one: Awaited<ReturnType<typeof buildTestApp>>;
  let two: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    one = await buildTestApp();
    two = await buildTestApp({ reuse: one });
  });

  const infoCode = async (token: string) =>
    (await call(two.app, 'GET', '/v3/user/info', { token })).json.code;

  it('GET /v3/user/logout through one process makes the other refuse the token at once', async () => {
    const token = await login(one.app, DEMO.clerk.account);
    expect(await infoCode(token)).toBe(0); // now cached in process two
    expect((await call(one.app, 'GET', '/v3/user/logout', { token })).json.code).toBe(0);
    await expect.poll(() => infoCode(token), { timeout: WELL_INSIDE_CACHE_MS, interval: 50 }).toBe(401);
  });

  it('POST /v3/user/reset-password through one process ends the other sessions in the other', async () => {
    const changer = await login(one.app, DEMO.clerk.account);
    const elsewhere = await login(one.app, DEMO.clerk.account);
    expect(await infoCode(elsewhere)).toBe(0);
    const smsBody = { type: 'reset_password', picture_code: '1234', unique_code: await pictureCode(one.app) };
    expect(
      (await call(one.app, 'POST', '/v3/system/send-sms', { token: changer, body: smsBody })).json.code,
    ).toBe(0);
    const next = 'Newpass#2026';
    const body = {
      mobile_code: await lastSmsCode(one.app, DEMO.clerk.mobile),
      new_password: await encryptPassword(one.app, next),
      password_confirm: await encryptPassword(one.app, next),
    };
    expect((await call(one.app, 'POST', '/v3/user/reset-password', { token: changer, body })).json.code).toBe(
      0,
    );
    await expect.poll(() => infoCode(elsewhere), { timeout: WELL_INSIDE_CACHE_MS, interval: 50 }).toBe(401);
    expect(await infoCode(changer)).toBe(0);
  });
});
