import { RED_CODE, SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fixture, invoicingFixture, line, payload } from '../../../test/fixtures/invoices.ts';
import { type RedKit, redKit, refusal } from '../../../test/fixtures/red-info.ts';
import { buildTestApp } from '../../../test/helper.ts';

/**
 * 作废 (domain.md §3.1; service.ts voidInvoice, shared voidRefusal): a blue paper invoice, in the
 * Beijing calendar month it was issued (year included), with no red invoice or form reserving it,
 * while its device is online. The month rule reads the JavaScript clock, which these tests set
 * (vitest fakes Date only); the invoice's issue time is set in the database.
 */
describe('作废: what may be voided', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let k: RedKit;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    k = redKit(t, f);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Issued (in real time), then dated `issuedAt` in the database. */
  const invoice = async (issuedAt: string, invoiceType = '007', device = f.ids.goldenMain) => {
    const id = await k.blue({ invoiceType }, device);
    await t.db.execute(sql`update invoices set issued_at = ${issuedAt} where id = ${id}`);
    return id;
  };
  /** The server's clock (JavaScript Date only) reads `now` from here on. */
  const clockAt = (now: string) => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date(now));
  };
  const voidAt = async (id: number, now: string, o: { sid?: number; token?: string } = {}) => {
    clockAt(now);
    try {
      return await k.voidCall({ invoice_id: id, reason: '购买方信息填写错误' }, o);
    } finally {
      vi.useRealTimers();
    }
  };
  const expectVoided = async (id: number, res: Awaited<ReturnType<typeof voidAt>>) => {
    expect(res.json, res.json.message).toMatchObject({ code: 0, data: { invoice_id: id, status: 'voided' } });
    expect((await k.blueRow(id)).status).toBe('voided');
    const told = await t.db.execute<{ voided_at: Date | null }>(
      sql`select voided_at from sandbox_invoice_states where invoice_id = ${id}`,
    );
    expect(told.rows[0]?.voided_at).toBeTruthy();
  };
  /** Refused with `code`, and nothing changed: not voided, the bureau not told, no event. */
  const expectRefused = async (id: number, code: number, call: () => ReturnType<typeof voidAt>) => {
    const voidedEvents = async () =>
      (
        await t.db.execute(
          sql`select id from invoice_events where invoice_id = ${id} and kind = 'voided' order by id`,
        )
      ).rows;
    const before = { all: await k.snapshot(id), voided: await voidedEvents() };
    const res = await call();
    expect(res.json, `invoice ${id}`).toMatchObject(refusal(code));
    expect({ all: await k.snapshot(id), voided: await voidedEvents() }).toEqual(before);
  };

  const MARCH = '2026-03-10T10:00:00+08:00';
  const LATER_IN_MARCH = '2026-03-20T10:00:00+08:00';

  it('only in the Beijing calendar month of issue: across a year end, a year apart, and at the UTC edges', async () => {
    const refused: [string, string, string][] = [
      [
        'December invoice voided on New Year’s night',
        '2025-12-31T23:30:00+08:00',
        '2026-01-01T00:10:00+08:00',
      ],
      ['the same month number a year later', '2025-01-15T10:00:00+08:00', '2026-01-20T10:00:00+08:00'],
      ['the same month number a year earlier', '2027-03-05T10:00:00+08:00', '2026-03-20T10:00:00+08:00'],
      // both instants are in January in UTC, but Beijing is already in February
      [
        '31 January 23:30 voided at 00:10 on 1 February',
        '2026-01-31T23:30:00+08:00',
        '2026-02-01T00:10:00+08:00',
      ],
      ['last month', '2026-02-27T10:00:00+08:00', '2026-03-02T10:00:00+08:00'],
    ];
    for (const [name, issuedAt, now] of refused) {
      const id = await invoice(issuedAt);
      await expectRefused(id, RED_CODE.VOID_PAST_MONTH, () => voidAt(id, now));
      expect((await k.blueRow(id)).status, name).toBe('issued');
    }

    const allowed: [string, string, string][] = [
      // UTC: issued in January, voided in February; Beijing: both in February
      [
        '1 February 00:30 Beijing (31 January in UTC)',
        '2026-02-01T00:30:00+08:00',
        '2026-02-20T10:00:00+08:00',
      ],
      ['first and last minute of a month', '2026-03-01T00:00:00+08:00', '2026-03-31T23:59:00+08:00'],
      ['December, still December', '2025-12-01T09:00:00+08:00', '2025-12-31T23:59:00+08:00'],
    ];
    for (const [name, issuedAt, now] of allowed) {
      const id = await invoice(issuedAt);
      const res = await voidAt(id, now);
      expect(res.json.code, name).toBe(0);
      await expectVoided(id, res);
    }
  });

  it('paper kinds only: 数电 and the electronic kinds are refused, 专票, 普票 and 卷票 on paper are voided', async () => {
    const electronic: [string, number][] = [
      ['82', f.ids.digital],
      ['81', f.ids.digital],
      ['026', f.ids.ukey],
      ['028', f.ids.ukey],
    ];
    for (const [type, device] of electronic) {
      const id = await invoice(MARCH, type, device);
      await expectRefused(id, RED_CODE.VOID_ELECTRONIC, () => voidAt(id, LATER_IN_MARCH));
    }
    for (const [type, device] of [
      ['004', f.ids.ukey],
      ['007', f.ids.ukey],
      ['004', f.ids.goldenMain],
      ['025', f.ids.goldenMain],
    ] as const) {
      const id = await invoice(MARCH, type, device);
      await expectVoided(id, await voidAt(id, LATER_IN_MARCH));
    }
  });

  it('refused while a red invoice or a red form holds any part of it; allowed once the form is revoked', async () => {
    // partly reddened: a 普票 reversal without a form, issued
    const partly = await invoice(MARCH);
    const part = await k.red('apply', {
      invoice_id: partly,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '10.60' }],
    });
    expect(part.json.data.red_invoice).toMatchObject({ status: 'issued' });
    expect(await k.blueRow(partly)).toMatchObject({ red_status: 'partial' });
    await expectRefused(partly, RED_CODE.VOID_REDDENED, () => voidAt(partly, LATER_IN_MARCH));

    // fully reddened
    const fully = await invoice(MARCH);
    expect((await k.red('apply', { invoice_id: fully, reason: '01', full: true })).json.code).toBe(0);
    expect(await k.blueRow(fully)).toMatchObject({ red_status: 'full' });
    await expectRefused(fully, RED_CODE.VOID_REDDENED, () => voidAt(fully, LATER_IN_MARCH));

    // reserved: a 信息表 approved but not issued (no red invoice yet)
    const reserved = await invoice(MARCH, '004');
    const sheet = await k.red('apply', { invoice_id: reserved, reason: '01', full: true });
    expect(sheet.json.data).toMatchObject({ state: 'approved', red_invoice: null });
    await expectRefused(reserved, RED_CODE.VOID_REDDENED, () => voidAt(reserved, LATER_IN_MARCH));

    // its red invoice failed at the bureau: the form still reserves
    await f.dev('control', { device_id: f.ids.goldenMain, fault: 'error', fault_count: 1 });
    const failed = await k.red('issue', { form_id: sheet.json.data.form_id });
    expect(failed.json.data.red_invoice).toMatchObject({ status: 'failed' });
    await expectRefused(reserved, RED_CODE.VOID_REDDENED, () => voidAt(reserved, LATER_IN_MARCH));

    // revoked, the form no longer reserves and the failed red never counted: it may be voided
    expect((await k.red('revoke', { form_id: sheet.json.data.form_id })).json.data.state).toBe('revoked');
    await expectVoided(reserved, await voidAt(reserved, LATER_IN_MARCH));

    // a red invoice without a form (older history) still being issued holds it too
    const inFlight = await invoice(MARCH);
    await t.db.execute(sql`
      insert into invoices (client_id, store_id, device_id, serial_no, request_hash, invoice_type, direction, status,
        buyer_name, seller_name, seller_tax_code, total_amount, total_tax, total_with_tax, original_invoice_id)
      select client_id, store_id, device_id, ${`HIST-${inFlight}`}, 'history', invoice_type, 'red', 'issuing',
        buyer_name, seller_name, seller_tax_code, -10.00, -0.60, -10.60, id
      from invoices where id = ${inFlight}`);
    await expectRefused(inFlight, RED_CODE.VOID_REDDENED, () => voidAt(inFlight, LATER_IN_MARCH));
    // once the bureau refused that red, nothing holds it
    await t.db.execute(sql`update invoices set status = 'failed' where serial_no = ${`HIST-${inFlight}`}`);
    await expectVoided(inFlight, await voidAt(inFlight, LATER_IN_MARCH));
  });

  it('refused while the device is offline; voided once it is back', async () => {
    const id = await invoice(MARCH);
    await f.dev('device', { device_id: f.ids.goldenMain, online: false });
    try {
      await expectRefused(id, RED_CODE.VOID_DEVICE_OFFLINE, () => voidAt(id, LATER_IN_MARCH));
    } finally {
      await f.dev('device', { device_id: f.ids.goldenMain, online: true });
    }
    await expectVoided(id, await voidAt(id, LATER_IN_MARCH));
  });

  it('the bureau is told first: a void it holds but we never recorded (a crash between) is voided again harmlessly, its first void kept', async () => {
    const id = await invoice(MARCH);
    const row = (
      await t.db.execute<{ invoice_code: string; invoice_no: string }>(
        sql`select invoice_code, invoice_no from invoices where id = ${id}`,
      )
    ).rows[0]!;
    const ref = { clientId: f.ids.software, invoiceCode: row.invoice_code, invoiceNo: row.invoice_no };
    const told = await t.app.taxChannel.voidInvoice({ ...ref, deviceId: f.ids.goldenMain, reason: '开错' });
    expect(told).toMatchObject({ status: 'voided' });
    expect((await k.blueRow(id)).status).toBe('issued');
    await expectVoided(id, await voidAt(id, LATER_IN_MARCH));
    const states = await t.db.execute<{ voided_at: string; void_reason: string }>(
      sql`select voided_at, void_reason from sandbox_invoice_states where invoice_id = ${id}`,
    );
    expect(states.rows.map((r) => [new Date(r.voided_at).getTime(), r.void_reason])).toEqual([
      [told.status === 'voided' && told.voidedAt.getTime(), '开错'],
    ]);
    // an invoice the bureau never issued is refused with its code and words
    expect(
      await t.app.taxChannel.voidInvoice({
        ...ref,
        invoiceNo: '99999999',
        deviceId: f.ids.goldenMain,
        reason: 'x',
      }),
    ).toEqual({ status: 'refused', bureauCode: 'E4301', message: '税局无此发票' });
  });

  it('only an issued blue invoice of the selected store: not a voided, failed or red one, not another store’s', async () => {
    const id = await invoice(MARCH);
    await expectVoided(id, await voidAt(id, LATER_IN_MARCH));
    await expectRefused(id, RED_CODE.VOID_NOT_ISSUED, () => voidAt(id, LATER_IN_MARCH));

    // the red invoice of a 普票 reversal
    const reddened = await invoice(MARCH);
    const red = await k.red('apply', {
      invoice_id: reddened,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '1.06' }],
    });
    const redId = red.json.data.red_invoice.invoice_id as number;
    await t.db.execute(sql`update invoices set issued_at = ${MARCH} where id = ${redId}`);
    await expectRefused(redId, RED_CODE.VOID_NOT_ISSUED, () => voidAt(redId, LATER_IN_MARCH));

    // the bureau refused it: never issued
    await f.dev('control', { device_id: f.ids.goldenMain, fault: 'error', fault_count: 1 });
    const body = payload(f.ids.goldenMain, { invoiceType: '007', lines: [line('106.00')] });
    await f.issue(body);
    const failed = await t.db.execute<{ id: string; status: string }>(
      sql`select id, status from invoices where serial_no = ${body.serial_no}`,
    );
    expect(failed.rows[0]?.status).toBe('failed');
    const failedId = Number(failed.rows[0]!.id);
    await expectRefused(failedId, RED_CODE.VOID_NOT_ISSUED, () => voidAt(failedId, LATER_IN_MARCH));

    // 滨江's invoice (its branch disc): not from 文三路总部, neither for the admin nor the HQ clerk
    const bj = await f.issue(payload(f.ids.goldenBranch, { invoiceType: '007' }), { sid: f.ids.bj });
    expect(bj.json.code, bj.json.message).toBe(0);
    const bjId = bj.json.data.invoice_id as number;
    await t.db.execute(sql`update invoices set issued_at = ${MARCH} where id = ${bjId}`);
    for (const o of [{}, { token: f.clerk }]) {
      const before = await k.snapshot(bjId);
      const res = await voidAt(bjId, LATER_IN_MARCH, o);
      expect(res.json).toMatchObject({ code: SESSION_CODE.STORE_NOT_PERMITTED, message: '无权限操作该门店' });
      expect(await k.snapshot(bjId)).toEqual(before);
    }
    await expectVoided(bjId, await voidAt(bjId, LATER_IN_MARCH, { sid: f.ids.bj }));
  });
});
