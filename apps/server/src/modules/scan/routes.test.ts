import { CODE, INVOICE_CODE, SCAN_CODE, SCAN_MSG, SESSION_CODE, TITLE_MSG } from '@kaipiao/shared';
import { and, eq, like, sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../../../test/clock.ts';
import { BUYER_TAX_CODE, type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buyer, item, resetScanLimits, scanCallers } from '../../../test/fixtures/scan.ts';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { raceBehindLock } from '../../../test/race.ts';
import { invoices, outbox, scanCodes, scanRequests, scanSettings } from '../../db/schema/index.ts';
import { seedDemoScan } from '../../seed/scan.ts';
import { PUBLIC_LIMITS } from './public-routes.ts';

describe('scan-to-invoice and the audit queue', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let ids: Fixture['ids'];
  const clock = testClock();

  beforeAll(async () => {
    t = await buildTestApp({ clock });
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

  const settings = (mode: 'audit' | 'immediate', o: { clientId?: number; sid?: number } = {}) =>
    console_('POST', '/v3/scan-code/settings', { ...o, body: { mode, device_id: null, invoice_type: '82' } });
  const order = async (body: Record<string, unknown>, o: { clientId?: number; sid?: number } = {}) => {
    const res = await console_('POST', '/v3/scan-code/create-order', { ...o, body });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as { id: number; token: string; order_no: string; amount: string };
  };
  const storeCode = async (o: { clientId?: number; sid?: number } = {}) => {
    const res = await console_('GET', '/v3/scan-code/list', { ...o, query: 'kind=static' });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data.list.find((c: { kind: string }) => c.kind === 'store') as {
      id: number;
      token: string;
    };
  };
  const requestOf = async (requestToken: string) =>
    (await t.db.select().from(scanRequests).where(eq(scanRequests.token, requestToken)))[0]!;
  const invoicesOfSerial = (serialNo: string) =>
    t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.clientId, ids.software), eq(invoices.serialNo, serialNo)));

  it('gives each store one static code with an unguessable token, and a PNG of the buyer URL', async () => {
    const a = await storeCode();
    const b = await storeCode();
    expect(a.id).toBe(b.id);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const img = await t.app.inject({
      method: 'GET',
      url: `/v3/scan-code/image?${f.scope(ids.software, ids.hq)}&id=${a.id}&download=1`,
      headers: { 'access-token': f.admin },
    });
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-disposition']).toMatch(/^attachment;/);
    expect(img.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const counter = await console_('POST', '/v3/scan-code/create-counter', { body: { name: '1号收银台' } });
    expect(counter.json.data).toMatchObject({ kind: 'counter', name: '1号收银台', status: 'active' });
    const pc = await pub('GET', `/v3/scan/code?token=${counter.json.data.token}`);
    expect(pc.json.data).toMatchObject({
      seller_name: '杭州云栈软件科技有限公司',
      kind: 'counter',
      point_name: '文三路总部 · 1号收银台',
      expired: false,
    });
    // the public answer carries no ids of the tenant
    expect(JSON.stringify(pc.json.data)).not.toMatch(/client_id|store_id|"id"/);
  });

  it('refuses bad buyer input with the spec messages', async () => {
    const code = await storeCode();
    const badSum = `${BUYER_TAX_CODE.slice(0, 17)}${BUYER_TAX_CODE.endsWith('0') ? '1' : '0'}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ tax_code: badSum }, TITLE_MSG.TAX_CODE_CHECKSUM],
      [{ tax_code: '12345' }, TITLE_MSG.TAX_CODE_FORMAT],
      [{ tax_code: '' }, TITLE_MSG.TAX_CODE_REQUIRED],
      [{ email: '', mobile: '' }, SCAN_MSG.CONTACT_REQUIRED],
      [{ mobile: '2390000000' }, TITLE_MSG.MOBILE_FORMAT],
      [{ email: 'not-mail' }, TITLE_MSG.EMAIL_FORMAT],
      [{ name: '' }, TITLE_MSG.NAME_REQUIRED],
      [{ title_type: 1, name: '王', tax_code: '' }, TITLE_MSG.NAME_PERSONAL_MIN],
      [{ amount: '12.345' }, SCAN_MSG.AMOUNT_FORMAT],
    ];
    for (const [extra, message] of cases) {
      const res = await pub('POST', '/v3/scan/submit', buyer(code.token, extra));
      expect(res.json, JSON.stringify(extra)).toMatchObject({ code: CODE.VALIDATION, message });
    }
    // a personal title needs no tax code
    const ok = await pub(
      'POST',
      '/v3/scan/submit',
      buyer(code.token, { title_type: 1, name: '王小明', tax_code: '' }),
    );
    expect(ok.json.code).toBe(0);
    expect(ok.json.data.status).toBe('pending');
    const unknown = await pub('POST', '/v3/scan/submit', buyer('x'.repeat(24)));
    expect(unknown.json.code).toBe(SCAN_CODE.CODE_NOT_FOUND);
  });

  it('issues an order at once in immediate mode, and queues it in audit mode', async () => {
    expect((await settings('immediate')).json.data.mode).toBe('immediate');
    const now = await order({ items: [item('212.00'), item('100.00', { name: '酒水' })] });
    expect(now.amount).toBe('312.00');
    const res = await pub('POST', '/v3/scan/submit', buyer(now.token));
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data.status).toBe('issued');
    const r = await requestOf(res.json.data.request_token);
    expect(r.serialNo).toBe(`SCAN-O${String(now.id).padStart(6, '0')}`);
    const [inv] = await invoicesOfSerial(r.serialNo!);
    expect(inv).toMatchObject({
      status: 'issued',
      source: 'scan',
      totalWithTax: '312.00',
      buyerTaxCode: BUYER_TAX_CODE,
    });
    expect(inv!.remark).toContain(now.order_no);

    const status = await pub('GET', `/v3/scan/request?token=${res.json.data.request_token}`);
    expect(status.json.data).toMatchObject({
      status: 'issued',
      status_text: '发票已开具',
      invoice: { invoice_no: inv!.invoiceNo, total_price_with_tax: '312.00' },
      mobile: '139****0001',
    });
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v3/scan/download?token=${res.json.data.request_token}`,
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    await t.app.invoiceHooks.drain();

    // BJ in audit mode
    await settings('audit', { sid: ids.bj });
    const queued = await order({ items: [item('50.00')] }, { sid: ids.bj });
    const q = await pub('POST', '/v3/scan/submit', buyer(queued.token));
    expect(q.json.data.status).toBe('pending');
    const qr = await requestOf(q.json.data.request_token);
    expect(qr.serialNo).toBeNull();
    const list = await console_('GET', '/v3/scan-audit/list', { sid: ids.bj, query: 'status=pending' });
    expect(list.json.data.list.map((x: { id: number }) => x.id)).toContain(Number(qr.id));
    const pending = await pub('GET', `/v3/scan/request?token=${q.json.data.request_token}`);
    expect(pending.json.data).toMatchObject({ status: 'pending', invoice: null });
    await settings('audit');
  });

  it('static-code requests wait for goods; two clerks approving at once make one invoice', async () => {
    const code = await storeCode();
    const sub = await pub('POST', '/v3/scan/submit', buyer(code.token, { amount: '88.00' }));
    const req = await requestOf(sub.json.data.request_token);
    const id = Number(req.id);
    // nothing to issue until the clerk states the goods
    const bare = await console_('POST', '/v3/scan-audit/approve', { body: { id } });
    expect(bare.json.code).toBe(SCAN_CODE.ITEMS_REQUIRED);

    const approve = (token: string) =>
      console_('POST', '/v3/scan-audit/approve', { token, body: { id, items: [item('88.00')] } });
    // a real race: both approvals read the request as pending, then queue at the claim behind a
    // lock the test holds on the row, and are let go together; only the conditional claim decides
    const [a, b] = await raceBehindLock({
      url: t.url,
      lock: 'select id from scan_requests where id = $1 for no key update',
      params: [id],
      calls: [() => approve(f.admin), () => approve(f.clerk)],
    });
    const codes = [a.json.code, b.json.code].sort();
    expect(codes).toEqual([0, SCAN_CODE.ALREADY_HANDLED].sort());
    const winner = a.json.code === 0 ? a : b;
    expect(winner.json.data.status).toBe('issued');
    expect(winner.json.data.request).toMatchObject({ status: 'issued', amount: '88.00' });
    const issued = await invoicesOfSerial(`SCAN-R${String(id).padStart(6, '0')}`);
    expect(issued).toHaveLength(1);
    // and once more, later: handled
    expect((await approve(f.admin)).json.code).toBe(SCAN_CODE.ALREADY_HANDLED);
    expect(await invoicesOfSerial(`SCAN-R${String(id).padStart(6, '0')}`)).toHaveLength(1);
    await t.app.invoiceHooks.drain();
  });

  it('one order yields at most one invoice, however often it is submitted', async () => {
    const o = await order({ items: [item('66.00')] });
    const [x, y] = await Promise.all([
      pub('POST', '/v3/scan/submit', buyer(o.token)),
      pub('POST', '/v3/scan/submit', buyer(o.token, { name: '另一家公司' })),
    ]);
    const ok = [x, y].filter((r) => r.json.code === 0);
    const refused = [x, y].filter((r) => r.json.code === SCAN_CODE.ORDER_SUBMITTED);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    // the refusal hands back the order's status page (the receipt is the buyer's ticket)
    expect(refused[0]!.json.data.request_token).toBe(ok[0]!.json.data.request_token);
    const again = await pub('POST', '/v3/scan/submit', buyer(o.token));
    expect(again.json.code).toBe(SCAN_CODE.ORDER_SUBMITTED);
    const rows = await t.db.select().from(scanRequests).where(eq(scanRequests.codeId, o.id));
    expect(rows).toHaveLength(1);

    const id = Number(rows[0]!.id);
    const bulk = await console_('POST', '/v3/scan-audit/bulk-approve', { body: { ids: [id, id] } });
    expect(bulk.json.data.issued).toBe(1);
    expect(bulk.json.data.failed).toEqual([{ id, message: '该开票申请已被处理，请刷新后查看' }]);
    expect(await invoicesOfSerial(`SCAN-O${String(o.id).padStart(6, '0')}`)).toHaveLength(1);
    const code = await pub('GET', `/v3/scan/code?token=${o.token}`);
    expect(code.json.data.request_token).toBe(rows[0]!.token);
    await t.app.invoiceHooks.drain();
  });

  it('tells the buyer why a request was rejected, on the page and by SMS and e-mail', async () => {
    const code = await storeCode();
    const sub = await pub(
      'POST',
      '/v3/scan/submit',
      buyer(code.token, { mobile: '13900000077', email: 'r@example.com' }),
    );
    const req = await requestOf(sub.json.data.request_token);
    const empty = await console_('POST', '/v3/scan-audit/reject', {
      body: { id: Number(req.id), reason: ' ' },
    });
    expect(empty.json).toMatchObject({ code: CODE.VALIDATION, message: SCAN_MSG.REASON_REQUIRED });
    const res = await console_('POST', '/v3/scan-audit/reject', {
      token: f.clerk,
      body: { id: Number(req.id), reason: '未查询到该笔消费记录' },
    });
    expect(res.json.data).toMatchObject({ status: 'rejected', reviewed_by_name: '开票员小王' });
    const page = await pub('GET', `/v3/scan/request?token=${sub.json.data.request_token}`);
    expect(page.json.data).toMatchObject({
      status: 'rejected',
      status_text: '商家已拒绝本次开票申请',
      reject_reason: '未查询到该笔消费记录',
      invoice: null,
    });
    // a rejected request cannot be approved afterwards
    const late = await console_('POST', '/v3/scan-audit/approve', {
      body: { id: Number(req.id), items: [item('1.00')] },
    });
    expect(late.json.code).toBe(SCAN_CODE.ALREADY_HANDLED);
    await expect
      .poll(async () =>
        (await t.db.select().from(outbox).where(like(outbox.content, '%未查询到该笔消费记录%'))).map(
          (m) => `${m.channel}:${m.recipient}`,
        ),
      )
      .toEqual(expect.arrayContaining(['sms:13900000077', 'email:r@example.com']));
  });

  it("refuses another tenant's or another store's request", async () => {
    // the hotel's request
    const hotelCode = await storeCode({ clientId: ids.hotel, sid: ids.bs });
    const sub = await pub('POST', '/v3/scan/submit', buyer(hotelCode.token));
    const req = await requestOf(sub.json.data.request_token);
    const id = Number(req.id);
    // the software company's admin view does not find it
    for (const [method, path, body, query] of [
      ['POST', '/v3/scan-audit/approve', { id, items: [item('10.00')] }, ''],
      ['POST', '/v3/scan-audit/reject', { id, reason: '不是我的' }, ''],
      ['GET', '/v3/scan-audit/detail', undefined, `id=${id}`],
    ] as const) {
      const res = await console_(method, path, { body, query });
      expect(res.json.code, path).toBe(SCAN_CODE.REQUEST_NOT_FOUND);
    }
    const list = await console_('GET', '/v3/scan-audit/list', { sid: -1, query: 'status=' });
    expect(list.json.data.list.map((x: { id: number }) => x.id)).not.toContain(id);
    const img = await console_('GET', '/v3/scan-code/image', { query: `id=${hotelCode.id}` });
    expect(img.json.code).toBe(SCAN_CODE.CODE_NOT_FOUND);
    // the clerk has no access to the hotel at all
    const clerk = await console_('POST', '/v3/scan-audit/approve', {
      token: f.clerk,
      clientId: ids.hotel,
      sid: ids.bs,
      body: { id, items: [item('10.00')] },
    });
    expect(clerk.json.code).toBe(SESSION_CODE.CLIENT_NOT_PERMITTED);
    // the clerk's scope is HQ: a BJ request of the same business is not theirs
    const bj = await storeCode({ sid: ids.bj });
    const bjSub = await pub('POST', '/v3/scan/submit', buyer(bj.token));
    const bjReq = await requestOf(bjSub.json.data.request_token);
    const other = await console_('POST', '/v3/scan-audit/reject', {
      token: f.clerk,
      body: { id: Number(bjReq.id), reason: '越权' },
    });
    expect(other.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    // acting is for the selected store: the summary view is read-only, another store's request is not found
    const hqCode = await storeCode();
    const hqSub = await pub('POST', '/v3/scan/submit', buyer(hqCode.token));
    const hqId = Number((await requestOf(hqSub.json.data.request_token)).id);
    const summary = await console_('POST', '/v3/scan-audit/reject', {
      sid: -1,
      body: { id: hqId, reason: '汇总' },
    });
    expect(summary.json.code).toBe(CODE.SWITCH_STORE);
    const fromBj = await console_('POST', '/v3/scan-audit/reject', {
      sid: ids.bj,
      body: { id: hqId, reason: '门店' },
    });
    expect(fromBj.json.code).toBe(SESSION_CODE.STORE_NOT_PERMITTED);
    const seen = await console_('GET', '/v3/scan-audit/list', { sid: -1, query: 'status=pending' });
    expect(seen.json.data.list.map((x: { id: number }) => x.id)).toContain(hqId);
    // the hotel's admin sees it, with the hotel stay of an order
    const stay = { room_no: '8208', guest_name: '李四', check_in: '2026-11-20', check_out: '2026-11-22' };
    const ho = await order(
      { items: [item('980.00', { name: '住宿服务', tax_rate: '0.01' })], hotel_stay: stay },
      { clientId: ids.hotel, sid: ids.bs },
    );
    const hs = await pub('POST', '/v3/scan/submit', buyer(ho.token));
    const hr = await requestOf(hs.json.data.request_token);
    const detail = await console_('GET', '/v3/scan-audit/detail', {
      clientId: ids.hotel,
      sid: ids.bs,
      query: `id=${hr.id}`,
    });
    expect(detail.json.data).toMatchObject({ hotel_stay: stay, amount: '980.00', code_kind: 'order' });
  });

  it('refuses order items the issuing service would refuse (a rate the business may not use)', async () => {
    const res = await console_('POST', '/v3/scan-code/create-order', {
      clientId: ids.hotel,
      sid: ids.bs,
      body: { items: [item('100.00', { tax_rate: '0.06' })] },
    });
    expect(res.json.code).toBe(CODE.VALIDATION);
    expect(res.json.message).toContain('第1行');
    expect(res.json.data.errors[0].field).toMatch(/^items\.0\./);
  });

  it('a channel failure keeps the request for a retry under the same serial; an unknown outcome settles through reconciliation', async () => {
    const approveOrder = async (amount: string) => {
      const o = await order({ items: [item(amount)] });
      const sub = await pub('POST', '/v3/scan/submit', buyer(o.token, { mobile: '13900000099' }));
      const r = await requestOf(sub.json.data.request_token);
      return { o, id: Number(r.id), requestToken: sub.json.data.request_token as string };
    };
    // the bureau refuses once: the request is failed, the retry re-sends the same payload and serial
    const a = await approveOrder('30.00');
    await f.dev('control', { device_id: ids.digital, fault: 'error', fault_count: 1 });
    const failed = await console_('POST', '/v3/scan-audit/approve', { body: { id: a.id } });
    expect(failed.json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    const row = await t.db.select().from(scanRequests).where(eq(scanRequests.id, a.id));
    expect(row[0]).toMatchObject({ status: 'failed', serialNo: `SCAN-O${String(a.o.id).padStart(6, '0')}` });
    expect((await pub('GET', `/v3/scan/request?token=${a.requestToken}`)).json.data.status_text).toBe(
      '商家正在处理您的开票申请',
    );
    const retry = await console_('POST', '/v3/scan-audit/approve', {
      body: { id: a.id, items: [item('99.00')] },
    });
    expect(retry.json.data).toMatchObject({ status: 'issued', request: { amount: '30.00' } });
    expect(await invoicesOfSerial(`SCAN-O${String(a.o.id).padStart(6, '0')}`)).toHaveLength(1);

    // the channel's answer is unknown: the request waits in 开票中 until reconciliation finds it issued
    const b = await approveOrder('40.00');
    await f.dev('control', {
      device_id: ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 3600,
    });
    const unknown = await console_('POST', '/v3/scan-audit/approve', { body: { id: b.id } });
    expect(unknown.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    expect((await pub('GET', `/v3/scan/request?token=${b.requestToken}`)).json.data.status).toBe('issuing');
    // the bureau's hour passes: the invoice shows there now
    await t.db.execute(
      sql`update channel_sandbox_issues set visible_at = now() where serial_no = ${`SCAN-O${String(b.o.id).padStart(6, '0')}`}`,
    );
    const rec = await call(t.app, 'POST', `/v3/online-invoicing/reconcile?${f.scope(ids.software, ids.hq)}`, {
      token: f.admin,
      body: {},
    });
    expect(rec.json.data.issued).toBe(1);
    await t.app.invoiceHooks.drain();
    const settled = await pub('GET', `/v3/scan/request?token=${b.requestToken}`);
    expect(settled.json.data).toMatchObject({ status: 'issued', invoice: { total_price_with_tax: '40.00' } });
    expect((await t.db.select().from(scanRequests).where(eq(scanRequests.id, b.id)))[0]!.status).toBe(
      'issued',
    );
    await expect
      .poll(async () => (await t.db.select().from(outbox).where(eq(outbox.recipient, '13900000099'))).length)
      .toBe(2);
    await f.dev('reset', { device_id: ids.digital });
  });

  it('pauses submissions while the bookkeeping service is expired (spec §1)', async () => {
    const code = await storeCode();
    await t.db.execute(sql`update orgs set bookkeeping_expires_at = now() - interval '1 day'`);
    try {
      const res = await pub('POST', '/v3/scan/submit', buyer(code.token));
      expect(res.json).toMatchObject({
        code: SCAN_CODE.SERVICE_PAUSED,
        message: '商家暂停了扫码开票，请联系商家',
      });
    } finally {
      await t.db.execute(sql`update orgs set bookkeeping_expires_at = now() + interval '1 year'`);
    }
  });

  it('refuses an expired order code', async () => {
    const o = await order({ items: [item('20.00')], valid_minutes: 5 });
    await t.db
      .update(scanCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(scanCodes.id, o.id));
    const code = await pub('GET', `/v3/scan/code?token=${o.token}`);
    expect(code.json.data.expired).toBe(true);
    const res = await pub('POST', '/v3/scan/submit', buyer(o.token));
    expect(res.json).toMatchObject({
      code: SCAN_CODE.CODE_EXPIRED,
      message: '开票码已过有效期，请联系商家重新获取',
    });
    expect(await t.db.select().from(scanRequests).where(eq(scanRequests.codeId, o.id))).toHaveLength(0);
  });

  it('looks titles up by name or tax code for live codes only', async () => {
    const code = await storeCode();
    const byName = await pub(
      'GET',
      `/v3/scan/title-search?token=${code.token}&keyword=${encodeURIComponent('云栈')}`,
    );
    expect(byName.json.data).toEqual([{ name: '杭州云栈软件科技有限公司', tax_code: '91330106MA2KC7LM1A' }]);
    const byCode = await pub('GET', `/v3/scan/title-search?token=${code.token}&keyword=91330102MA`);
    expect(byCode.json.data.map((x: { name: string }) => x.name)).toEqual(['杭州西湖畔酒店管理有限公司']);
    const noCode = await pub(
      'GET',
      `/v3/scan/title-search?token=${'y'.repeat(24)}&keyword=${encodeURIComponent('云栈')}`,
    );
    expect(noCode.json.code).toBe(SCAN_CODE.CODE_NOT_FOUND);
  });

  it('limits title searches per IP to 30 in each fixed minute (a clock standing still)', async () => {
    const code = await storeCode();
    const search = async () =>
      (await pub('GET', `/v3/scan/title-search?token=${code.token}&keyword=${encodeURIComponent('酒店')}`))
        .json.code;
    try {
      clock.set('2026-06-01T08:00:00.000Z');
      for (let i = 0; i < PUBLIC_LIMITS.search; i++) expect(await search(), `search ${i + 1}`).toBe(0);
      clock.set('2026-06-01T08:00:59.999Z'); // the same minute's last millisecond
      expect(await search()).toBe(CODE.RATE_LIMITED);
      // a refused search counts too: the minute stays shut
      expect(await search()).toBe(CODE.RATE_LIMITED);
      clock.advance(1); // 08:01:00.000, a new minute
      expect(await search()).toBe(0);
      const [row] = (
        await t.db.execute<{ hits: number }>(
          sql`select hits from rate_counters where key like 'scan:search:%' and window_start = '2026-06-01T08:01:00Z'`,
        )
      ).rows;
      expect(row?.hits).toBe(1);
    } finally {
      clock.release();
    }
  });
  it('each public call counts against its own per-IP limit; the submit says 提交成功; the PDF is served private', async () => {
    await settings('immediate');
    const o = await order({ items: [item('66.00')] });
    const submitted = await pub('POST', '/v3/scan/submit', buyer(o.token));
    expect(submitted.json).toMatchObject({ code: 0, message: '提交成功' });
    const requestToken = submitted.json.data.request_token as string;
    await settings('audit');
    const pdf = await t.app.inject({ method: 'GET', url: `/v3/scan/download?token=${requestToken}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers).toMatchObject({
      'content-type': 'application/pdf',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(Number(pdf.headers['content-length'])).toBe(pdf.rawPayload.length);
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename=.*\.pdf/);
    // the same over a real connection: node's HTTP server refuses a malformed header, inject does not
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const real = await fetch(`${origin}/v3/scan/download?token=${requestToken}`);
    const body = Buffer.from(await real.arrayBuffer());
    expect(real.status, body.toString()).toBe(200);
    expect(real.headers.get('x-content-type-options')).toBe('nosniff');
    expect(real.headers.get('content-length')).toBe(String(body.length));
    expect(body.equals(pdf.rawPayload)).toBe(true);

    const code = await storeCode();
    const calls: Record<keyof typeof PUBLIC_LIMITS, Array<() => Promise<{ json: { code: number } }>>> = {
      read: [
        () => pub('GET', `/v3/scan/code?token=${code.token}`),
        () => pub('GET', `/v3/scan/request?token=${requestToken}`),
        async () => {
          const res = await t.app.inject({ method: 'GET', url: `/v3/scan/download?token=${requestToken}` });
          // the PDF itself, or the envelope that refuses it
          return { json: res.headers['content-type'] === 'application/pdf' ? { code: 0 } : res.json() };
        },
      ],
      search: [
        () => pub('GET', `/v3/scan/title-search?token=${code.token}&keyword=${encodeURIComponent('酒店')}`),
      ],
      submit: [() => pub('POST', '/v3/scan/submit', buyer(code.token))],
    };
    try {
      clock.set('2026-06-01T09:00:30.000Z');
      for (const [kind, fns] of Object.entries(calls) as [keyof typeof PUBLIC_LIMITS, typeof calls.read][]) {
        for (const fn of fns) {
          await t.db.execute(sql`delete from rate_counters where key like 'scan:%'`);
          // this kind's window is full: the next call of this kind is refused
          await t.db.execute(sql`
            insert into rate_counters (key, window_start, hits)
            values (${`scan:${kind}:127.0.0.1`}, '2026-06-01T09:00:00Z', ${PUBLIC_LIMITS[kind]})`);
          expect((await fn()).json.code, kind).toBe(CODE.RATE_LIMITED);
          // another kind's full window does not refuse it
          await t.db.execute(sql`delete from rate_counters where key like 'scan:%'`);
          for (const other of Object.keys(PUBLIC_LIMITS).filter((k) => k !== kind)) {
            await t.db.execute(sql`
              insert into rate_counters (key, window_start, hits)
              values (${`scan:${other}:127.0.0.1`}, '2026-06-01T09:00:00Z', 1000)`);
          }
          expect((await fn()).json.code, kind).not.toBe(CODE.RATE_LIMITED);
        }
      }
    } finally {
      clock.release();
    }
  });

  it('the QR picture holds the buyer URL on this host; its file name says the point; settings and codes record who made them', async () => {
    const image = async (id: number, download?: boolean) =>
      t.app.inject({
        method: 'GET',
        url: `/v3/scan-code/image?${f.scope(ids.software, ids.hq)}&id=${id}${download ? '&download=1' : ''}`,
        headers: { 'access-token': f.admin, host: 'kp.example.com' },
      });
    const store = await storeCode();
    const shown = await image(store.id);
    expect(shown.headers['cache-control']).toBe('private, no-store');
    expect(shown.headers['content-disposition']).toBe(
      `inline; filename="scan_${store.id}.png"; filename*=UTF-8''${encodeURIComponent('扫码开票_文三路总部.png')}`,
    );
    const png = PNG.sync.read(shown.rawPayload);
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(qr?.data).toBe(`http://kp.example.com/s/${store.token}`);

    const counter = (await console_('POST', '/v3/scan-code/create-counter', { body: { name: '2号台' } })).json
      .data;
    expect((await image(counter.id, true)).headers['content-disposition']).toBe(
      `attachment; filename="scan_${counter.id}.png"; filename*=UTF-8''${encodeURIComponent('扫码开票_文三路总部_2号台.png')}`,
    );
    const o = await order({ items: [item('10.00')] });
    expect((await image(o.id)).headers['content-disposition']).toContain(
      encodeURIComponent(`扫码开票_订单码_${o.order_no}.png`),
    );

    await settings('audit');
    const [saved] = await t.db.select().from(scanSettings).where(eq(scanSettings.storeId, ids.hq));
    const [made] = await t.db.select().from(scanCodes).where(eq(scanCodes.id, counter.id));
    expect(saved!.updatedBy).toBeGreaterThan(0);
    expect(made!.createdBy).toBe(saved!.updatedBy);
  });

  it('seeds static codes and modes always, and queued requests with the demo history', async () => {
    const modes = await t.db.select().from(scanSettings);
    expect(modes.find((m) => m.storeId === ids.bs)?.mode).toBe('audit');
    expect(modes.find((m) => m.storeId === ids.lj)?.mode).toBe('immediate');
    const before = await t.db.select().from(scanRequests).where(like(scanRequests.orderNo, '%DEMO%'));
    expect(before).toHaveLength(0);
    await t.db.execute(sql`delete from scan_requests`);
    await seedDemoScan(t.db, DEMO, { requests: true });
    await seedDemoScan(t.db, DEMO, { requests: true });
    const queued = await t.db.select().from(scanRequests);
    expect(queued.filter((r) => r.clientId === ids.software && r.status === 'pending')).toHaveLength(3);
    const hotel = queued.filter((r) => r.clientId === ids.hotel);
    expect(hotel).toHaveLength(2);
    expect(hotel[0]!.hotelStay).toMatchObject({
      room_no: expect.any(String),
      guest_name: expect.any(String),
    });
    // a seeded hotel order is approved as it is
    const res = await console_('POST', '/v3/scan-audit/approve', {
      clientId: ids.hotel,
      sid: ids.bs,
      body: { id: Number(hotel[0]!.id) },
    });
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data.status).toBe('issued');
    await t.app.invoiceHooks.drain();
  });
});
