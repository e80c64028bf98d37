import { AUTH_CODE } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { qrLogins } from '../../db/schema/index.ts';
import { qrScanUrl } from './qr-login.ts';

let t: Awaited<ReturnType<typeof buildTestApp>>;
beforeAll(async () => {
  t = await buildTestApp();
});

const newQr = async () => (await call(t.app, 'GET', '/v3/user/qr-code')).json.data;
const status = async (qrId: string) =>
  (await call(t.app, 'GET', `/v3/user/get-login-status?qr_id=${qrId}`)).json.data;
const advance = (qr_id: string, step: 'scan' | 'confirm', account: string = DEMO.clerk.account) =>
  call(t.app, 'POST', '/v3/dev/qr-confirm', { body: { qr_id, account, step } });
const expire = (qrId: string) =>
  t.db
    .update(qrLogins)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(qrLogins.id, qrId));

describe('GET /v3/user/qr-code', () => {
  it('returns a PNG QR of the scan page, good for 120 s', async () => {
    const qr = await newQr();
    expect(qr.expires_in).toBe(120);
    expect(qr.qr_code).toMatch(/^data:image\/png;base64,/);
    // same text and options give the same image: the QR encodes this server's scan URL
    const expected = await QRCode.toDataURL(qrScanUrl('http://localhost:80', qr.qr_id), {
      margin: 1,
      width: 240,
    });
    expect(qr.qr_code).toBe(expected);
  });
});

describe('GET /v3/user/get-login-status', () => {
  it('goes waiting → scanned → confirmed with a token, once', async () => {
    const { qr_id } = await newQr();
    expect(await status(qr_id)).toEqual({ status: 'waiting' });
    expect((await advance(qr_id, 'scan')).json.data).toEqual({ status: 'scanned' });
    expect(await status(qr_id)).toEqual({ status: 'scanned' });
    expect((await advance(qr_id, 'confirm')).json.data).toEqual({ status: 'confirmed' });

    const first = await status(qr_id);
    expect(first).toMatchObject({ status: 'confirmed', user: { account: DEMO.clerk.account } });
    const info = await call(t.app, 'GET', '/v3/user/info', { token: first.token });
    expect(info.json.data.account).toBe(DEMO.clerk.account);

    const second = await status(qr_id);
    expect(second).toEqual({ status: 'expired' });
  });

  it('hands out exactly one token to simultaneous polls', async () => {
    const { qr_id } = await newQr();
    await advance(qr_id, 'confirm');
    const polls = await Promise.all(Array.from({ length: 6 }, () => status(qr_id)));
    expect(polls.filter((p) => p.token)).toHaveLength(1);
  });

  it('says expired when the QR has run out, and the phone can no longer confirm it', async () => {
    const { qr_id } = await newQr();
    await expire(qr_id);
    expect(await status(qr_id)).toEqual({ status: 'expired' });
    const late = await advance(qr_id, 'confirm');
    expect(late.json).toMatchObject({
      code: AUTH_CODE.QR_EXPIRED,
      message: '二维码已失效，请刷新后重新扫码',
    });
  });

  it('gives no token for a QR confirmed but not collected before it ran out', async () => {
    const { qr_id } = await newQr();
    await advance(qr_id, 'confirm');
    await expire(qr_id);
    expect(await status(qr_id)).toEqual({ status: 'expired' });
  });

  it('says expired for an unknown qr_id', async () => {
    expect(await status('no-such-qr')).toEqual({ status: 'expired' });
  });
});

describe('POST /v3/dev/qr-confirm', () => {
  it('refuses to let another user confirm a QR someone scanned', async () => {
    const { qr_id } = await newQr();
    await advance(qr_id, 'scan', DEMO.clerk.account);
    const res = await advance(qr_id, 'confirm', DEMO.admin.account);
    expect(res.json.code).toBe(AUTH_CODE.QR_EXPIRED);
    expect(await status(qr_id)).toEqual({ status: 'scanned' });
  });

  it('refuses an unknown account', async () => {
    const { qr_id } = await newQr();
    expect((await advance(qr_id, 'scan', 'nobody_here_2026')).json.code).toBe(10004);
  });
});
