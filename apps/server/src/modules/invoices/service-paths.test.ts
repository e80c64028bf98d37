import { randomBytes } from 'node:crypto';
import {
  blueInvoiceRequestSchema,
  CODE,
  INVOICE_CODE,
  type IssueResult,
  invoiceQrText,
  messageFor,
  ratesFor,
} from '@kaipiao/shared';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fixture, invoicingFixture, line, payload } from '../../../test/fixtures/invoices.ts';
import { redKit } from '../../../test/fixtures/red-info.ts';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { holdLock, raceBehindLock } from '../../../test/race.ts';
import { allocateInvoiceNumbers } from '../../channels/numbers.ts';
import type { SandboxTaxChannel } from '../../channels/sandbox.ts';
import { invoiceEvents, invoices, users } from '../../db/schema/index.ts';
import type { IssuedFacts } from './hooks.ts';
import { issueBlue, reconcileInvoices, STALE_ISSUING_MS, UNKNOWN_MESSAGE } from './service.ts';

/**
 * The paths of issuing (service.ts) that a plain issue never takes: what the channel's refusals,
 * unknown outcomes and broken-off calls leave on the invoice and answer; a serial already issuing;
 * retries and new serials racing; reconciliation settling an invoice while its channel call waits;
 * and reconciliation's window for stranded invoices, its filters, its count under a race and the
 * e-mail wish it hands the issued hooks. Races hold a lock from a connection of the test
 * (test/race.ts): the channel call of a device whose fault row is locked waits in the channel,
 * after its invoice was made.
 */

let t: Awaited<ReturnType<typeof buildTestApp>>;
let f: Fixture;
let adminId: number;
/** what the issued hooks were told, per invoice */
const announced: { id: number; opts: IssuedFacts }[] = [];
const announce = async (_app: unknown, id: number, opts: IssuedFacts) => {
  announced.push({ id, opts });
};
const announcedFor = async (id: number) => {
  await t.app.invoiceHooks.drain();
  return announced.filter((a) => a.id === id).map((a) => a.opts);
};

beforeAll(async () => {
  t = await buildTestApp();
  f = await invoicingFixture(t.app, t.db);
  const [admin] = await t.db.select().from(users).where(eq(users.account, DEMO.admin.account));
  adminId = admin!.id;
  t.app.invoiceHooks.add(announce);
});
afterAll(() => {
  t.app.invoiceHooks.delete(announce);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.app.invoiceHooks.drain();
  for (const id of [f.ids.digital, f.ids.ukey, f.ids.hotelDigital]) {
    await f.dev('reset', { device_id: id });
    await f.dev('device', { device_id: id, online: true, locked: false, quota_used: '0' });
  }
  await t.db.execute(sql`update tax_devices set status = 'active' where status <> 'active'`);
});

const CHANNEL_REFUSAL = '开票失败，税局返回：';
const NOT_ISSUED = '税局未开具该发票，可使用原流水号重新开具';

const rowOf = async (serialNo: string) =>
  (await t.db.select().from(invoices).where(eq(invoices.serialNo, serialNo)))[0]!;
const rowsOf = (serialNo: string) => t.db.select().from(invoices).where(eq(invoices.serialNo, serialNo));
const eventsOf = async (id: number) =>
  (
    await t.db
      .select()
      .from(invoiceEvents)
      .where(eq(invoiceEvents.invoiceId, id))
      .orderBy(asc(invoiceEvents.id))
  ).map((e) => ({ kind: e.kind, detail: e.detail, userId: e.userId }));
const kindsOf = async (id: number) => (await eventsOf(id)).map((e) => e.kind);
const created = (serialNo: string, sendEmail = false) => ({
  kind: 'created',
  detail: { status: 'issuing', serial_no: serialNo, send_email: sendEmail },
  userId: adminId,
});
/** the device's next issue calls meet this fault (once unless `fault_count` says otherwise) */
const fault = (device: number, control: Record<string, unknown>) =>
  f.dev('control', { device_id: device, fault_count: 1, ...control });
/** what the bureau (the sandbox's records) knows of a serial */
const bureau = (serialNo: string, clientId = f.ids.software) =>
  t.app.taxChannel.querySerial({ clientId, serialNo });
/**
 * Locks the device's sandbox control row (a fault must be set): its next issue call waits in the
 * channel, after the invoice was made and before the channel looks at it.
 */
const holdChannel = (device: number) =>
  holdLock(t.url, 'select device_id from channel_sandbox_controls where device_id = $1 for update', [device]);
/** the last 数电 sequence number the device handed out */
const digitalSeq = async () =>
  Number(
    (
      await t.db.execute<{ n: string }>(
        sql`select coalesce(max(last_seq), 0) as n from channel_number_counters where device_id = ${f.ids.digital}`,
      )
    ).rows[0]!.n,
  );
const logCalls = (spy: { mock: { calls: unknown[][] } }, message: string) =>
  spy.mock.calls.filter((c) => c[1] === message);

describe('issuing: the channel call and its answers', () => {
  it('a business that does not exist is not found, and nothing is made', async () => {
    const req = blueInvoiceRequestSchema.parse(payload(f.ids.digital));
    await expect(
      issueBlue(t.app, { clientId: 987_654, storeId: f.ids.hq, userId: null }, req),
    ).rejects.toMatchObject({ code: CODE.NOT_FOUND });
    expect(await rowsOf(req.serial_no)).toHaveLength(0);
  });

  it('a disabled device is refused with its own code before an invoice is made', async () => {
    await t.db.execute(sql`update tax_devices set status = 'disabled' where id = ${f.ids.digital}`);
    const body = payload(f.ids.digital);
    const res = await f.issue(body);
    expect(res.json).toEqual({ code: INVOICE_CODE.DEVICE_DISABLED, message: '开票设备已停用', data: null });
    expect(await rowsOf(body.serial_no)).toHaveLength(0);
  });

  it('the same request again answers its invoice even once the device is offline; a failed one is not retried offline', async () => {
    const body = payload(f.ids.digital);
    const first = await f.issue(body);
    expect(first.json.code).toBe(0);
    await fault(f.ids.digital, { fault: 'error' });
    const refused = payload(f.ids.digital);
    expect((await f.issue(refused)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);

    await f.dev('device', { device_id: f.ids.digital, online: false });
    const again = await f.issue(body);
    expect(again.json.code).toBe(0);
    expect(again.json.data).toEqual(first.json.data);
    const retry = await f.issue(refused);
    expect(retry.json).toMatchObject({ code: INVOICE_CODE.DEVICE_OFFLINE, data: null });
    const row = await rowOf(refused.serial_no);
    expect(row.status).toBe('failed');
    expect(await kindsOf(row.id)).toEqual(['created', 'failed']);

    await f.dev('device', { device_id: f.ids.digital, online: true });
    expect((await f.issue(refused)).json.data).toMatchObject({ status: 'issued', invoice_id: row.id });
  });

  it('the last blank of an older kind goes to one retry; the next retry is refused for stock before the channel', async () => {
    await fault(f.ids.ukey, { fault: 'error', fault_count: 2 });
    const a = payload(f.ids.ukey, { invoiceType: '026' });
    const b = payload(f.ids.ukey, { invoiceType: '026' });
    expect((await f.issue(a)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    expect((await f.issue(b)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    try {
      // one blank of 026 left on the UKey
      await t.db.execute(sql`update channel_number_ranges set next_no = end_no + 1
        where device_id = ${f.ids.ukey} and invoice_type = '026'`);
      await t.db.execute(sql`update channel_number_ranges set next_no = end_no where id = (
        select min(id) from channel_number_ranges where device_id = ${f.ids.ukey} and invoice_type = '026')`);
      const stock = async () =>
        (await call(t.app, 'GET', `/v3/dev/channel/state?device_id=${f.ids.ukey}`)).json.data.stock['026'] ??
        0;
      expect(await stock()).toBe(1);

      const issued = await f.issue(a);
      expect(issued.json.code, issued.json.message).toBe(0);
      expect(issued.json.data.status).toBe('issued');
      const row = await rowOf(a.serial_no);
      // recorded in the channel's statement: the old kinds' QR text with 合计金额 and the 校验码
      expect(row.qrString).toBe(
        invoiceQrText({
          invoiceType: '026',
          invoiceCode: row.invoiceCode,
          invoiceNo: row.invoiceNo!,
          checkCode: row.checkCode,
          totalAmount: row.totalAmount,
          totalWithTax: row.totalWithTax,
          issueDate: row.issuedAt!,
        }),
      );
      expect(await stock()).toBe(0);

      const none = await f.issue(b);
      expect(none.json).toMatchObject({
        code: INVOICE_CODE.STOCK_EXHAUSTED,
        message: messageFor(INVOICE_CODE.STOCK_EXHAUSTED),
      });
      const rowB = await rowOf(b.serial_no);
      expect(rowB.status).toBe('failed');
      expect(await kindsOf(rowB.id)).toEqual(['created', 'failed']);
    } finally {
      await f.dev('stock', { device_id: f.ids.ukey, invoice_type: '026', count: 100 });
    }
  });

  it('a refusal keeps the bureau’s code and words; the retry is recorded with its e-mail wish and announced', async () => {
    await fault(f.ids.digital, { fault: 'error', fault_code: 'E1003', fault_message: '纳税人状态异常' });
    const body = payload(f.ids.digital);
    const first = await f.issue(body);
    expect(first.json).toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
      message: `${CHANNEL_REFUSAL}纳税人状态异常（E1003）`,
      data: { status: 'failed', invoice_no: null, error_message: '纳税人状态异常' },
    });
    const row = await rowOf(body.serial_no);
    expect(row).toMatchObject({ status: 'failed', errorCode: 'E1003', errorMessage: '纳税人状态异常' });

    const retry = await f.issue({ ...body, send_email: true });
    expect(retry.json.code).toBe(0);
    expect(retry.json.data).toMatchObject({ status: 'issued', invoice_id: row.id, error_message: null });
    expect(await eventsOf(row.id)).toEqual([
      created(body.serial_no),
      {
        kind: 'failed',
        detail: { code: INVOICE_CODE.CHANNEL_ERROR, bureau_code: 'E1003', message: '纳税人状态异常' },
        userId: adminId,
      },
      { kind: 'issuing', detail: { retry: true, send_email: true }, userId: adminId },
      {
        kind: 'issued',
        detail: { invoice_code: '', invoice_no: retry.json.data.invoice_no },
        userId: adminId,
      },
    ]);
    expect(await rowOf(body.serial_no)).toMatchObject({ errorCode: null, errorMessage: null });
    expect(await announcedFor(row.id)).toEqual([
      { clientId: f.ids.software, sendEmail: true, direction: 'blue', serialNo: body.serial_no },
    ]);
  });

  it('an unknown outcome keeps why (an unknown answer, a time-out) and answers that the result is to be confirmed', async () => {
    const cases = [
      ['unknown', '税局返回未知结果'],
      ['timeout', '税局响应超时'],
    ] as const;
    for (const [reason, message] of cases) {
      await fault(f.ids.digital, { fault: reason, timeout_ms: 0, unknown_visible_after_s: 0 });
      const body = payload(f.ids.digital);
      const res = await f.issue(body);
      expect(res.json).toMatchObject({
        code: INVOICE_CODE.CHANNEL_TIMEOUT,
        message: messageFor(INVOICE_CODE.CHANNEL_TIMEOUT),
        data: { status: 'unknown', invoice_no: null, error_message: UNKNOWN_MESSAGE },
      });
      const row = await rowOf(body.serial_no);
      expect(row).toMatchObject({ status: 'unknown', errorCode: reason, errorMessage: UNKNOWN_MESSAGE });
      expect(await eventsOf(row.id)).toEqual([
        created(body.serial_no),
        { kind: 'unknown', detail: { reason, message }, userId: adminId },
      ]);
    }
  });

  it('a refusal by the channel after the invoice was made answers with that refusal’s own code and words', async () => {
    await fault(f.ids.digital, { fault: 'unknown' });
    const body = payload(f.ids.digital);
    const held = await holdChannel(f.ids.digital);
    const pending = f.issue(body);
    try {
      await held.waiters(1);
      expect((await rowOf(body.serial_no)).status).toBe('issuing');
      // meanwhile the month's quota is used up (500.00 left, the invoice is 1000.00)
      await f.dev('device', { device_id: f.ids.digital, quota_used: '9999500.00' });
    } finally {
      await held.release();
    }
    const res = await pending;
    const words = messageFor(INVOICE_CODE.QUOTA_EXCEEDED);
    expect(res.json).toMatchObject({
      code: INVOICE_CODE.QUOTA_EXCEEDED,
      message: words,
      data: { status: 'failed', error_message: words },
    });
    const row = await rowOf(body.serial_no);
    expect(row).toMatchObject({ errorCode: String(INVOICE_CODE.QUOTA_EXCEEDED), errorMessage: words });
    expect((await eventsOf(row.id)).at(-1)).toEqual({
      kind: 'failed',
      detail: {
        code: INVOICE_CODE.QUOTA_EXCEEDED,
        bureau_code: String(INVOICE_CODE.QUOTA_EXCEEDED),
        message: words,
      },
      userId: adminId,
    });
    expect(await bureau(body.serial_no)).toEqual({ state: 'not_issued' });
  });

  it('a serial still issuing answers in flight (code 0); another payload under it conflicts; reconciliation leaves it to its request', async () => {
    await fault(f.ids.digital, { fault: 'unknown', unknown_visible_after_s: 0 });
    const body = payload(f.ids.digital);
    const held = await holdChannel(f.ids.digital);
    const first = f.issue(body);
    try {
      await held.waiters(1);
      const row = await rowOf(body.serial_no);
      const again = await f.issue(body);
      expect(again.json).toMatchObject({
        code: 0,
        data: {
          invoice_id: row.id,
          serial_no: body.serial_no,
          status: 'issuing',
          invoice_no: null,
          issued_at: null,
          error_message: null,
        },
      });
      const other = await f.issue({ ...body, buyer: { ...body.buyer, name: '另一家公司' } });
      expect(other.json.code).toBe(INVOICE_CODE.SERIAL_CONFLICT);
      // in flight for less than the window: not stranded
      const rec = await reconcileInvoices(t.app, { clientId: f.ids.software, serialNo: body.serial_no });
      expect(rec).toEqual({ checked: 0, issued: 0, failed: 0, pending: 0, results: [] });
    } finally {
      await held.release();
    }
    expect((await first).json).toMatchObject({
      code: INVOICE_CODE.CHANNEL_TIMEOUT,
      data: { status: 'unknown' },
    });
    expect((await f.issue(body)).json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
  });

  it('reconciliation settling an invoice while its channel call waits: the call then records and issues nothing and answers the failure', async () => {
    await fault(f.ids.digital, { fault: 'unknown', unknown_visible_after_s: 0 });
    const body = payload(f.ids.digital);
    const seq = await digitalSeq();
    const logged = vi.spyOn(t.app.log, 'error');
    const held = await holdChannel(f.ids.digital);
    const pending = f.issue(body);
    let settled: Awaited<ReturnType<typeof reconcileInvoices>> | undefined;
    try {
      await held.waiters(1);
      // its request looks dead to a reconciliation with no window
      settled = await reconcileInvoices(t.app, {
        clientId: f.ids.software,
        serialNo: body.serial_no,
        staleIssuingMs: 0,
        userId: adminId,
      });
    } finally {
      await held.release();
    }
    expect(settled).toMatchObject({
      checked: 1,
      issued: 0,
      failed: 1,
      pending: 0,
      results: [{ serial_no: body.serial_no, status: 'failed', error_message: NOT_ISSUED }],
    });
    const res = await pending;
    expect(res.json).toMatchObject({
      code: INVOICE_CODE.CHANNEL_ERROR,
      message: `开票失败：${NOT_ISSUED}`,
      data: { status: 'failed', invoice_no: null, error_message: NOT_ISSUED },
    });
    // the channel's work was undone: no invoice at the bureau, no number used
    expect(await bureau(body.serial_no)).toEqual({ state: 'not_issued' });
    expect(await digitalSeq()).toBe(seq);
    const row = await rowOf(body.serial_no);
    expect(row).toMatchObject({ status: 'failed', errorCode: 'not_issued' });
    expect(await eventsOf(row.id)).toEqual([
      created(body.serial_no),
      { kind: 'reconciled', detail: { from: 'issuing', to: 'failed' }, userId: adminId },
    ]);
    // not a broken-off call
    expect(logCalls(logged, 'tax channel call failed')).toEqual([]);
    // the clerk retries the same serial
    const retry = await f.issue(body);
    expect(retry.json.data).toMatchObject({ status: 'issued', invoice_id: row.id });
  });

  it('a channel call that breaks off leaves the invoice unknown (exception) and logs it; reconciliation then settles it', async () => {
    await t.db.execute(
      sql.raw(`create or replace function kp_test_bureau_down() returns trigger language plpgsql as $$
        begin raise exception 'connection to the bureau reset'; end $$`),
    );
    await t.db.execute(
      sql.raw(`create trigger kp_test_bureau_down before insert on channel_sandbox_issues for each row
        when (new.serial_no like 'DOWN%') execute function kp_test_bureau_down()`),
    );
    const logged = vi.spyOn(t.app.log, 'error');
    const body = { ...payload(f.ids.digital), serial_no: `DOWN${randomBytes(8).toString('hex')}` };
    let id: number;
    try {
      const res = await f.issue(body);
      expect(res.json).toMatchObject({
        code: INVOICE_CODE.CHANNEL_TIMEOUT,
        message: messageFor(INVOICE_CODE.CHANNEL_TIMEOUT),
        data: { status: 'unknown', invoice_no: null, error_message: UNKNOWN_MESSAGE },
      });
      const row = await rowOf(body.serial_no);
      id = row.id;
      expect(row).toMatchObject({ status: 'unknown', errorCode: 'exception', errorMessage: UNKNOWN_MESSAGE });
      expect(await eventsOf(id)).toEqual([
        created(body.serial_no),
        { kind: 'unknown', detail: { reason: 'exception' }, userId: adminId },
      ]);
      expect(logCalls(logged, 'tax channel call failed')).toEqual([
        [{ err: expect.any(Error), invoiceId: id }, 'tax channel call failed'],
      ]);
      expect(await bureau(body.serial_no)).toEqual({ state: 'not_issued' });
    } finally {
      await t.db.execute(sql.raw('drop trigger if exists kp_test_bureau_down on channel_sandbox_issues'));
      await t.db.execute(sql.raw('drop function if exists kp_test_bureau_down()'));
    }
    const rec = await reconcileInvoices(t.app, { clientId: f.ids.software, serialNo: body.serial_no });
    expect(rec).toMatchObject({
      checked: 1,
      failed: 1,
      results: [{ status: 'failed', error_message: NOT_ISSUED }],
    });
    const retry = await f.issue(body);
    expect(retry.json.data).toMatchObject({ status: 'issued', invoice_id: id });
  });

  it('a serial the bureau already holds is answered with that invoice and recorded as issued, without a second number', async () => {
    const body = payload(f.ids.digital);
    const issuedAt = new Date();
    const [held] = await allocateInvoiceNumbers(t.db, {
      deviceId: f.ids.digital,
      invoiceType: '82',
      count: 1,
      issuedAt,
    });
    await t.db.execute(sql`
      insert into channel_sandbox_issues
        (client_id, serial_no, device_id, invoice_type, invoice_code, invoice_no, check_code, total_amount, issued_at)
      values (${f.ids.software}, ${body.serial_no}, ${f.ids.digital}, '82', '', ${held!.invoiceNo}, '',
        ${body.invoice_info.total_amount}, ${issuedAt.toISOString()})`);
    const seq = await digitalSeq();

    const res = await f.issue(body);
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data).toMatchObject({
      status: 'issued',
      invoice_code: '',
      invoice_no: held!.invoiceNo,
      issued_at: issuedAt.toISOString(),
    });
    expect(await digitalSeq()).toBe(seq);
    const row = await rowOf(body.serial_no);
    expect(row).toMatchObject({
      status: 'issued',
      invoiceNo: held!.invoiceNo,
      errorCode: null,
      errorMessage: null,
    });
    expect(row.qrString).toBe(
      invoiceQrText({
        invoiceType: '82',
        invoiceNo: held!.invoiceNo,
        totalAmount: row.totalAmount,
        totalWithTax: row.totalWithTax,
        issueDate: row.issuedAt!,
      }),
    );
    expect(await eventsOf(row.id)).toEqual([
      created(body.serial_no),
      { kind: 'issued', detail: { invoice_code: '', invoice_no: held!.invoiceNo }, userId: adminId },
    ]);
    expect(await announcedFor(row.id)).toEqual([
      { clientId: f.ids.software, sendEmail: false, direction: 'blue', serialNo: body.serial_no },
    ]);
  });

  it('two retries of a failed invoice at once: one claims it and goes to the channel, the other answers it', async () => {
    await fault(f.ids.digital, { fault: 'error' });
    const body = payload(f.ids.digital);
    expect((await f.issue(body)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    const row = await rowOf(body.serial_no);
    const channel = vi.spyOn(t.app.taxChannel as SandboxTaxChannel, 'issueRecorded');
    const results = await raceBehindLock({
      url: t.url,
      lock: 'select id from invoices where id = $1 for update',
      params: [row.id],
      calls: [() => f.issue(body), () => f.issue(body)],
    });
    expect(results.map((r) => r.json.code)).toEqual([0, 0]);
    expect(results.map((r) => r.json.data.invoice_id)).toEqual([row.id, row.id]);
    expect(results.map((r) => r.json.data.status)).toContain('issued');
    expect(channel).toHaveBeenCalledTimes(1);
    expect(await kindsOf(row.id)).toEqual(['created', 'failed', 'issuing', 'issued']);
  });

  it('a new serial sent twice at once makes one invoice: the request that lost the insert answers it, or refuses another payload', async () => {
    // latency keeps both on the two-step path, where the second insert meets the first one's row
    await f.dev('control', { device_id: f.ids.digital, latency_ms: 1 });
    const race = (bodies: ReturnType<typeof payload>[]) =>
      raceBehindLock({
        url: t.url,
        // the invoice's foreign key to its business: the first insert waits here, the second behind it
        lock: 'select id from clients where id = $1 for update',
        params: [f.ids.software],
        calls: bodies.map((b) => () => f.issue(b)),
      });

    const body = payload(f.ids.digital);
    const same = await race([body, body]);
    expect(same.map((r) => r.json.code)).toEqual([0, 0]);
    const rows = await rowsOf(body.serial_no);
    expect(rows).toHaveLength(1);
    expect(same.map((r) => r.json.data.invoice_id)).toEqual([rows[0]!.id, rows[0]!.id]);
    expect(same.map((r) => r.json.data.status)).toContain('issued');
    expect(await kindsOf(rows[0]!.id)).toEqual(['created', 'issued']);

    const mine = payload(f.ids.digital);
    const theirs = { ...mine, buyer: { ...mine.buyer, name: '另一家公司' } };
    const other = await race([mine, theirs]);
    expect(other.map((r) => r.json.code).sort()).toEqual([0, INVOICE_CODE.SERIAL_CONFLICT]);
    expect(await rowsOf(mine.serial_no)).toHaveLength(1);
  });
});

describe('reconciliation', () => {
  /** every invoice whose outcome is open settled: a test that counts starts from none */
  const settleAll = async () => {
    await t.db.execute(sql`update channel_sandbox_issues set visible_at = now() where visible_at > now()`);
    await reconcileInvoices(t.app, { staleIssuingMs: 0 });
  };
  /** an invoice the channel answered "unknown" for (issued at the bureau, seen at once) */
  const unknownIssued = async (opts: { sid?: number; body?: ReturnType<typeof payload> } = {}) => {
    await fault(f.ids.digital, { fault: 'unknown', unknown_visible_after_s: 0 });
    const body = opts.body ?? payload(f.ids.digital);
    const res = await f.issue(body, { sid: opts.sid });
    expect(res.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    return body.serial_no;
  };

  it('an issuing invoice counts as stranded only once older than the window; it is settled to issued or failed, the event saying from where', async () => {
    await settleAll();
    // a: the bureau issued it; b: the bureau never had it — both left `issuing` by a request that died
    const a = await unknownIssued();
    await fault(f.ids.digital, { fault: 'error' });
    const b = payload(f.ids.digital);
    expect((await f.issue(b)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    const strand = (serialNo: string, seconds: number) =>
      t.db.execute(sql`update invoices set status = 'issuing', error_code = null, error_message = null,
        updated_at = now() - make_interval(secs => ${seconds}) where serial_no = ${serialNo}`);
    const window = STALE_ISSUING_MS / 1000;
    await strand(a, window - 30);
    await strand(b.serial_no, window - 30);
    const mine = { clientId: f.ids.software, userId: adminId };

    expect(await reconcileInvoices(t.app, mine)).toMatchObject({ checked: 0 });
    const shorter = await reconcileInvoices(t.app, { ...mine, staleIssuingMs: (window - 60) * 1000 });
    expect(shorter).toMatchObject({ checked: 2, issued: 1, failed: 1, pending: 0 });
    expect(shorter.results.map((r) => [r.serial_no, r.status])).toEqual([
      [a, 'issued'],
      [b.serial_no, 'failed'],
    ]);
    const issued = shorter.results[0]!;
    expect(issued.invoice_no).toMatch(/^\d{20}$/);
    const rowA = await rowOf(a);
    expect(rowA).toMatchObject({ status: 'issued', invoiceNo: issued.invoice_no, errorCode: null });
    expect((await eventsOf(rowA.id)).at(-1)).toEqual({
      kind: 'reconciled',
      detail: { from: 'issuing', to: 'issued', invoice_code: '', invoice_no: issued.invoice_no },
      userId: adminId,
    });
    const rowB = await rowOf(b.serial_no);
    expect(rowB).toMatchObject({ status: 'failed', errorCode: 'not_issued', errorMessage: NOT_ISSUED });
    expect((await eventsOf(rowB.id)).at(-1)).toEqual({
      kind: 'reconciled',
      detail: { from: 'issuing', to: 'failed' },
      userId: adminId,
    });

    // past the default window
    await strand(b.serial_no, window + 30);
    expect(await reconcileInvoices(t.app, mine)).toMatchObject({ checked: 1, failed: 1 });
  });

  it('two reconciliations at once settle, count and announce an invoice once', async () => {
    const issuedSerial = await unknownIssued();
    await fault(f.ids.digital, { fault: 'timeout', timeout_ms: 0 });
    const lost = payload(f.ids.digital);
    expect((await f.issue(lost)).json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);

    const cases = [
      [issuedSerial, 'issued'],
      [lost.serial_no, 'failed'],
    ] as const;
    for (const [serialNo, outcome] of cases) {
      const row = await rowOf(serialNo);
      const once = () => reconcileInvoices(t.app, { clientId: f.ids.software, serialNo });
      const [r1, r2] = await raceBehindLock({
        url: t.url,
        lock: 'select id from invoices where id = $1 for update',
        params: [row.id],
        calls: [once, once],
      });
      expect(r1!.checked + r2!.checked).toBe(2);
      expect(r1![outcome] + r2![outcome]).toBe(1);
      expect([...r1!.results, ...r2!.results].map((r) => r.status)).toEqual([outcome, outcome]);
      expect((await kindsOf(row.id)).filter((k) => k === 'reconciled')).toHaveLength(1);
    }
    expect(await announcedFor((await rowOf(issuedSerial)).id)).toEqual([{ sendEmail: false }]);
  });

  it('the issued hooks hear the e-mail wish of the latest request, only with an address; a red invoice has none', async () => {
    const asked = await unknownIssued({ body: { ...payload(f.ids.digital), send_email: true } });
    // refused first without e-mail, retried with it
    await fault(f.ids.digital, { fault: 'error' });
    const later = payload(f.ids.digital);
    expect((await f.issue(later)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    await unknownIssued({ body: { ...later, send_email: true } });
    const noAddress = await unknownIssued({
      body: { ...payload(f.ids.digital, { buyer: { email: '' } }), send_email: true },
    });
    // a red invoice the channel answered "unknown" for
    const k = redKit(t, f);
    const blueId = await k.blue();
    await fault(f.ids.digital, { fault: 'unknown', unknown_visible_after_s: 0 });
    const form = (await k.red('apply', { invoice_id: blueId, reason: '01', full: true })).json.data;
    expect(form.red_invoice.status).toBe('unknown');
    const red = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, form.red_invoice.invoice_id as number));

    const expected: [string, IssuedFacts][] = [
      [asked, { sendEmail: true }],
      [later.serial_no, { sendEmail: true }],
      [noAddress, { sendEmail: false }],
      [red[0]!.serialNo, { sendEmail: false }],
    ];
    for (const [serialNo, facts] of expected) {
      const rec = await reconcileInvoices(t.app, { clientId: f.ids.software, serialNo });
      expect(rec, serialNo).toMatchObject({ checked: 1, issued: 1, results: [{ status: 'issued' }] });
      expect(await announcedFor((await rowOf(serialNo)).id), serialNo).toEqual([facts]);
    }
  });

  it('keeps to the stores, the business and the number asked for, oldest first', async () => {
    await settleAll();
    const hq = await unknownIssued({ sid: f.ids.hq });
    const bj = await unknownIssued({ sid: f.ids.bj });
    const sh = await unknownIssued({ sid: f.ids.sh });
    const hq2 = await unknownIssued({ sid: f.ids.hq });
    // the hotel's (another business of the group), at its plain small-scale rate
    await fault(f.ids.hotelDigital, { fault: 'unknown', unknown_visible_after_s: 0 });
    const rate = ratesFor({ taxpayerType: 'small' }).find((r) => !r.needsReason)!.value;
    const hotel = payload(f.ids.hotelDigital, { lines: [line('101.00', { tax_rate: rate })] });
    expect((await f.issue(hotel, { clientId: f.ids.hotel, sid: f.ids.bs })).json.code).toBe(
      INVOICE_CODE.CHANNEL_TIMEOUT,
    );
    const serials = (s: { results: IssueResult[] }) => s.results.map((r) => r.serial_no);
    const software = { clientId: f.ids.software };
    const twoStores = { ...software, storeIds: new Set([f.ids.hq, f.ids.bj]) };

    const first = await reconcileInvoices(t.app, { ...twoStores, limit: 2 });
    expect(first).toMatchObject({ checked: 2, issued: 2 });
    expect(serials(first)).toEqual([hq, bj]);
    expect(serials(await reconcileInvoices(t.app, twoStores))).toEqual([hq2]);
    expect(serials(await reconcileInvoices(t.app, twoStores))).toEqual([]);
    expect(serials(await reconcileInvoices(t.app, software))).toEqual([sh]);
    expect((await rowOf(hotel.serial_no)).status).toBe('unknown');
    // the job asks for every business
    expect(serials(await reconcileInvoices(t.app))).toEqual([hotel.serial_no]);
    expect((await rowOf(hotel.serial_no)).status).toBe('issued');
  });
});
