import { INVOICE_CODE, SCAN_CODE, SESSION_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buyer, type ConsoleOpts, item, resetScanLimits, scanCallers } from '../../../test/fixtures/scan.ts';
import { buildTestApp } from '../../../test/helper.ts';

/** The exact messages of the scan refusals (packages/shared errors/messages.ts). */
const SCAN_MSG_OF: Record<number, string> = {
  [SCAN_CODE.CODE_NOT_FOUND]: '二维码不存在或已失效，请联系商家',
  [SCAN_CODE.CODE_DISABLED]: '该二维码已停用，请联系商家',
  [SCAN_CODE.CODE_EXPIRED]: '开票码已过有效期，请联系商家重新获取',
  [SCAN_CODE.ORDER_SUBMITTED]: '该订单已提交开票申请，请勿重复提交',
  [SCAN_CODE.REQUEST_NOT_FOUND]: '开票申请不存在',
  [SCAN_CODE.ALREADY_HANDLED]: '该开票申请已被处理，请刷新后查看',
  [SCAN_CODE.NOT_ISSUED]: '发票尚未开具，暂无发票文件',
  [SCAN_CODE.STORE_CODE_FIXED]: '门店码不能停用，可停用收银台码和订单码',
  [SESSION_CODE.STORE_NOT_PERMITTED]: '无权限操作该门店',
};
const refusal = (code: number) => ({ code, message: SCAN_MSG_OF[code] });

/**
 * Scan-to-invoice (domain.md §8.1; scan service, routes, public routes): a request may be approved
 * while pending (or failed: a retry) and rejected while pending or failed; in every other state
 * (issuing, issued, rejected) both are refused and nothing changes. Codes: disabled and expired
 * codes take no request, another store's code is not the clerk's. The buyer's tokens: unknown,
 * used and not-yet-issued ones are refused.
 */
describe('scan requests and codes in every state', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let ids: Fixture['ids'];

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    ids = f.ids;
  });
  // every inject call comes from one IP: the public per-IP limits start afresh per test
  beforeEach(async () => {
    await resetScanLimits(t);
  });

  const { console_, pub } = scanCallers(
    () => t,
    () => f,
  );

  const order = async (o: { sid?: number; amount?: string; valid_minutes?: number } = {}) => {
    const res = await console_('POST', '/v3/scan-code/create-order', {
      sid: o.sid,
      body: { items: [item(o.amount ?? '50.00')], valid_minutes: o.valid_minutes },
    });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as { id: number; token: string };
  };
  const counter = async (sid = ids.hq) => {
    const res = await console_('POST', '/v3/scan-code/create-counter', { sid, body: { name: '2号收银台' } });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as { id: number; token: string };
  };
  const storeCode = async (sid = ids.hq) => {
    const res = await console_('GET', '/v3/scan-code/list', { sid, query: 'kind=static' });
    return res.json.data.list.find((c: { kind: string }) => c.kind === 'store') as {
      id: number;
      token: string;
    };
  };
  const submit = async (codeToken: string, extra: Record<string, unknown> = {}) => {
    const res = await pub('POST', '/v3/scan/submit', buyer(codeToken, extra));
    expect(res.json.code, res.json.message).toBe(0);
    const r = await t.db.execute<{ id: string }>(
      sql`select id from scan_requests where token = ${res.json.data.request_token}`,
    );
    return { id: Number(r.rows[0]!.id), token: res.json.data.request_token as string };
  };
  const approve = (id: number, o: ConsoleOpts = {}) =>
    console_('POST', '/v3/scan-audit/approve', { ...o, body: { id, items: [item('50.00')] } });
  const reject = (id: number, o: ConsoleOpts = {}) =>
    console_('POST', '/v3/scan-audit/reject', { ...o, body: { id, reason: '重复申请' } });
  const statusOf = async (id: number) =>
    (await t.db.execute<{ status: string }>(sql`select status from scan_requests where id = ${id}`)).rows[0]!
      .status;

  /** Everything a refused call must leave alone: the request, the invoices, numbers, messages sent. */
  const snapshot = async (id: number) => {
    const q = async (query: ReturnType<typeof sql>) => (await t.db.execute(query)).rows;
    return {
      request: await q(sql`select status, serial_no, issue_request, invoice_id, invoice_type, amount, items,
        reject_reason, error_message, reviewed_by, reviewed_at, updated_at from scan_requests where id = ${id}`),
      requests: await q(sql`select count(*)::int as n from scan_requests`),
      invoices: await q(sql`select id, status from invoices where source = 'scan' or serial_no like 'SCAN-%'
        order by id`),
      counters: await q(sql`select device_id, series, year, last_seq from channel_number_counters
        order by device_id, series, year`),
      outbox: await q(sql`select count(*)::int as n from outbox`),
    };
  };
  const codeRow = async (id: number) =>
    (await t.db.execute<{ status: string }>(sql`select status from scan_codes where id = ${id}`)).rows[0]!;

  // -------------------------------------------------------------- requests in each state

  /** An order request the clerk approved: issued. */
  async function issued() {
    const r = await submit((await order()).token);
    const res = await approve(r.id);
    expect(res.json.data?.status, res.json.message).toBe('issued');
    await t.app.invoiceHooks.drain();
    return r;
  }
  async function rejected() {
    const r = await submit((await storeCode()).token);
    expect((await reject(r.id)).json.data.status).toBe('rejected');
    return r;
  }
  /** The bureau refused the invoice: failed, with its payload kept for a retry. */
  async function failed() {
    const r = await submit((await order()).token);
    await f.dev('control', { device_id: ids.digital, fault: 'error', fault_count: 1 });
    expect((await approve(r.id)).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    expect(await statusOf(r.id)).toBe('failed');
    return r;
  }
  /** The bureau's answer is unknown: issuing until reconciliation settles it. */
  async function issuing() {
    const r = await submit((await order()).token);
    await f.dev('control', {
      device_id: ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 86_400,
    });
    expect((await approve(r.id)).json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    expect(await statusOf(r.id)).toBe('issuing');
    return r;
  }

  const CASES: [string, () => Promise<{ id: number; token: string }>, ('approve' | 'reject')[]][] = [
    ['issued', issued, ['approve', 'reject']],
    ['issuing', issuing, ['approve', 'reject']],
    ['rejected', rejected, ['approve', 'reject']],
  ];

  for (const [state, build, refused] of CASES) {
    it(`a request ${state}: ${refused.join(' and ')} refused (one by one and in bulk), nothing changes`, async () => {
      const r = await build();
      const before = await snapshot(r.id);
      for (const action of refused) {
        const res = action === 'approve' ? await approve(r.id) : await reject(r.id);
        expect(res.json, `${state}: ${action}`).toMatchObject(refusal(SCAN_CODE.ALREADY_HANDLED));
        // the clerk of the store is refused the same way
        const clerk =
          action === 'approve'
            ? await approve(r.id, { token: f.clerk })
            : await reject(r.id, { token: f.clerk });
        expect(clerk.json, `${state}: clerk ${action}`).toMatchObject(refusal(SCAN_CODE.ALREADY_HANDLED));
      }
      const bare = await console_('POST', '/v3/scan-audit/approve', { body: { id: r.id } });
      expect(bare.json).toMatchObject(refusal(SCAN_CODE.ALREADY_HANDLED));
      const bulk = await console_('POST', '/v3/scan-audit/bulk-approve', { body: { ids: [r.id] } });
      expect(bulk.json.data).toEqual({
        issued: 0,
        failed: [{ id: r.id, message: SCAN_MSG_OF[SCAN_CODE.ALREADY_HANDLED] }],
      });
      await t.app.invoiceHooks.drain();
      expect(await snapshot(r.id)).toEqual(before);
      expect(await statusOf(r.id)).toBe(state);
    });
  }

  it('a pending request may be approved or rejected; a failed one retried or rejected', async () => {
    const a = await submit((await storeCode()).token);
    expect((await approve(a.id)).json.data).toMatchObject({ status: 'issued' });

    const b = await submit((await storeCode()).token);
    const rb = await reject(b.id);
    expect(rb.json.data).toMatchObject({ status: 'rejected', reject_reason: '重复申请' });

    // failed: the retry re-sends the stored payload (the goods sent now are ignored)
    const c = await failed();
    const retried = await console_('POST', '/v3/scan-audit/approve', {
      body: { id: c.id, items: [item('1.00')] },
    });
    expect(retried.json.data).toMatchObject({ status: 'issued', request: { amount: '50.00' } });

    // failed and then rejected: the buyer is told why, the failed invoice stays failed
    const d = await failed();
    const invoiceOfD = (
      await t.db.execute<{ invoice_id: string }>(sql`select invoice_id from scan_requests where id = ${d.id}`)
    ).rows[0]!.invoice_id;
    const rd = await reject(d.id);
    expect(rd.json.data).toMatchObject({ status: 'rejected', reject_reason: '重复申请' });
    const inv = await t.db.execute<{ status: string }>(
      sql`select status from invoices where id = ${invoiceOfD}`,
    );
    expect(inv.rows[0]?.status).toBe('failed');
    const page = await pub('GET', `/v3/scan/request?token=${d.token}`);
    expect(page.json.data).toMatchObject({ status: 'rejected', reject_reason: '重复申请', invoice: null });
    await t.app.invoiceHooks.drain();
  });

  it('a request belongs to the store of the code it was submitted through', async () => {
    const bj = await submit((await storeCode(ids.bj)).token);
    const row = await t.db.execute<{ store_id: number }>(
      sql`select store_id from scan_requests where id = ${bj.id}`,
    );
    expect(row.rows[0]!.store_id).toBe(ids.bj);
    const before = await snapshot(bj.id);
    // from 文三路总部: neither the administrator nor the clerk may act on it
    for (const o of [{}, { token: f.clerk }]) {
      expect((await approve(bj.id, o)).json).toMatchObject(refusal(SESSION_CODE.STORE_NOT_PERMITTED));
      expect((await reject(bj.id, o)).json).toMatchObject(refusal(SESSION_CODE.STORE_NOT_PERMITTED));
    }
    const bulk = await console_('POST', '/v3/scan-audit/bulk-approve', { body: { ids: [bj.id] } });
    expect(bulk.json.data).toEqual({
      issued: 0,
      failed: [{ id: bj.id, message: SCAN_MSG_OF[SESSION_CODE.STORE_NOT_PERMITTED] }],
    });
    expect(await snapshot(bj.id)).toEqual(before);
    // from 滨江 it is handled
    expect((await reject(bj.id, { sid: ids.bj })).json.data.status).toBe('rejected');
  });

  // ---------------------------------------------------------------------------------- codes

  it('a disabled code answers no one and takes no request; a request made before stays', async () => {
    const c = await counter();
    const o = await order();
    const earlier = await submit(o.token);
    for (const code of [c, o]) {
      const res = await console_('POST', '/v3/scan-code/disable', { body: { id: code.id } });
      expect(res.json.data).toMatchObject({ status: 'disabled' });
    }
    const requests = async () => (await t.db.execute(sql`select count(*)::int as n from scan_requests`)).rows;
    const before = await requests();
    for (const code of [c, o]) {
      expect((await pub('GET', `/v3/scan/code?token=${code.token}`)).json).toMatchObject(
        refusal(SCAN_CODE.CODE_DISABLED),
      );
      expect(
        (await pub('POST', '/v3/scan/submit', buyer(code.token, { name: '又一家公司' }))).json,
      ).toMatchObject(refusal(SCAN_CODE.CODE_DISABLED));
      const search = await pub(
        'GET',
        `/v3/scan/title-search?token=${code.token}&keyword=${encodeURIComponent('云栈')}`,
      );
      expect(search.json).toMatchObject(refusal(SCAN_CODE.CODE_DISABLED));
    }
    expect(await requests()).toEqual(before);
    // the request made while the order code was live is still the clerk's to handle
    expect(await statusOf(earlier.id)).toBe('pending');
    expect((await pub('GET', `/v3/scan/request?token=${earlier.token}`)).json.data.status).toBe('pending');
    expect((await approve(earlier.id)).json.data.status).toBe('issued');
    await t.app.invoiceHooks.drain();
  });

  it('an expired order code takes no request and offers no title lookup; a live one does', async () => {
    const expired = await order({ valid_minutes: 5 });
    await t.db.execute(
      sql`update scan_codes set expires_at = now() - interval '1 second' where id = ${expired.id}`,
    );
    const code = await pub('GET', `/v3/scan/code?token=${expired.token}`);
    expect(code.json.data).toMatchObject({ expired: true, request_token: null });
    expect((await pub('POST', '/v3/scan/submit', buyer(expired.token))).json).toMatchObject(
      refusal(SCAN_CODE.CODE_EXPIRED),
    );
    const search = await pub(
      'GET',
      `/v3/scan/title-search?token=${expired.token}&keyword=${encodeURIComponent('云栈')}`,
    );
    expect(search.json).toMatchObject(refusal(SCAN_CODE.CODE_EXPIRED));
    const rows = await t.db.execute(sql`select 1 from scan_requests where code_id = ${expired.id}`);
    expect(rows.rows).toEqual([]);

    // a minute left: still live
    const live = await order({ valid_minutes: 5 });
    await t.db.execute(
      sql`update scan_codes set expires_at = now() + interval '1 minute' where id = ${live.id}`,
    );
    expect((await pub('GET', `/v3/scan/code?token=${live.token}`)).json.data.expired).toBe(false);
    const found = await pub(
      'GET',
      `/v3/scan/title-search?token=${live.token}&keyword=${encodeURIComponent('云栈')}`,
    );
    expect(found.json.data).toEqual([{ name: '杭州云栈软件科技有限公司', tax_code: '91330106MA2KC7LM1A' }]);
    expect((await pub('POST', '/v3/scan/submit', buyer(live.token))).json.data.status).toBe('pending');
  });

  it('another store’s code is not the clerk’s; the store’s own code cannot be disabled', async () => {
    const bjCounter = await counter(ids.bj);
    const clerkDisable = await console_('POST', '/v3/scan-code/disable', {
      token: f.clerk,
      body: { id: bjCounter.id },
    });
    expect(clerkDisable.json).toMatchObject(refusal(SESSION_CODE.STORE_NOT_PERMITTED));
    const image = await console_('GET', '/v3/scan-code/image', {
      token: f.clerk,
      query: `id=${bjCounter.id}`,
    });
    expect(image.json).toMatchObject(refusal(SESSION_CODE.STORE_NOT_PERMITTED));
    expect(await codeRow(bjCounter.id)).toEqual({ status: 'active' });

    const own = await storeCode();
    expect((await console_('POST', '/v3/scan-code/disable', { body: { id: own.id } })).json).toMatchObject(
      refusal(SCAN_CODE.STORE_CODE_FIXED),
    );
    expect(await codeRow(own.id)).toEqual({ status: 'active' });

    // another business's code is not found at all
    const hotelCode = (
      await console_('GET', '/v3/scan-code/list', { clientId: ids.hotel, sid: ids.bs, query: 'kind=static' })
    ).json.data.list[0] as { id: number };
    const foreign = await console_('POST', '/v3/scan-code/disable', { body: { id: hotelCode.id } });
    expect(foreign.json).toMatchObject(refusal(SCAN_CODE.CODE_NOT_FOUND));
    expect(await codeRow(hotelCode.id)).toEqual({ status: 'active' });
  });

  // -------------------------------------------------------------------- the buyer's tokens

  it('the buyer’s tokens: unknown ones are refused, a used order token points to its request', async () => {
    const unknown = 'z'.repeat(24);
    expect((await pub('GET', `/v3/scan/code?token=${unknown}`)).json).toMatchObject(
      refusal(SCAN_CODE.CODE_NOT_FOUND),
    );
    expect((await pub('POST', '/v3/scan/submit', buyer(unknown))).json).toMatchObject(
      refusal(SCAN_CODE.CODE_NOT_FOUND),
    );
    expect((await pub('GET', `/v3/scan/request?token=${unknown}`)).json).toMatchObject(
      refusal(SCAN_CODE.REQUEST_NOT_FOUND),
    );
    expect((await pub('GET', `/v3/scan/download?token=${unknown}`)).json).toMatchObject(
      refusal(SCAN_CODE.REQUEST_NOT_FOUND),
    );
    // a code's token is not a request's, nor the other way round
    const o = await order();
    expect((await pub('GET', `/v3/scan/request?token=${o.token}`)).json).toMatchObject(
      refusal(SCAN_CODE.REQUEST_NOT_FOUND),
    );
    const first = await submit(o.token);
    expect((await pub('GET', `/v3/scan/code?token=${first.token}`)).json).toMatchObject(
      refusal(SCAN_CODE.CODE_NOT_FOUND),
    );

    // used: the order takes no second request while the first is live, whatever its state
    const used = async () => {
      const res = await pub('POST', '/v3/scan/submit', buyer(o.token, { name: '另一家公司' }));
      expect(res.json).toMatchObject(refusal(SCAN_CODE.ORDER_SUBMITTED));
      expect(res.json.data).toEqual({ request_token: first.token });
    };
    await used();
    expect((await approve(first.id)).json.data.status).toBe('issued');
    await used();
    const rows = await t.db.execute(sql`select 1 from scan_requests where code_id = ${o.id}`);
    expect(rows.rows).toHaveLength(1);
    await t.app.invoiceHooks.drain();

    // rejected, the order may be asked for again; the code then points to the new request
    const o2 = await order();
    const r1 = await submit(o2.token);
    await reject(r1.id);
    const r2 = await submit(o2.token, { name: '更正后的公司' });
    expect(r2.token).not.toBe(r1.token);
    expect((await pub('GET', `/v3/scan/code?token=${o2.token}`)).json.data.request_token).toBe(r2.token);
    expect((await pub('GET', `/v3/scan/request?token=${r1.token}`)).json.data.status).toBe('rejected');
  });

  it('no invoice file before the invoice is issued: pending, rejected, failed and issuing requests', async () => {
    const pending = await submit((await storeCode()).token);
    const builders: [string, { id: number; token: string }][] = [
      ['pending', pending],
      ['rejected', await rejected()],
      ['failed', await failed()],
      ['issuing', await issuing()],
    ];
    for (const [state, r] of builders) {
      const res = await pub('GET', `/v3/scan/download?token=${r.token}`);
      expect(res.json, state).toMatchObject(refusal(SCAN_CODE.NOT_ISSUED));
      expect((await pub('GET', `/v3/scan/request?token=${r.token}`)).json.data.invoice, state).toBeNull();
    }
    const done = await issued();
    const pdf = await t.app.inject({ method: 'GET', url: `/v3/scan/download?token=${done.token}` });
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('an invoice voided after issue is no longer the buyer’s to download', async () => {
    // 文三路总部 issues scan requests on paper (普票 on the 金税盘), which may be voided
    const settings = (device_id: number | null, invoice_type: string) =>
      console_('POST', '/v3/scan-code/settings', { body: { mode: 'audit', device_id, invoice_type } });
    expect((await settings(ids.goldenMain, '007')).json.code).toBe(0);
    try {
      const r = await submit((await order()).token);
      expect((await approve(r.id)).json.data).toMatchObject({
        status: 'issued',
        request: { invoice_type: '007' },
      });
      await t.app.invoiceHooks.drain();
      const before = await t.app.inject({ method: 'GET', url: `/v3/scan/download?token=${r.token}` });
      expect(before.headers['content-type']).toBe('application/pdf');

      const inv = (
        await t.db.execute<{ id: string; issued_at: Date }>(
          sql`select invoice_id as id, i.issued_at from scan_requests r join invoices i on i.id = r.invoice_id
            where r.id = ${r.id}`,
        )
      ).rows[0]!;
      // voided a minute after it was issued (the month rule reads the JavaScript clock)
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      vi.setSystemTime(new Date(new Date(inv.issued_at).getTime() + 60_000));
      try {
        const voided = await console_('POST', '/v3/invoice-detail/void', {
          body: { invoice_id: Number(inv.id), reason: '购买方信息填写错误' },
        });
        expect(voided.json.data, voided.json.message).toMatchObject({ status: 'voided' });
      } finally {
        vi.useRealTimers();
      }
      expect((await pub('GET', `/v3/scan/download?token=${r.token}`)).json).toMatchObject(
        refusal(SCAN_CODE.NOT_ISSUED),
      );
      expect((await pub('GET', `/v3/scan/request?token=${r.token}`)).json.data.invoice).toBeNull();
    } finally {
      await settings(null, '82');
    }
  });
});
