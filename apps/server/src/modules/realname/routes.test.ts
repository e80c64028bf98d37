import { beijingDay, CODE, maskPhone, REALNAME_CODE, SESSION_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { clients, orgs, realnameSessions, taxAccounts, taxDevices } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';

describe('real-name routes (sandbox bureau)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let q: string;
  let foreignDevice: number;
  let foreignClient: number;
  // the bureau's daily counts turn at Beijing midnight: their tests stand its clock still
  const clock = testClock();
  afterEach(() => clock.release());

  beforeAll(async () => {
    t = await buildTestApp({ clock });
    f = await invoicingFixture(t.app, t.db);
    q = f.scope(f.ids.software, f.ids.hq);
    const [org] = await t.db.insert(orgs).values({ name: '别家集团' }).returning();
    const [c] = await t.db
      .insert(clients)
      .values({ orgId: org!.id, name: '别家公司', taxCode: '91110000MA00000001' })
      .returning();
    foreignClient = c!.id;
    const [d] = await t.db
      .insert(taxDevices)
      .values({ clientId: c!.id, kind: 'digital', channel: 'GP900000', name: '别家数电', deviceNo: 'X-1' })
      .returning();
    foreignDevice = d!.id;
  });

  const get = (path: string) => call(t.app, 'GET', path, { token: f.admin });
  const post = (path: string, body: unknown) => call(t.app, 'POST', path, { token: f.admin, body });
  const dev = (path: string, body: unknown) => call(t.app, 'POST', `/v3/dev/real-name/${path}`, { body });
  const info = (deviceId: number, extra = '') =>
    get(`/v3/equipment/get-real-person-auth?${q}&device_id=${deviceId}${extra}`);
  const setRow = async (deviceId: number, values: Partial<typeof realnameSessions.$inferInsert>) => {
    const rows = await t.db
      .update(realnameSessions)
      .set(values)
      .where(eq(realnameSessions.deviceId, deviceId))
      .returning({ clientId: realnameSessions.clientId });
    // a row written by hand announces itself, as any writer outside the app must (lib/read-cache.ts)
    await t.app.invalidate({ clients: rows.map((r) => r.clientId) });
  };
  const lastCode = async (mobile: string) =>
    (await call(t.app, 'GET', `/v3/dev/outbox?to=${mobile}&limit=1`)).json.data[0]?.code as string;

  it('GET get-real-person-auth gives the dialog data of a 数电 device (SMS way, logged out)', async () => {
    const res = await info(f.ids.digital);
    expect(res.json.code).toBe(0);
    expect(res.json.data).toMatchObject({
      device_id: f.ids.digital,
      channel: 'GP900000',
      auth_way: '1',
      ele_tax_login_type: '1',
      auth_status: 0,
      logged_in: 0,
      qrCode: '',
    });
    expect(res.json.data.tax_mobile).toMatch(/^1\d{10}$/);
  });

  it('shows the 电子税务局 account bound to the device and its phone, masked as the accounts page masks it', async () => {
    const [device] = await t.db
      .insert(taxDevices)
      .values({
        clientId: f.ids.software,
        kind: 'digital',
        channel: 'GP900000',
        name: '数电账户（实名测试）',
        deviceNo: 'GP900000-330106-0099',
      })
      .returning();
    const [account] = await t.db
      .insert(taxAccounts)
      .values({
        clientId: f.ids.software,
        deviceId: device!.id,
        account: '91330106MA2KC7LM1A-zhaomin',
        passwordEnc: 'v1.test',
        phone: '17655552696',
        personName: '赵敏',
        whiteListed: true,
      })
      .returning();
    const [before] = await t.db.select().from(clients).where(eq(clients.id, f.ids.software));
    const white = before!.hasWhiteListedTaxAccount;
    await t.db.update(clients).set({ hasWhiteListedTaxAccount: true }).where(eq(clients.id, f.ids.software));

    const shown = (await info(device!.id)).json.data;
    // the account, not the device number; the account's phone, not a stand-in
    expect(shown).toMatchObject({
      tax_account: '91330106MA2KC7LM1A-zhaomin',
      tax_mobile: '17655552696',
      name: '赵敏',
    });
    const listed = (await get(`/v3/tax-account/list?${q}`)).json.data as { id: number; phone: string }[];
    expect(listed.find((a) => a.id === account!.id)?.phone).toBe(maskPhone(shown.tax_mobile));
    expect(maskPhone(shown.tax_mobile)).toBe('176****2696');

    // the login SMS goes to that phone
    const sent = await post(`/v3/equipment/get-sms-tax-station?${q}`, { device_id: device!.id });
    expect(sent.json.code).toBe(0);
    expect(await lastCode('17655552696')).toMatch(/^\d{6}$/);

    // another business's account bound to the same device id is not read (the device is refused)
    expect(
      (await get(`/v3/equipment/get-real-person-auth?client_id=${foreignClient}&device_id=${device!.id}`))
        .json.code,
    ).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    // gone again: the business's other tests count its 数电 devices and accounts
    await t.db.delete(realnameSessions).where(eq(realnameSessions.deviceId, device!.id));
    await t.db.delete(taxAccounts).where(eq(taxAccounts.id, account!.id));
    await t.db.delete(taxDevices).where(eq(taxDevices.id, device!.id));
    await t.db.update(clients).set({ hasWhiteListedTaxAccount: white }).where(eq(clients.id, f.ids.software));
  });

  it('refuses another business’s device, another tenant’s business and devices without real-name', async () => {
    expect((await info(foreignDevice)).json.code).toBe(REALNAME_CODE.DEVICE_NOT_FOUND);
    expect((await info(f.ids.hotelDigital)).json.code).toBe(REALNAME_CODE.DEVICE_NOT_FOUND);
    const other = await get(
      `/v3/equipment/get-real-person-auth?client_id=${foreignClient}&device_id=${foreignDevice}`,
    );
    expect(other.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    expect((await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: foreignDevice })).json.code).toBe(
      REALNAME_CODE.DEVICE_NOT_FOUND,
    );
    expect((await info(f.ids.ukey)).json.code).toBe(REALNAME_CODE.NOT_APPLICABLE);
  });

  it('SMS login: code to the outbox, 120 s resend wait, wrong code refused, then already logged in', async () => {
    const mobile = (await info(f.ids.digital)).json.data.tax_mobile;
    const sent = await post(`/v3/equipment/get-sms-tax-station?${q}`, { device_id: f.ids.digital });
    expect(sent.json).toMatchObject({ code: 0, data: { logged_in: 0, wait_seconds: 120 } });
    const code = await lastCode(mobile);
    expect(code).toMatch(/^\d{6}$/);

    const again = await post(`/v3/equipment/get-sms-autonomous-tax-station?${q}`, {
      device_id: f.ids.digital,
    });
    expect(again.json.code).toBe(REALNAME_CODE.SMS_TOO_FREQUENT);
    expect(again.json.message).toBe('验证码发送过于频繁，请120秒后再试');

    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await post(`/v3/equipment/sms-login-tax-station?${q}`, {
      device_id: f.ids.digital,
      phone: mobile,
      sms_code: wrong,
    });
    expect(bad.json.code).toBe(REALNAME_CODE.BAD_SMS_CODE);
    const empty = await post(`/v3/equipment/sms-login-tax-station?${q}`, {
      device_id: f.ids.digital,
      sms_code: '',
    });
    expect(empty.json.code).toBe(CODE.VALIDATION);
    expect(JSON.stringify(empty.json.data)).toContain('必填，请输入短信验证码');

    const good = await post(`/v3/equipment/sms-login-tax-station?${q}`, {
      device_id: f.ids.digital,
      phone: mobile,
      sms_code: code,
    });
    expect(good.json).toMatchObject({ code: 0, message: '登录成功', data: { logged_in: 1 } });
    expect((await info(f.ids.digital)).json.data.logged_in).toBe(1);

    const loggedIn = await post(`/v3/equipment/get-sms-tax-station?${q}`, { device_id: f.ids.digital });
    expect(loggedIn.json).toMatchObject({ code: 0, message: '当前账号已登录', data: { logged_in: 1 } });
  });

  it('SMS login: the code is kept as a salted HMAC and 20 parallel guesses get 5 comparisons (issue 21)', async () => {
    await setRow(f.ids.digital, { loginExpiresAt: null, smsSentAt: null });
    const mobile = (await info(f.ids.digital)).json.data.tax_mobile;
    expect(
      (await post(`/v3/equipment/get-sms-tax-station?${q}`, { device_id: f.ids.digital })).json.code,
    ).toBe(0);
    const code = await lastCode(mobile);
    const row = async () =>
      (await t.db.select().from(realnameSessions).where(eq(realnameSessions.deviceId, f.ids.digital)))[0]!;
    const stored = (await row()).smsCodeHash!;
    expect(stored).toMatch(/^h1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain(sha256(`${f.ids.digital}:${code}`));
    const login = (sms_code: string) =>
      post(`/v3/equipment/sms-login-tax-station?${q}`, { device_id: f.ids.digital, phone: mobile, sms_code });
    const guesses = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const codes = (await Promise.all(guesses.map(login))).map((r) => r.json.code);
    expect(codes).toEqual(Array(20).fill(REALNAME_CODE.BAD_SMS_CODE));
    expect((await row()).smsAttempts).toBe(5);
    expect((await login(code)).json.code).toBe(REALNAME_CODE.BAD_SMS_CODE);
  });

  it('SMS: of 10 sends at the same moment only one passes the 120 s wait', async () => {
    await setRow(f.ids.digital, { loginExpiresAt: null, smsSentAt: null });
    const send = () => post(`/v3/equipment/get-sms-tax-station?${q}`, { device_id: f.ids.digital });
    const codes = (await Promise.all(Array.from({ length: 10 }, send))).map((r) => r.json.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.filter((c) => c === REALNAME_CODE.SMS_TOO_FREQUENT)).toHaveLength(9);
  });

  it('SMS: 20 codes a day per account, and the bureau’s 10000 answer (code still sent)', async () => {
    const device = f.ids.hotelDigital;
    const hq = f.scope(f.ids.hotel, f.ids.bs);
    await call(t.app, 'GET', `/v3/equipment/get-real-person-auth?${hq}&device_id=${device}`, {
      token: f.admin,
    });
    clock.set(new Date()); // the day cannot turn between the count set here and the bureau's check
    const today = beijingDay(clock());
    await setRow(device, { smsDay: today, smsDayCount: 20 });
    const capped = await call(t.app, 'POST', `/v3/equipment/get-sms-tax-station?${hq}`, {
      token: f.admin,
      body: { device_id: device },
    });
    expect(capped.json.code).toBe(REALNAME_CODE.SMS_DAILY_CAP);

    await setRow(device, { smsDayCount: 0 });
    await dev('configure', { device_id: device, sms_answer_10000: true });
    const answered = await call(t.app, 'POST', `/v3/equipment/get-sms-tax-station?${hq}`, {
      token: f.admin,
      body: { device_id: device },
    });
    expect(answered.json.code).toBe(CODE.CHANNEL);
    const mobile = (await dev('configure', { device_id: device })).json.data.tax_mobile;
    expect(await lastCode(mobile)).toMatch(/^\d{6}$/);
  });

  it('QR: one new QR a minute, expiry after the bureau’s minutes, 20 a day, confirmation by the sandbox', async () => {
    clock.set(new Date()); // the day's count cannot turn during the test
    const device = f.ids.digital;
    await dev('configure', { device_id: device, auth_way: '2' });
    const first = await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: device });
    expect(first.json.code).toBe(0);
    expect(first.json.data).toMatchObject({ authStatus: 1, authType: 0 });
    const text = Buffer.from(first.json.data.qrCode, 'base64').toString('utf8');
    expect(text).toMatch(/^https:\/\/etax\.sandbox\.kaipiao\.local\/realname\?t=[0-9a-f]{24}$/);

    // a still-valid QR is answered again, not a new one
    const same = await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: device });
    expect(same.json.data.qrCode).toBe(first.json.data.qrCode);

    // the QR lapses after its minutes (moved into the past here): status 3, no QR
    await setRow(device, { qrExpiresAt: new Date(clock().getTime() - 1000) });
    expect((await info(device)).json.data).toMatchObject({ auth_status: 3, qrCode: '' });
    expect((await dev('confirm', { device_id: device })).json.code).toBe(REALNAME_CODE.QR_EXPIRED);

    // a new one within a minute of the last is refused
    const tooSoon = await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: device });
    expect(tooSoon.json.code).toBe(REALNAME_CODE.QR_TOO_FREQUENT);
    expect(tooSoon.json.message).toBe('获取二维码过于频繁，每分钟最多获取1次，请稍后再试');

    await setRow(device, { qrIssuedAt: new Date(clock().getTime() - 61_000) });
    const second = await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: device });
    expect(second.json.code).toBe(0);
    expect(second.json.data.qrCode).not.toBe(first.json.data.qrCode);

    const confirmed = await dev('confirm', { device_id: device });
    expect(confirmed.json.data).toMatchObject({ auth_status: 2, logged_in: 1 });

    await setRow(device, { qrIssuedAt: new Date(clock().getTime() - 61_000), qrDayCount: 20 });
    const capped = await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: device });
    expect(capped.json.code).toBe(REALNAME_CODE.QR_DAILY_CAP);
    expect(capped.json.message).toBe('今日获取二维码次数已达上限（20次），请明天再试');
  });

  it('non-initiative refresh: no QR without a bureau session; a new QR with one', async () => {
    const device = f.ids.digital;
    await setRow(device, { qrDayCount: 0, qrIssuedAt: new Date(Date.now() - 61_000) });
    await dev('logout', { device_id: device });
    const none = await info(device, '&judge_invoice_status=1');
    expect(none.json.data).toMatchObject({ logged_in: 0, qrCode: '', authStatus: 3 });
    await t.db
      .update(realnameSessions)
      .set({ loginExpiresAt: new Date(Date.now() + 3600_000) })
      .where(eq(realnameSessions.deviceId, device));
    const fresh = await info(device, '&judge_invoice_status=1');
    expect(fresh.json.data).toMatchObject({ authStatus: 1, auth_type: 0 });
    expect(fresh.json.data.qrCode).not.toBe('');
  });

  it('GET /v3/equipment/check-tax: check_auth follows the real-name state (spec §4 socket)', async () => {
    const device = f.ids.digital;
    const check = async (token = f.admin) => {
      const res = await call(t.app, 'GET', `/v3/equipment/check-tax?${q}`, { token });
      expect(res.json.code).toBe(0);
      const item = res.json.data.devices.find((d: { device_id: number }) => d.device_id === device);
      return { checkAuth: res.json.data.check_auth, needAuth: item.need_auth };
    };
    // the bureau session is down: authorisation needed
    await dev('logout', { device_id: device });
    expect(await check()).toEqual({ checkAuth: 1, needAuth: true });
    // the bureau raises an authorisation: needed while the QR is valid, lapsed or asks for the app again
    await dev('require', { device_id: device });
    expect(await check()).toEqual({ checkAuth: 1, needAuth: true });
    await dev('expire', { device_id: device });
    expect((await check()).checkAuth).toBe(1);
    await dev('require', { device_id: device });
    // the person confirms: authorised within a live session, no socket needed
    await dev('confirm', { device_id: device });
    expect(await check()).toEqual({ checkAuth: 0, needAuth: false });
    // a store-scoped clerk gets the same answer for the device bound to their store
    expect(await check(f.clerk)).toEqual({ checkAuth: 0, needAuth: false });
    await dev('app-relogin', { device_id: device });
    expect(await check()).toEqual({ checkAuth: 1, needAuth: true });
    await dev('require', { device_id: device });
    await dev('confirm', { device_id: device });
    expect((await check()).checkAuth).toBe(0);
    // the session ends (the bureau's 3 hours, or a logout): needed again
    await setRow(device, { loginExpiresAt: new Date(Date.now() - 1000) });
    expect((await check()).checkAuth).toBe(1);
    // an SMS login alone is a live session without an outstanding authorisation
    await setRow(device, { loginExpiresAt: new Date(Date.now() + 3600_000), authStatus: 0 });
    expect((await check()).checkAuth).toBe(0);
  });

  it('a QR the bureau raises counts in neither of the person’s QR limits', async () => {
    const device = f.ids.digital;
    await setRow(device, { qrIssuedAt: new Date(Date.now() - 61_000), qrDayCount: 19 });
    await dev('require', { device_id: device });
    await dev('expire', { device_id: device });
    const own = await post(`/v3/equipment/jc-get-qr-code?${q}`, { device_id: device });
    expect(own.json).toMatchObject({ code: 0, data: { authStatus: 1 } });
    const [row] = await t.db.select().from(realnameSessions).where(eq(realnameSessions.deviceId, device));
    expect(row!.qrDayCount).toBe(20);
  });

  it('the old GET /v3/real-name/check-auth is gone (check-tax answers)', async () => {
    expect((await get(`/v3/real-name/check-auth?${q}`)).status).toBe(404);
  });
});
