import { INVOICE_CODE, ratesFor, SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, line, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';

/**
 * The issue result and reconciliation by serial stay within the caller's stores (issue 22: "a
 * clerk can read another store's issue result by its serial"). The demo clerk holds 文三路总部 (HQ)
 * only; 滨江研发中心 (BJ) is another store of the same business; the hotel is another business of
 * the group the clerk has no scope in.
 */

let t: Awaited<ReturnType<typeof buildTestApp>>;
let f: Fixture;
const serial = {} as Record<'HQ' | 'BJ' | 'hotel', string>;

beforeAll(async () => {
  t = await buildTestApp();
  f = await invoicingFixture(t.app, t.db);
  for (const [key, sid] of [
    ['HQ', f.ids.hq],
    ['BJ', f.ids.bj],
  ] as const) {
    const body = payload(f.ids.digital);
    const res = await f.issue(body, { sid });
    expect(res.json.code, res.json.message).toBe(0);
    serial[key] = body.serial_no;
  }
  // the small-scale hotel's plain rate today (1% while the reduction runs, then 3%)
  const rate = ratesFor({ taxpayerType: 'small' }).find((r) => !r.needsReason)!.value;
  const hotel = payload(f.ids.hotelDigital, { lines: [line('101.00', { tax_rate: rate })] });
  const res = await f.issue(hotel, { clientId: f.ids.hotel, sid: f.ids.bs });
  expect(res.json.code, res.json.message).toBe(0);
  serial.hotel = hotel.serial_no;
});

const NO_STORE = { code: SESSION_CODE.STORE_NOT_PERMITTED, message: '无权限操作该门店', data: null };
const NOT_FOUND = { code: INVOICE_CODE.SERIAL_NOT_FOUND, message: '未找到该流水号的开票记录', data: null };

const result = async (token: string, serialNo: string, sid: number | null = -1) =>
  (
    await call(
      t.app,
      'GET',
      `/v3/online-invoicing/result?client_id=${f.ids.software}${sid === null ? '' : `&sid=${sid}`}&serial_no=${serialNo}`,
      { token },
    )
  ).json;

describe('GET /v3/online-invoicing/result', () => {
  it("answers the clerk her own store's serial, whichever view she is in", async () => {
    for (const sid of [f.ids.hq, -1, null]) {
      expect(await result(f.clerk, serial.HQ, sid)).toMatchObject({
        code: 0,
        data: { serial_no: serial.HQ },
      });
    }
  });

  it("refuses the clerk another store's serial with 12003, whichever view she is in", async () => {
    for (const sid of [f.ids.hq, -1, null]) expect(await result(f.clerk, serial.BJ, sid)).toEqual(NO_STORE);
  });

  it("answers the administrator every store's serial", async () => {
    expect(await result(f.admin, serial.BJ)).toMatchObject({ code: 0, data: { serial_no: serial.BJ } });
    expect(await result(f.admin, serial.BJ, f.ids.bj)).toMatchObject({ code: 0 });
  });

  it("says not found (13121) for an unknown serial and for another business's, never 12003", async () => {
    expect(await result(f.clerk, 'NO-SUCH-SERIAL')).toEqual(NOT_FOUND);
    expect(await result(f.clerk, serial.hotel)).toEqual(NOT_FOUND);
    expect(await result(f.admin, serial.hotel)).toEqual(NOT_FOUND);
  });
});

describe('POST /v3/online-invoicing/reconcile', () => {
  it("does not touch another store's unsettled invoice for the clerk; the administrator's call settles it", async () => {
    await t.db.execute(sql`update invoices set status = 'unknown' where serial_no = ${serial.BJ}`);
    const reconcile = (token: string, serial_no: string, sid: number) =>
      call(t.app, 'POST', `/v3/online-invoicing/reconcile?client_id=${f.ids.software}&sid=${sid}`, {
        token,
        body: { serial_no },
      });
    for (const sid of [f.ids.hq, -1]) {
      const res = await reconcile(f.clerk, serial.BJ, sid);
      expect(res.json).toMatchObject({ code: 0, data: { checked: 0, issued: 0, results: [] } });
    }
    const status = async () =>
      (
        await t.db.execute<{ status: string }>(
          sql`select status from invoices where serial_no = ${serial.BJ}`,
        )
      ).rows[0]!.status;
    expect(await status()).toBe('unknown');
    const res = await reconcile(f.admin, serial.BJ, -1);
    expect(res.json).toMatchObject({ code: 0, data: { checked: 1 } });
  });
});
