import { beijingInstant, beijingParts, DEVICE_CODE, INVOICE_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fixture, invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { applyFilingLocks } from './filing-locks.ts';

// the real month the fixture's devices are created in, taken before the clock is faked
const REAL_NOW = Date.now();

/** `day` of the month `monthsAhead` after the (real) current Beijing month, 10:00 Beijing time. */
function monthsAheadAt(monthsAhead: number, day: number): Date {
  const { year, month } = beijingParts(REAL_NOW);
  return beijingInstant({ year, month: month + monthsAhead, day, hour: 10 });
}

describe('已到锁死期: the filing lock (fake clock)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const q = () => `client_id=${f.ids.software}&sid=-1`;
  const get = (path: string) => call(t.app, 'GET', `${path}?${q()}`, { token: f.admin });
  const post = (path: string, body: unknown) =>
    call(t.app, 'POST', `${path}?${q()}`, { token: f.admin, body });
  const lockedOf = async (id: number) =>
    (await t.db.execute<{ locked: boolean }>(sql`select locked from tax_devices where id = ${id}`)).rows[0]!
      .locked;
  const filingOf = async (id: number) =>
    (await get('/v3/report-summary/list')).json.data.find((x: { device_id: number }) => x.device_id === id);

  /** Moves the server's clock (JavaScript Date only) to `at`; the logins made before stay valid. */
  async function travel(at: Date) {
    vi.setSystemTime(at);
    await t.db.execute(
      sql`update sessions set expires_at = ${new Date(at.getTime() + 3600_000).toISOString()}`,
    );
  }

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    // the UKey arrives on the 2nd of next month: it has nothing to file for this month
    await t.db.execute(
      sql`update tax_devices set created_at = ${monthsAheadAt(1, 2).toISOString()} where id = ${f.ids.ukey}`,
    );
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('in next month’s window nothing locks; liable discs show 已到抄税期, the new UKey does not', async () => {
    await travel(monthsAheadAt(1, 5));
    const check = (await get('/v3/equipment/check-tax')).json.data;
    expect(check.devices.every((d: { locked: boolean }) => !d.locked)).toBe(true);
    expect(await filingOf(f.ids.goldenMain)).toMatchObject({ copy_due: true, lock_due: false });
    expect(await filingOf(f.ids.ukey)).toMatchObject({ copy_due: false, lock_due: false });
  });

  it('after the 15th a liable disc is locked and refused for issuing; the new UKey and 数电 account are not', async () => {
    await travel(monthsAheadAt(1, 20));
    // the sweep job's work (all businesses): the software company's discs and the hotel's 税控盘
    expect(await applyFilingLocks(t.db)).toBeGreaterThanOrEqual(3);
    expect(await lockedOf(f.ids.hotelDisc)).toBe(true);
    // the same rule applied lazily when devices are read finds nothing more to do
    expect(await applyFilingLocks(t.db, new Date(), f.ids.software)).toBe(0);
    expect(await filingOf(f.ids.goldenMain)).toMatchObject({ lock_due: true, locked: true });
    expect(await filingOf(f.ids.ukey)).toMatchObject({ lock_due: false, locked: false });
    expect(await lockedOf(f.ids.digital)).toBe(false);

    const refused = await f.issue(payload(f.ids.goldenMain, { invoiceType: '007' }));
    expect(refused.json.code).toBe(INVOICE_CODE.DEVICE_LOCKED);
    expect((await f.issue(payload(f.ids.ukey, { invoiceType: '026' }))).json.code).toBe(0);
    expect((await f.issue(payload(f.ids.digital))).json.code).toBe(0);
    const check = (await get('/v3/equipment/check-tax')).json.data;
    expect(check.devices.find((d: { device_id: number }) => d.device_id === f.ids.goldenMain)).toMatchObject({
      locked: true,
      message: '设备已锁死，请完成抄税清卡',
    });
  });

  it('a read applies a due lock without the job (no cron precision needed)', async () => {
    await t.db.execute(sql`update tax_devices set locked = false where id = ${f.ids.goldenBranch}`);
    const list = (await get('/v3/client/client-equ-list')).json.data;
    expect(list.find((d: { device_id: number }) => d.device_id === f.ids.goldenBranch).locked).toBe(true);
  });

  it('清卡 of the overdue period lifts the lock, and it stays lifted', async () => {
    const clearFirst = await post('/v3/report-summary/clear', { device_id: f.ids.goldenMain });
    expect(clearFirst.json.code).toBe(DEVICE_CODE.FILING_NOT_COPIED);
    expect((await post('/v3/report-summary/copy', { device_id: f.ids.goldenMain })).json.code).toBe(0);
    expect(await lockedOf(f.ids.goldenMain)).toBe(true);
    expect((await post('/v3/report-summary/clear', { device_id: f.ids.goldenMain })).json.code).toBe(0);
    expect(await lockedOf(f.ids.goldenMain)).toBe(false);
    expect(await applyFilingLocks(t.db)).toBe(0);
    expect(await filingOf(f.ids.goldenMain)).toMatchObject({ lock_due: false, locked: false });
    expect((await f.issue(payload(f.ids.goldenMain, { invoiceType: '007' }))).json.code).toBe(0);
    // the new UKey may not file a period it did not exist in
    expect((await post('/v3/report-summary/copy', { device_id: f.ids.ukey })).json.code).toBe(
      DEVICE_CODE.FILING_OUT_OF_WINDOW,
    );
  });
});
