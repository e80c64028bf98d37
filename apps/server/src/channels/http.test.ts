import { beijingParts, INVOICE_CODE, invoiceQrText, messageFor, RED_CODE } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type BureauProcess,
  bureauBuyerUse,
  bureauDevice,
  bureauNumbers,
  bureauSerial,
  registerDevice,
  setFault,
  startBureau,
} from '../../test/bureau.ts';
import { type Fixture, invoicingFixture, payload } from '../../test/fixtures/invoices.ts';
import { type RedKit, redKit } from '../../test/fixtures/red-info.ts';
import { buildTestApp, call } from '../../test/helper.ts';
import { invoices } from '../db/schema/index.ts';
import { UNKNOWN_MESSAGE } from '../modules/invoices/issue/channel-call.ts';
import { BUREAU_ERRORS, BUREAU_VOID_ERRORS } from './bureau/server.ts';
import { BUREAU_CODE_TO_OURS, HttpTaxChannel } from './http.ts';
import { isInDatabase } from './in-database.ts';

/**
 * The tax channel port spoken over HTTP (issue 19 item 1): the app with KAIPIAO_TAX_CHANNEL_URL
 * issues through channels/http.ts to the sandbox bureau, a process of its own started here
 * (test/bureau.ts). Everything goes through the app's routes: issuing, the bureau's refusals, its
 * faults, time-outs, and the unknown outcome settled by reconciliation; red-letter forms steered by
 * the buyer's use the bureau knows of, and voids the bureau does, refuses or leaves unknown.
 */

/** the app's per-call time-out towards the bureau */
const TIMEOUT_MS = 1500;

let bureau: BureauProcess;
let t: Awaited<ReturnType<typeof buildTestApp>>;
let f: Fixture;
/** the sandbox's own records before the tests: the HTTP channel must leave them alone */
let sandboxBefore: { issues: number; seq: number; stock: number; states: number };

const sandboxState = async () =>
  (
    await t.db.execute<{ issues: string; seq: string; stock: string; states: string }>(sql`
      select (select count(*) from channel_sandbox_issues) as issues,
        (select coalesce(sum(last_seq), 0) from channel_number_counters) as seq,
        (select coalesce(sum(next_no), 0) from channel_number_ranges) as stock,
        (select count(*) from sandbox_invoice_states) as states`)
  ).rows.map((r) => ({
    issues: Number(r.issues),
    seq: Number(r.seq),
    stock: Number(r.stock),
    states: Number(r.states),
  }))[0]!;

beforeAll(async () => {
  bureau = await startBureau();
  t = await buildTestApp({
    env: { KAIPIAO_TAX_CHANNEL_URL: bureau.url, KAIPIAO_TAX_CHANNEL_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  f = await invoicingFixture(t.app, t.db);
  sandboxBefore = await sandboxState();
  await registerDevice(bureau.url, t.db, f.ids.digital);
  await registerDevice(bureau.url, t.db, f.ids.ukey);
});

// the bureau a test restarted (the first one is startBureau's to kill)
afterAll(() => bureau?.kill());

afterEach(async () => {
  // the bureau's devices as our database has them, faults cleared (invoices and numbers stay)
  for (const id of [f.ids.digital, f.ids.ukey]) {
    await setFault(bureau.url, id, 'none');
    await registerDevice(bureau.url, t.db, id);
  }
});

const rowOf = async (serialNo: string) =>
  (await t.db.select().from(invoices).where(eq(invoices.serialNo, serialNo)))[0]!;
const rowsOf = (serialNo: string) => t.db.select().from(invoices).where(eq(invoices.serialNo, serialNo));
const result = (serialNo: string) =>
  call(
    t.app,
    'GET',
    `/v3/online-invoicing/result?${f.scope(f.ids.software, f.ids.hq)}&serial_no=${serialNo}`,
    {
      token: f.admin,
    },
  );
const reconcile = async (serialNo: string) => {
  const res = await call(
    t.app,
    'POST',
    `/v3/online-invoicing/reconcile?${f.scope(f.ids.software, f.ids.hq)}`,
    {
      token: f.admin,
      body: { serial_no: serialNo },
    },
  );
  expect(res.json.code, res.json.message).toBe(0);
  return res.json.data as {
    checked: number;
    issued: number;
    failed: number;
    pending: number;
    results: any[];
  };
};
/** what the bureau itself holds for a serial of the software business */
const atBureau = (serialNo: string) => bureauSerial(bureau.url, f.ids.software, serialNo);
/** the QR text the shared rule makes of the stored invoice */
const qrOf = (row: Awaited<ReturnType<typeof rowOf>>) =>
  invoiceQrText({
    invoiceType: row.invoiceType,
    invoiceCode: row.invoiceCode,
    invoiceNo: row.invoiceNo!,
    checkCode: row.checkCode,
    totalAmount: row.totalAmount,
    totalWithTax: row.totalWithTax,
    issueDate: row.issuedAt!,
  });
/** the invoice stored on our side carries exactly the bureau's numbers and a QR text made of them */
async function expectBureauNumbers(serialNo: string) {
  const known = await atBureau(serialNo);
  expect(known.state).toBe('issued');
  const row = await rowOf(serialNo);
  expect(row).toMatchObject({
    status: 'issued',
    invoiceCode: known.invoice.invoiceCode,
    invoiceNo: known.invoice.invoiceNo,
    checkCode: known.invoice.checkCode,
    issuedAt: new Date(known.invoice.issuedAt),
  });
  expect(row.qrString).not.toBe('');
  expect(row.qrString).toBe(qrOf(row));
  return { row, bureau: known.invoice };
}

describe('the app issues through the bureau process', () => {
  it('app.taxChannel is the HTTP channel, with none of the in-database strategies', () => {
    expect(t.app.taxChannel).toBeInstanceOf(HttpTaxChannel);
    expect(isInDatabase(t.app.taxChannel)).toBe(false);
    expect((t.app.taxChannel as HttpTaxChannel).timeoutMs).toBe(TIMEOUT_MS);
  });

  it('a 数电 invoice is issued with the bureau’s 20-digit number, stored with its QR text', async () => {
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json.code, res.json.message).toBe(0);
    const { row, bureau: b } = await expectBureauNumbers(body.serial_no);
    // yy + area 33 + channel digit 2 + 15-digit sequence
    expect(b.invoiceNo).toMatch(
      new RegExp(`^${String(beijingParts().year % 100).padStart(2, '0')}332\\d{15}$`),
    );
    expect(row.invoiceCode).toBe('');
    expect(res.json.data).toMatchObject({
      status: 'issued',
      invoice_id: row.id,
      invoice_code: '',
      invoice_no: b.invoiceNo,
      issued_at: b.issuedAt,
    });
    expect((await result(body.serial_no)).json.data).toMatchObject({
      status: 'issued',
      invoice_no: b.invoiceNo,
    });
  });

  it('an older kind (026 on the UKey) is issued with the bureau’s code, 8-digit number and check code', async () => {
    const body = payload(f.ids.ukey, { invoiceType: '026' });
    const res = await f.issue(body);
    expect(res.json.code, res.json.message).toBe(0);
    const { row, bureau: b } = await expectBureauNumbers(body.serial_no);
    expect(b.invoiceCode).toMatch(/^\d{12}$/);
    expect(b.invoiceNo).toMatch(/^\d{8}$/);
    expect(b.checkCode).toMatch(/^\d{20}$/);
    expect(res.json.data).toMatchObject({ invoice_code: b.invoiceCode, invoice_no: b.invoiceNo });
    expect(row.qrString).toContain(b.invoiceCode);
  });

  it('the same serial twice is one invoice, and the bureau counts it once', async () => {
    const body = payload(f.ids.digital);
    const before = await bureauDevice(bureau.url, f.ids.digital);
    const first = await f.issue(body);
    const again = await f.issue(body);
    expect(first.json.code).toBe(0);
    expect(again.json).toEqual(first.json);
    expect(await rowsOf(body.serial_no)).toHaveLength(1);
    const after = await bureauDevice(bureau.url, f.ids.digital);
    expect(Number(after.quotaUsed) - Number(before.quotaUsed)).toBe(Number(body.invoice_info.total_amount));
    // the bureau itself answers a repeated serial with the invoice it already made
    const repeat = await t.app.taxChannel.issue({
      clientId: f.ids.software,
      deviceId: f.ids.digital,
      serialNo: body.serial_no,
      invoiceType: '82',
      totalAmount: body.invoice_info.total_amount,
      totalWithTax: body.invoice_info.total_price_with_tax,
    });
    expect(repeat).toMatchObject({ status: 'issued', invoiceNo: first.json.data.invoice_no });
  });

  it('every refusal code the bureau documents maps to one of ours; its system error stays CHANNEL_ERROR', () => {
    for (const [name, e] of Object.entries(BUREAU_ERRORS)) {
      const ours = BUREAU_CODE_TO_OURS[e.code];
      if (name === 'BAD_REQUEST' || name === 'BUSY') expect(ours, name).toBeUndefined();
      else expect(ours, name).toBeGreaterThan(0);
    }
  });
});

describe('the bureau’s refusals', () => {
  const refusals = [
    {
      what: 'the device is offline at the bureau',
      device: () => f.ids.digital,
      body: () => payload(f.ids.digital),
      at: { online: false },
      code: INVOICE_CODE.DEVICE_OFFLINE,
      bureau: BUREAU_ERRORS.DEVICE_OFFLINE,
    },
    {
      what: 'the month’s quota at the bureau is used up',
      device: () => f.ids.digital,
      body: () => payload(f.ids.digital),
      at: { monthlyQuota: '10000.00', quotaUsed: '9500.00' },
      code: INVOICE_CODE.QUOTA_EXCEEDED,
      bureau: BUREAU_ERRORS.QUOTA,
    },
    {
      what: 'the UKey holds no 026 blanks at the bureau',
      device: () => f.ids.ukey,
      body: () => payload(f.ids.ukey, { invoiceType: '026' }),
      at: { stock: { '026': 0 } },
      code: INVOICE_CODE.STOCK_EXHAUSTED,
      bureau: BUREAU_ERRORS.STOCK,
    },
  ];
  for (const r of refusals) {
    it(`${r.what}: failed with our code and the bureau’s words, nothing issued; the retry issues`, async () => {
      await registerDevice(bureau.url, t.db, r.device(), r.at);
      const before = await bureauDevice(bureau.url, r.device());
      const body = r.body();
      const res = await f.issue(body);
      expect(res.json).toMatchObject({
        code: r.code,
        message: messageFor(r.code),
        data: { status: 'failed', invoice_no: null, error_message: r.bureau.message },
      });
      expect(await rowOf(body.serial_no)).toMatchObject({
        status: 'failed',
        invoiceNo: null,
        errorCode: r.bureau.code,
        errorMessage: r.bureau.message,
      });
      expect(await atBureau(body.serial_no)).toEqual({ state: 'not_issued' });
      expect(await bureauDevice(bureau.url, r.device())).toEqual(before);

      await registerDevice(bureau.url, t.db, r.device());
      const retry = await f.issue(body);
      expect(retry.json.code, retry.json.message).toBe(0);
      await expectBureauNumbers(body.serial_no);
    });
  }
});

describe('the bureau’s faults', () => {
  it('error: failed with the bureau’s words and code; the same serial again is issued', async () => {
    await setFault(bureau.url, f.ids.digital, 'error');
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json).toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
      message: `开票失败，税局返回：${BUREAU_ERRORS.BUSY.message}（${BUREAU_ERRORS.BUSY.code}）`,
      data: { status: 'failed', error_message: BUREAU_ERRORS.BUSY.message },
    });
    expect(await rowOf(body.serial_no)).toMatchObject({
      status: 'failed',
      errorCode: BUREAU_ERRORS.BUSY.code,
    });
    expect(await atBureau(body.serial_no)).toEqual({ state: 'not_issued' });

    const retry = await f.issue(body);
    expect(retry.json.code, retry.json.message).toBe(0);
    expect(retry.json.data.invoice_id).toBe((await rowOf(body.serial_no)).id);
    await expectBureauNumbers(body.serial_no);
  });

  it('an error code the bureau does not document is CHANNEL_ERROR with its code and words', async () => {
    await setFault(bureau.url, f.ids.digital, 'error', { code: 'E7777', message: '纳税人状态异常' });
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json).toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
      message: '开票失败，税局返回：纳税人状态异常（E7777）',
    });
  });

  it('slow-issued: the answer is CHANNEL_TIMEOUT (unknown); reconciliation finds the bureau’s invoice', async () => {
    await setFault(bureau.url, f.ids.digital, 'slow-issued');
    const body = payload(f.ids.digital);
    const started = Date.now();
    const res = await f.issue(body);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(res.json).toMatchObject({
      code: INVOICE_CODE.CHANNEL_TIMEOUT,
      message: messageFor(INVOICE_CODE.CHANNEL_TIMEOUT),
      data: { status: 'unknown', invoice_no: null, error_message: UNKNOWN_MESSAGE },
    });
    expect(await rowOf(body.serial_no)).toMatchObject({ status: 'unknown', errorCode: 'timeout' });
    expect((await result(body.serial_no)).json.data.status).toBe('unknown');
    // the bureau did issue
    const known = await atBureau(body.serial_no);
    expect(known.state).toBe('issued');

    const settled = await reconcile(body.serial_no);
    expect(settled).toMatchObject({ checked: 1, issued: 1, failed: 0, pending: 0 });
    expect(settled.results[0]).toMatchObject({ status: 'issued', invoice_no: known.invoice.invoiceNo });
    await expectBureauNumbers(body.serial_no);
    expect((await result(body.serial_no)).json.data).toMatchObject({
      status: 'issued',
      invoice_no: known.invoice.invoiceNo,
    });
  });

  it('lost: unknown; reconciliation finds nothing issued (failed); the same serial again is issued', async () => {
    await setFault(bureau.url, f.ids.digital, 'lost');
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json).toMatchObject({ code: INVOICE_CODE.CHANNEL_TIMEOUT, data: { status: 'unknown' } });
    expect(await rowOf(body.serial_no)).toMatchObject({ status: 'unknown', errorCode: 'timeout' });
    expect(await atBureau(body.serial_no)).toEqual({ state: 'not_issued' });

    const settled = await reconcile(body.serial_no);
    expect(settled).toMatchObject({ checked: 1, issued: 0, failed: 1, pending: 0 });
    expect(await rowOf(body.serial_no)).toMatchObject({
      status: 'failed',
      invoiceNo: null,
      errorCode: 'not_issued',
    });

    const retry = await f.issue(body);
    expect(retry.json.code, retry.json.message).toBe(0);
    await expectBureauNumbers(body.serial_no);
  });

  it('unknown: pending while the bureau cannot show the invoice, then issued with its number', async () => {
    await setFault(bureau.url, f.ids.digital, 'unknown', { visibleAfterMs: 1500 });
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json).toMatchObject({ code: INVOICE_CODE.CHANNEL_TIMEOUT, data: { status: 'unknown' } });
    expect(await rowOf(body.serial_no)).toMatchObject({ status: 'unknown', errorCode: 'unknown' });

    expect(await reconcile(body.serial_no)).toMatchObject({ checked: 1, pending: 1, issued: 0, failed: 0 });
    expect((await result(body.serial_no)).json.data.status).toBe('unknown');
    // the same serial again meanwhile: still to be confirmed, never a second invoice
    const again = await f.issue(body);
    expect(again.json).toMatchObject({ code: INVOICE_CODE.CHANNEL_TIMEOUT, data: { status: 'unknown' } });

    let settled = await reconcile(body.serial_no);
    for (let i = 0; settled.pending > 0 && i < 40; i++) {
      await new Promise((r) => setTimeout(r, 100));
      settled = await reconcile(body.serial_no);
    }
    expect(settled).toMatchObject({ checked: 1, issued: 1 });
    await expectBureauNumbers(body.serial_no);
    expect(await rowsOf(body.serial_no)).toHaveLength(1);
  });

  for (const [how, opts] of [
    ['the connection is reset', {}],
    ['the bureau answers 503', { httpStatus: 503 }],
  ] as const) {
    it(`down (${how}): unknown; reconciliation finds nothing issued; the retry issues`, async () => {
      await setFault(bureau.url, f.ids.digital, 'down', opts);
      const body = payload(f.ids.digital);
      const res = await f.issue(body);
      expect(res.json).toMatchObject({ code: INVOICE_CODE.CHANNEL_TIMEOUT, data: { status: 'unknown' } });
      expect(await rowOf(body.serial_no)).toMatchObject({ status: 'unknown', errorCode: 'unknown' });
      expect(await reconcile(body.serial_no)).toMatchObject({ checked: 1, failed: 1 });
      expect((await f.issue(body)).json.code).toBe(0);
      await expectBureauNumbers(body.serial_no);
    });
  }
});

describe('red-letter work and voids through the bureau', () => {
  let k: RedKit;
  beforeAll(() => {
    k = redKit(t, f);
  });

  /** An invoice issued through the bureau: our id and its numbers, the bureau's key of it. */
  const issued = async (body: ReturnType<typeof payload>) => {
    const res = await f.issue(body);
    expect(res.json.code, res.json.message).toBe(0);
    const row = await rowOf(body.serial_no);
    return {
      id: row.id,
      ref: { clientId: f.ids.software, invoiceCode: row.invoiceCode, invoiceNo: row.invoiceNo! },
    };
  };
  /** a paper 普票 (007) on the UKey: what may be voided */
  const paper = () => issued(payload(f.ids.ukey, { invoiceType: '007' }));
  const REASON = '购买方信息填写错误';
  const voidIt = (id: number) => k.voidCall({ invoice_id: id, reason: REASON });
  const voidedEvents = async (id: number) =>
    (await t.db.execute(sql`select id from invoice_events where invoice_id = ${id} and kind = 'voided'`)).rows
      .length;

  it('void: the bureau voids the paper invoice, then ours is voided with its event; again is ours to refuse', async () => {
    const { id, ref } = await paper();
    expect((await bureauNumbers(bureau.url, ref)).voidedAt).toBeNull();
    const res = await voidIt(id);
    expect(res.json, res.json.message).toMatchObject({ code: 0, data: { invoice_id: id, status: 'voided' } });
    expect((await k.blueRow(id)).status).toBe('voided');
    expect(await voidedEvents(id)).toBe(1);
    expect(await bureauNumbers(bureau.url, ref)).toMatchObject({
      voidedAt: expect.any(String),
      voidReason: REASON,
    });
    expect((await voidIt(id)).json.code).toBe(RED_CODE.VOID_NOT_ISSUED);
  });

  it('refused by the bureau (the device is offline there): 18025 with its words and code, nothing of ours changed; voided once it is back', async () => {
    const { id, ref } = await paper();
    await registerDevice(bureau.url, t.db, f.ids.ukey, { online: false });
    const before = await k.snapshot(id);
    const res = await voidIt(id);
    const e = BUREAU_ERRORS.DEVICE_OFFLINE;
    expect(res.json).toMatchObject({
      code: RED_CODE.VOID_REFUSED,
      message: `作废失败，税局返回：${e.message}（${e.code}）`,
    });
    expect(await k.snapshot(id)).toEqual(before);
    expect(await voidedEvents(id)).toBe(0);
    expect((await bureauNumbers(bureau.url, ref)).voidedAt).toBeNull();

    await registerDevice(bureau.url, t.db, f.ids.ukey);
    expect((await voidIt(id)).json.code).toBe(0);
    expect((await k.blueRow(id)).status).toBe('voided');
  });

  for (const [how, fault, opts] of [
    ['the connection is reset', 'down', {}],
    ['the bureau answers 503', 'down', { httpStatus: 503 }],
    ['no answer within the time-out', 'lost', {}],
  ] as const) {
    it(`bureau down (${how}): 18026 in Chinese, nothing recorded as voided; the repeat voids`, async () => {
      const { id, ref } = await paper();
      await setFault(bureau.url, f.ids.ukey, fault, opts);
      const before = await k.snapshot(id);
      const res = await voidIt(id);
      expect(res.json.code).toBe(RED_CODE.VOID_UNKNOWN);
      expect(res.json.message).toMatch(/^未能确认税局的作废结果（.+），发票仍为已开具，请稍后重新作废$/);
      expect(await k.snapshot(id)).toEqual(before);
      expect(await voidedEvents(id)).toBe(0);
      expect((await bureauNumbers(bureau.url, ref)).voidedAt).toBeNull();

      expect((await voidIt(id)).json.code).toBe(0);
      expect((await bureauNumbers(bureau.url, ref)).voidedAt).not.toBeNull();
    });
  }

  it('the bureau voided but its answer was lost (as if we crashed after telling it): ours stays issued; voiding again records it, the bureau keeps its first void', async () => {
    const { id, ref } = await paper();
    await setFault(bureau.url, f.ids.ukey, 'unknown');
    expect((await voidIt(id)).json.code).toBe(RED_CODE.VOID_UNKNOWN);
    expect((await k.blueRow(id)).status).toBe('issued');
    const first = await bureauNumbers(bureau.url, ref);
    expect(first.voidedAt).not.toBeNull();
    // told again through the port: the same void
    expect(await t.app.taxChannel.voidInvoice({ ...ref, deviceId: f.ids.ukey, reason: 'again' })).toEqual({
      status: 'voided',
      voidedAt: new Date(first.voidedAt),
    });

    const res = await voidIt(id);
    expect(res.json, res.json.message).toMatchObject({ code: 0, data: { status: 'voided' } });
    expect((await k.blueRow(id)).status).toBe('voided');
    expect(await voidedEvents(id)).toBe(1);
    expect(await bureauNumbers(bureau.url, ref)).toMatchObject({
      voidedAt: first.voidedAt,
      voidReason: REASON,
    });
  });

  it('the bureau’s own void rules: a 数电 invoice, another device’s invoice, an invoice it never issued', async () => {
    const digital = await issued(payload(f.ids.digital));
    const { ref } = await paper();
    const port = t.app.taxChannel;
    const refused = (e: { code: string; message: string }) => ({
      status: 'refused',
      bureauCode: e.code,
      message: e.message,
    });
    expect(await port.voidInvoice({ ...digital.ref, deviceId: f.ids.digital, reason: REASON })).toEqual(
      refused(BUREAU_VOID_ERRORS.DIGITAL),
    );
    expect(await port.voidInvoice({ ...ref, deviceId: f.ids.digital, reason: REASON })).toEqual(
      refused(BUREAU_VOID_ERRORS.OTHER_DEVICE),
    );
    expect(
      await port.voidInvoice({ ...ref, invoiceNo: '99999999', deviceId: f.ids.ukey, reason: REASON }),
    ).toEqual(refused(BUREAU_VOID_ERRORS.INVOICE_UNKNOWN));
    expect((await bureauNumbers(bureau.url, ref)).voidedAt).toBeNull();
  });

  it('the buyer’s use at the bureau: a 数电 red form then waits for the buyer (02); without it the red is issued at once (01)', async () => {
    const used = await issued(payload(f.ids.digital));
    const info = async (id: number) => (await k.red('blue-info', { invoice_id: id })).json.data;
    expect((await info(used.id)).needs_confirmation).toBe(false);
    await bureauBuyerUse(bureau.url, { ...used.ref, used: true });
    expect(await t.app.taxChannel.buyerUsed(used.ref)).toBe(true);
    expect((await info(used.id)).needs_confirmation).toBe(true);
    const form = await k.red('apply', { invoice_id: used.id, reason: '01', full: true });
    expect(form.json, form.json.message).toMatchObject({ code: 0, data: { state: '02', red_invoice: null } });
    expect((await k.blueRow(used.id)).red_status).toBe('none');

    const fresh = await issued(payload(f.ids.digital));
    expect(await t.app.taxChannel.buyerUsed(fresh.ref)).toBe(false);
    const direct = await k.red('apply', { invoice_id: fresh.id, reason: '01', full: true });
    expect(direct.json, direct.json.message).toMatchObject({
      code: 0,
      data: { state: '01', red_invoice: { status: 'issued' } },
    });
    // the red invoice is the bureau's too
    expect(await atBureau(`RF${direct.json.data.form_id}`)).toMatchObject({ state: 'issued' });
    expect((await k.blueRow(fresh.id)).red_status).toBe('full');
  });

  it('the buyer’s use cannot be known: an invoice the bureau never issued, or no bureau — CHANNEL_ERROR in Chinese; a void then is unknown', async () => {
    await expect(
      t.app.taxChannel.buyerUsed({ clientId: f.ids.software, invoiceCode: '', invoiceNo: '99999999' }),
    ).rejects.toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
      message: `税局返回：${BUREAU_VOID_ERRORS.INVOICE_UNKNOWN.message}（${BUREAU_VOID_ERRORS.INVOICE_UNKNOWN.code}）`,
    });
    const nobody = new HttpTaxChannel('http://127.0.0.1:1', { timeoutMs: 500 });
    const ref = { clientId: f.ids.software, invoiceCode: '', invoiceNo: '1' };
    await expect(nobody.buyerUsed(ref)).rejects.toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
      message: expect.stringMatching(/^无法连接税局（.+）$/),
    });
    expect(await nobody.voidInvoice({ ...ref, deviceId: f.ids.ukey, reason: REASON })).toEqual({
      status: 'unknown',
      message: expect.stringMatching(/^无法连接税局（.+）$/),
    });
  });
});

describe('the bureau process goes away', () => {
  it('killed: unknown, and reconciliation leaves it pending; restarted: not issued, and the retry issues', async () => {
    const port = bureau.port;
    await bureau.kill();
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json).toMatchObject({ code: INVOICE_CODE.CHANNEL_TIMEOUT, data: { status: 'unknown' } });
    expect(await rowOf(body.serial_no)).toMatchObject({ status: 'unknown', errorCode: 'unknown' });
    // an unreachable bureau cannot say "not issued": the invoice waits
    for (let i = 0; i < 2; i++) {
      expect(await reconcile(body.serial_no)).toMatchObject({ checked: 1, pending: 1, failed: 0, issued: 0 });
    }
    expect((await rowOf(body.serial_no)).status).toBe('unknown');
    await expect(t.app.taxChannel.deviceState(f.ids.digital)).rejects.toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
    });

    // the same address again; the new process knows nothing until the devices are registered
    bureau = await startBureau({ port, afterAll: false });
    for (const id of [f.ids.digital, f.ids.ukey]) await registerDevice(bureau.url, t.db, id);
    expect(await reconcile(body.serial_no)).toMatchObject({ checked: 1, failed: 1 });
    const retry = await f.issue(body);
    expect(retry.json.code, retry.json.message).toBe(0);
    await expectBureauNumbers(body.serial_no);
    expect(await t.app.taxChannel.deviceState(f.ids.digital)).toEqual({
      deviceId: f.ids.digital,
      online: true,
      locked: false,
      active: true,
    });
  });

  it('the in-database sandbox took no part: no sandbox issue rows, counters or stock moved', async () => {
    expect(await sandboxState()).toEqual(sandboxBefore);
  });
});
