import { CODE, INVOICE_CODE, messageFor, SCAN_CODE } from '@kaipiao/shared';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buyer, type ConsoleOpts, item, resetScanLimits, scanCallers } from '../../../test/fixtures/scan.ts';
import { buildTestApp, DEMO } from '../../../test/helper.ts';
import { raceBehindLock } from '../../../test/race.ts';
import { clientStores, invoices, outbox, scanRequests, scanSettings } from '../../db/schema/index.ts';

type Code = {
  id: number;
  kind: string;
  name: string;
  token: string;
  order_no: string | null;
  amount: string | null;
  store_name: string;
  expires_at: string | null;
  created_at: string;
};

/**
 * The clerk's side of scan-to-invoice (scan/service.ts): settings and the device a store issues with,
 * code lists and their filters, the queue's filters and pages, what an approval issues (buyer title,
 * remark, hotel stay, the device chosen), the ways an approval fails and what the request keeps, and
 * what the buyer is told (masked contacts, SMS and e-mail only where there is someone to tell).
 */
describe('scan settings, code lists, the audit queue and what an approval issues', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let ids: Fixture['ids'];
  /** a store of the software company with no device bound */
  let bare: number;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    ids = f.ids;
    const [s] = await t.db
      .insert(clientStores)
      .values({ clientId: ids.software, name: '新开门店', code: 'NEW' })
      .returning();
    bare = s!.id;
  });
  beforeEach(async () => {
    await resetScanLimits(t);
  });

  const { console_, pub } = scanCallers(
    () => t,
    () => f,
  );
  const settings = (body: Record<string, unknown>, o: { clientId?: number; sid?: number } = {}) =>
    console_('POST', '/v3/scan-code/settings', {
      ...o,
      body: { mode: 'audit', device_id: null, invoice_type: '82', default_valid_minutes: 1440, ...body },
    });
  const codes = async (o: { sid?: number; query?: string } = {}) => {
    const res = await console_('GET', '/v3/scan-code/list', o);
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as { list: Code[]; total: number };
  };
  const counter = async (name: string, sid = ids.hq) => {
    const res = await console_('POST', '/v3/scan-code/create-counter', { sid, body: { name } });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as Code;
  };
  const order = async (body: Record<string, unknown>, o: { clientId?: number; sid?: number } = {}) => {
    const res = await console_('POST', '/v3/scan-code/create-order', { ...o, body });
    expect(res.json.code, res.json.message).toBe(0);
    return res.json.data as Code & { amount: string };
  };
  /** the buyer submits through a code: the request's id and status token */
  const submit = async (token: string, extra: Record<string, unknown> = {}) => {
    const res = await pub('POST', '/v3/scan/submit', buyer(token, extra));
    expect(res.json.code, res.json.message).toBe(0);
    const [r] = await t.db
      .select()
      .from(scanRequests)
      .where(eq(scanRequests.token, res.json.data.request_token));
    return {
      id: Number(r!.id),
      requestToken: res.json.data.request_token as string,
      status: res.json.data.status,
    };
  };
  const approve = (id: number, body: Record<string, unknown> = {}, o: ConsoleOpts = {}) =>
    console_('POST', '/v3/scan-audit/approve', { ...o, body: { id, ...body } });
  const requestRow = async (id: number) =>
    (await t.db.select().from(scanRequests).where(eq(scanRequests.id, id)))[0]!;
  const invoiceOfSerial = async (serialNo: string, clientId = ids.software) =>
    (
      await t.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.clientId, clientId), eq(invoices.serialNo, serialNo)))
    )[0];
  const messagesTo = async (recipient: string) =>
    (await t.db.select().from(outbox).where(eq(outbox.recipient, recipient))).map((m) => ({
      channel: m.channel,
      subject: m.subject,
      content: m.content,
    }));

  it('a store never configured has the default settings; a device must be bound to the store', async () => {
    const fresh = await console_('GET', '/v3/scan-code/settings', { sid: bare });
    expect(fresh.json.data).toEqual({
      store_id: bare,
      mode: 'audit',
      device_id: null,
      invoice_type: '82',
      default_valid_minutes: 1440,
    });
    // another business's device, and one of ours bound only to 滨江 (BJ)
    for (const device of [ids.hotelDigital, ids.goldenBranch]) {
      const res = await settings({ mode: 'immediate', device_id: device });
      expect(res.json, String(device)).toMatchObject({
        code: INVOICE_CODE.DEVICE_NOT_BOUND,
        message: messageFor(INVOICE_CODE.DEVICE_NOT_BOUND),
      });
    }
    const kept = await console_('GET', '/v3/scan-code/settings');
    expect(kept.json.data).toMatchObject({ mode: 'audit', device_id: null });
    // a device bound to the store through a trusteeship counts: none here, the bound one does
    const ok = await settings({ device_id: ids.ukey, default_valid_minutes: 30 });
    expect(ok.json.data).toMatchObject({ device_id: ids.ukey, default_valid_minutes: 30 });
    await settings({});
  });

  it('the configured device issues, in the kind the device has when it lacks the one asked for', async () => {
    // the UKey has no 数电 kinds: the request is issued on it as 增值税电子普通发票 (026), not on the 数电 account
    await settings({ device_id: ids.ukey, invoice_type: '82' });
    const c = await counter('设备测试台');
    const r = await submit(c.token, { email: '' });
    const res = await approve(r.id, { items: [item('21.20')] });
    expect(res.json.code, res.json.message).toBe(0);
    const inv = await invoiceOfSerial(`SCAN-R${String(r.id).padStart(6, '0')}`);
    expect(inv).toMatchObject({
      deviceId: ids.ukey,
      invoiceType: '026',
      status: 'issued',
      buyerTitleType: 2,
    });
    expect(res.json.data.request).toMatchObject({ invoice_type: '026', invoice_id: inv!.id });
    await settings({});
    await t.app.invoiceHooks.drain();
  });

  it('a store without a device cannot issue: the request stays pending, also in immediate mode', async () => {
    // the new store's own code is made on first listing, with no expiry
    const listed = await codes({ sid: bare, query: 'kind=static' });
    expect(listed.total).toBe(1);
    expect(listed.list[0]).toMatchObject({ kind: 'store', store_name: '新开门店', expires_at: null });
    expect(listed.list[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const page = await pub('GET', `/v3/scan/code?token=${listed.list[0]!.token}`);
    expect(page.json.data).toMatchObject({ point_name: '新开门店', kind: 'store', expires_at: null });

    const r = await submit(listed.list[0]!.token);
    const res = await approve(r.id, { items: [item('10.00')] }, { sid: bare });
    expect(res.json).toMatchObject({ code: SCAN_CODE.NO_DEVICE, message: messageFor(SCAN_CODE.NO_DEVICE) });
    expect(await requestRow(r.id)).toMatchObject({ status: 'pending', serialNo: null });

    await settings({ mode: 'immediate' }, { sid: bare });
    const o = await order({ items: [item('10.00')] }, { sid: bare });
    const now = await submit(o.token);
    expect(now.status).toBe('pending');
    expect(await requestRow(now.id)).toMatchObject({ status: 'pending', serialNo: null });
    await settings({}, { sid: bare });
  });

  it('immediate mode: a request the bureau refuses is answered as failed and waits for a retry', async () => {
    await settings({ mode: 'immediate' });
    await f.dev('control', { device_id: ids.digital, fault: 'error', fault_count: 1 });
    const o = await order({ items: [item('15.00')] });
    const r = await submit(o.token);
    expect(r.status).toBe('failed');
    const row = await requestRow(r.id);
    expect(row).toMatchObject({ status: 'failed', serialNo: `SCAN-O${String(o.id).padStart(6, '0')}` });
    // the invoice the channel saw belongs to scan-to-invoice, and the request points at it
    const inv = await invoiceOfSerial(row.serialNo!);
    expect(inv).toMatchObject({ status: 'failed', source: 'scan' });
    expect(Number(row.invoiceId)).toBe(inv!.id);
    await settings({});
    await f.dev('reset', { device_id: ids.digital });
  });

  it('an unknown outcome leaves the request issuing, pointing at its invoice; a refusal before any invoice returns it to the queue', async () => {
    const c = await counter('未知结果台');
    const r = await submit(c.token);
    await f.dev('control', {
      device_id: ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 3600,
    });
    const unknown = await approve(r.id, { items: [item('12.00')] });
    expect(unknown.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    const inv = await invoiceOfSerial(`SCAN-R${String(r.id).padStart(6, '0')}`);
    expect(inv).toMatchObject({ source: 'scan' });
    const detail = await console_('GET', '/v3/scan-audit/detail', { query: `id=${r.id}` });
    expect(detail.json.data).toMatchObject({ status: 'issuing', invoice_id: inv!.id });
    await f.dev('reset', { device_id: ids.digital });

    // the device is offline: refused before an invoice exists, the clerk may change the goods and retry
    const r2 = await submit(c.token);
    await f.dev('device', { device_id: ids.digital, online: false });
    const offline = await approve(r2.id, { items: [item('13.00')] });
    expect(offline.json.code).toBe(INVOICE_CODE.DEVICE_OFFLINE);
    expect(await requestRow(r2.id)).toMatchObject({
      status: 'pending',
      serialNo: null,
      issueRequest: null,
      errorMessage: messageFor(INVOICE_CODE.DEVICE_OFFLINE),
    });
    expect(await invoiceOfSerial(`SCAN-R${String(r2.id).padStart(6, '0')}`)).toBeUndefined();
    await f.dev('device', { device_id: ids.digital, online: true });
    const again = await approve(r2.id, { items: [item('14.00')] });
    expect(again.json.data).toMatchObject({
      status: 'issued',
      request: { amount: '14.00', error_message: null },
    });
    await t.app.invoiceHooks.drain();
  });

  it('two clerks retrying one failed request at once: one retry goes to the bureau, the other is told', async () => {
    const c = await counter('重试台');
    const r = await submit(c.token);
    await f.dev('control', { device_id: ids.digital, fault: 'error', fault_count: 1 });
    expect((await approve(r.id, { items: [item('16.00')] })).json.code).toBe(INVOICE_CODE.CHANNEL_ERROR);
    expect((await requestRow(r.id)).status).toBe('failed');
    const [a, b] = await raceBehindLock({
      url: t.url,
      lock: 'select id from scan_requests where id = $1 for no key update',
      params: [r.id],
      calls: [() => approve(r.id, {}, { token: f.admin }), () => approve(r.id, {}, { token: f.clerk })],
    });
    expect([a.json.code, b.json.code].sort()).toEqual([0, SCAN_CODE.ALREADY_HANDLED].sort());
    const serialNo = `SCAN-R${String(r.id).padStart(6, '0')}`;
    expect(await invoiceOfSerial(serialNo)).toMatchObject({ status: 'issued', totalWithTax: '16.00' });
    await t.app.invoiceHooks.drain();
  });

  it('what an approval issues: the buyer as submitted, the clerk’s remark, the amount stated before', async () => {
    const c = await counter('个人抬头台');
    // a static code keeps the amount the buyer stated, for the clerk to check
    const r = await submit(c.token, {
      title_type: 1,
      name: '张三',
      tax_code: '',
      email: '',
      mobile: '13900000123',
      amount: '88.00',
    });
    const before = await console_('GET', '/v3/scan-audit/detail', { query: `id=${r.id}` });
    expect(before.json.data).toMatchObject({ amount: '88.00', items: null, invoice_id: null, title_type: 1 });
    const res = await approve(r.id, { items: [item('88.00')], remark: '包间A' });
    expect(res.json.data.status).toBe('issued');
    const inv = await invoiceOfSerial(`SCAN-R${String(r.id).padStart(6, '0')}`);
    expect(inv).toMatchObject({
      buyerTitleType: 1,
      buyerName: '张三',
      remark: '包间A',
      priceIncludesTax: true,
      totalWithTax: '88.00',
      source: 'scan',
      payee: '',
      reviewer: '',
    });
    expect(res.json.data.request).toMatchObject({ invoice_id: inv!.id, invoice_no: inv!.invoiceNo });
    // the buyer is told by SMS, with the number and the amount
    await expect
      .poll(() => messagesTo('13900000123'))
      .toEqual([
        {
          channel: 'sms',
          subject: '',
          content: `【开票台】您在杭州云栈软件科技有限公司申请的发票已开具，发票号码${inv!.invoiceNo}，价税合计88.00元。请回到扫码开票页面查看并下载发票。`,
        },
      ]);
    // the buyer's page: contacts masked, no reason, the invoice
    const page = await pub('GET', `/v3/scan/request?token=${r.requestToken}`);
    expect(page.json.data).toMatchObject({
      status: 'issued',
      email: '',
      mobile: '139****0123',
      reject_reason: '',
      invoice: { invoice_no: inv!.invoiceNo, invoice_type_name: '电子发票（普通发票）' },
    });
    await t.app.invoiceHooks.drain();
  });

  it('a request with no remark and no order number is issued with an empty remark; no contact, no message', async () => {
    const c = await counter('无备注台');
    // e-mail only: issued, no SMS to no one
    const r = await submit(c.token, { email: 'only.mail@example.com', mobile: '' });
    const res = await approve(r.id, { items: [item('9.00')] });
    expect(res.json.data.status).toBe('issued');
    const inv = await invoiceOfSerial(`SCAN-R${String(r.id).padStart(6, '0')}`);
    expect(inv!.remark).toBe('');
    await t.app.invoiceHooks.drain();
    expect((await pub('GET', `/v3/scan/request?token=${r.requestToken}`)).json.data.mobile).toBe('');
    // rejected: the one who left only a mobile gets no e-mail, the one who left only an e-mail no SMS
    const byMail = await submit(c.token, { email: 'only.mail2@example.com', mobile: '' });
    const bySms = await submit(c.token, { email: '', mobile: '13900000456' });
    expect((await pub('GET', `/v3/scan/request?token=${bySms.requestToken}`)).json.data.email).toBe('');
    for (const x of [byMail, bySms]) {
      const rejected = await console_('POST', '/v3/scan-audit/reject', {
        body: { id: x.id, reason: '重复申请' },
      });
      expect(rejected.json.data.status).toBe('rejected');
    }
    await expect.poll(async () => (await messagesTo('13900000456')).length).toBe(1);
    await expect.poll(async () => (await messagesTo('only.mail2@example.com')).length).toBe(1);
    expect(await messagesTo('')).toEqual([]);
  });

  it('a rejection reaches the buyer by e-mail with its subject, and the page masks the address', async () => {
    const c = await counter('拒绝台');
    const r = await submit(c.token, { email: 'wang.fang@example.com', mobile: '' });
    const page = await pub('GET', `/v3/scan/request?token=${r.requestToken}`);
    expect(page.json.data).toMatchObject({ email: 'wa*******@example.com', mobile: '', reject_reason: '' });
    await console_('POST', '/v3/scan-audit/reject', { body: { id: r.id, reason: '抬头有误' } });
    await expect
      .poll(() => messagesTo('wang.fang@example.com'))
      .toEqual([
        {
          channel: 'email',
          subject: '开票申请未通过审核 - 杭州云栈软件科技有限公司',
          content:
            '【开票台】您在杭州云栈软件科技有限公司（文三路总部）提交的开票申请未通过审核，原因：抬头有误。如有疑问请联系商家。',
        },
      ]);
    const after = await pub('GET', `/v3/scan/request?token=${r.requestToken}`);
    expect(after.json.data).toMatchObject({ status: 'rejected', reject_reason: '抬头有误' });
  });

  it('a hotel order is issued with its stay; the order number leads the remark', async () => {
    await settings({}, { clientId: ids.hotel, sid: ids.bs });
    const stay = { room_no: '1206', guest_name: '王五', check_in: '2026-11-20', check_out: '2026-11-21' };
    const o = await order(
      {
        order_no: 'H-20261120-1206',
        items: [item('300.00', { name: '住宿服务', tax_rate: '0.01' })],
        hotel_stay: stay,
      },
      { clientId: ids.hotel, sid: ids.bs },
    );
    const r = await submit(o.token);
    const res = await approve(r.id, { remark: '含早' }, { clientId: ids.hotel, sid: ids.bs });
    expect(res.json.code, res.json.message).toBe(0);
    const inv = await invoiceOfSerial(`SCAN-O${String(o.id).padStart(6, '0')}`, ids.hotel);
    expect(inv!.remark).toBe('订单号：H-20261120-1206 含早');
    // a company buyer is issued as a company (title type 2), with its tax code
    expect(inv).toMatchObject({ buyerTitleType: 2, buyerName: '杭州西溪数据服务有限公司' });
    expect(inv!.specificBusiness).toMatchObject({ hotel_stay: stay });
    await t.app.invoiceHooks.drain();
  });

  it('order codes: a number is made when none is given, a number is used once, items the rules refuse are named', async () => {
    const auto = await order({ items: [item('5.00')] });
    expect(auto.order_no).toMatch(/^SO[0-9A-Z]{6,}[0-9A-F]{4}$/);
    expect((await pub('GET', `/v3/scan/code?token=${auto.token}`)).json.data).toMatchObject({
      kind: 'order',
      point_name: '订单码',
      order_no: auto.order_no,
      amount: '5.00',
      items: [{ name: '餐饮服务', amount_with_tax: '5.00' }],
    });
    expect(auto.expires_at).not.toBeNull();
    await order({ order_no: 'DUP-0001', items: [item('5.00')] });
    const dup = await console_('POST', '/v3/scan-code/create-order', {
      body: { order_no: 'DUP-0001', items: [item('6.00')] },
    });
    expect(dup.json).toMatchObject({
      code: SCAN_CODE.ORDER_NO_DUPLICATE,
      message: messageFor(SCAN_CODE.ORDER_NO_DUPLICATE),
    });
    const listed = await codes({ query: `kind=order&keyword=DUP-0001` });
    expect(listed.list.map((c) => c.amount)).toEqual(['5.00']);
    // quantities with tax-inclusive amounts are checked as tax-inclusive
    const counted = await order({ items: [item('106.00', { quantity: '3' })] });
    expect(counted.amount).toBe('106.00');
    const zero = await console_('POST', '/v3/scan-code/create-order', {
      body: { items: [item('6.00', { quantity: '0' })] },
    });
    expect(zero.json).toMatchObject({ code: CODE.VALIDATION, message: '餐饮服务：数量不能为0' });
  });

  it('code lists: static codes (the store’s first) or orders, by keyword, page by page with the total', async () => {
    await counter('一楼甲台', ids.sh);
    await counter('一楼乙台', ids.sh);
    await counter('二楼台', ids.sh);
    await order({ order_no: 'SH-LIST-1', items: [item('1.00')] }, { sid: ids.sh });
    const all = await codes({ sid: ids.sh, query: 'kind=static' });
    expect(all.list[0]!.kind).toBe('store');
    expect(all.list.every((c) => c.kind !== 'order')).toBe(true);
    expect(all.total).toBe(all.list.length);
    const one = await codes({ sid: ids.sh, query: `kind=static&keyword=${encodeURIComponent('一楼')}` });
    expect(one.list.map((c) => c.name)).toEqual(['一楼乙台', '一楼甲台']);
    expect(one.total).toBe(2);
    for (let i = 1; i <= 11; i++) await counter(`批量台${String(i).padStart(2, '0')}`, ids.sh);
    const second = await codes({
      sid: ids.sh,
      query: `kind=static&keyword=${encodeURIComponent('批量台')}&page=2&page_size=10`,
    });
    expect(second.list.map((c) => c.name)).toEqual(['批量台01']);
    expect(second.total).toBe(11);
    const orders = await codes({ sid: ids.sh, query: 'kind=order' });
    expect(orders.list.map((c) => c.order_no)).toEqual(['SH-LIST-1']);
    // a counter's page names the store and the counter
    const page = await pub('GET', `/v3/scan/code?token=${one.list[0]!.token}`);
    expect(page.json.data.point_name).toBe(`${one.list[0]!.store_name} · 一楼乙台`);
  });

  it('the queue: by store, state, code and keyword, page by page with the total', async () => {
    const c = await counter('队列台');
    const a = await submit(c.token, { name: '杭州西溪数据服务有限公司' });
    const b = await submit(c.token, { name: '宁波海曙贸易有限公司', tax_code: DEMO.software.taxCode });
    const d = await submit(c.token, { name: '温州鹿城商贸有限公司', tax_code: DEMO.hotel.taxCode });
    await console_('POST', '/v3/scan-audit/reject', { body: { id: d.id, reason: '测试' } });
    const list = async (query: string, sid = ids.hq) => {
      const res = await console_('GET', '/v3/scan-audit/list', { sid, query });
      expect(res.json.code, res.json.message).toBe(0);
      return { ids: res.json.data.list.map((x: { id: number }) => x.id), total: res.json.data.total };
    };
    expect(await list(`code_id=${c.id}&status=`)).toEqual({ ids: [d.id, b.id, a.id], total: 3 });
    expect(await list(`code_id=${c.id}&status=pending`)).toEqual({ ids: [b.id, a.id], total: 2 });
    expect(await list(`code_id=${c.id}&status=rejected`)).toEqual({ ids: [d.id], total: 1 });
    // ten more of the first, copied: page 2 of 10 holds the last one and the first three
    await t.db.execute(sql`insert into scan_requests (client_id, store_id, code_id, code_kind, token, status, title_type,
        buyer_name, buyer_tax_code, email, mobile, submit_ip)
      select client_id, store_id, code_id, code_kind, token || '-' || n, status, title_type, buyer_name, buyer_tax_code,
        email, mobile, submit_ip
      from scan_requests, generate_series(1, 10) n where id = ${a.id}`);
    const page2 = await list(`code_id=${c.id}&status=&page=2&page_size=10`);
    expect(page2.total).toBe(13);
    expect(page2.ids.slice(-3)).toEqual([d.id, b.id, a.id]);
    expect(page2.ids).toHaveLength(3);
    // keywords: a name fragment (wildcards typed are dropped), a tax code
    expect(await list(`code_id=${c.id}&status=&keyword=${encodeURIComponent('海曙%贸_易')}`)).toEqual({
      ids: [b.id],
      total: 1,
    });
    expect(await list(`code_id=${c.id}&status=&keyword=${encodeURIComponent('海曙')}`)).toEqual({
      ids: [b.id],
      total: 1,
    });
    expect((await list(`code_id=${c.id}&status=&keyword=${DEMO.hotel.taxCode.slice(0, 12)}`)).ids).toEqual([
      d.id,
    ]);
    // another store's queue does not show them; the all-stores view does
    expect(await list(`code_id=${c.id}&status=`, ids.bj)).toEqual({ ids: [], total: 0 });
    expect(await list(`code_id=${c.id}&status=rejected`, -1)).toEqual({ ids: [d.id], total: 1 });
  });

  it('a clerk of two stores sees both queues in the all-stores view, and no third store', async () => {
    const at = async (name: string, sid: number) =>
      (await submit((await counter(`${name}台`, sid)).token, { name: `${name}测试有限公司` })).id;
    const hq = await at('双店甲', ids.hq);
    const bj = await at('双店乙', ids.bj);
    const sh = await at('双店丙', ids.sh);
    const seen = async () => {
      const res = await console_('GET', '/v3/scan-audit/list', {
        token: f.clerk,
        sid: -1,
        query: `status=&keyword=${encodeURIComponent('双店')}`,
      });
      expect(res.json.code, res.json.message).toBe(0);
      return res.json.data.list.map((x: { id: number }) => x.id);
    };
    expect(await seen()).toEqual([hq]);
    const grant = sql`from employee_scopes s join employees e on e.id = s.employee_id join users u on u.id = e.user_id
      where u.account = ${DEMO.clerk.account} and s.client_id = ${ids.software}`;
    await t.db.execute(sql`insert into employee_scopes (employee_id, client_id, store_id)
      select s.employee_id, s.client_id, ${ids.bj}::int ${grant} and s.store_id = ${ids.hq}`);
    t.app.accessService.forgetAll();
    try {
      expect(await seen()).toEqual([bj, hq]);
      expect(await seen()).not.toContain(sh);
    } finally {
      await t.db.execute(sql`delete from employee_scopes where (employee_id, client_id, store_id) in
        (select s.employee_id, s.client_id, s.store_id ${grant} and s.store_id = ${ids.bj})`);
      t.app.accessService.forgetAll();
    }
  });

  it('title lookup: tax-code prefixes only when the whole term looks like one; wildcards typed are dropped', async () => {
    const code = (await codes({ query: 'kind=static' })).list.find((c) => c.kind === 'store')!;
    const search = async (kw: string) =>
      (await pub('GET', `/v3/scan/title-search?token=${code.token}&keyword=${encodeURIComponent(kw)}`)).json
        .data as { name: string }[];
    expect((await search('云%栈')).map((x) => x.name)).toEqual(['杭州云栈软件科技有限公司']);
    await t.db.execute(
      sql`update clients set name = '杭州云栈软件科技有限公司ABC123号' where id = ${ids.software}`,
    );
    try {
      // a code-like tail or head in a name is still a name
      for (const kw of ['科技有限公司ABC123', 'ABC123号']) {
        expect((await search(kw)).map((x) => x.name)).toEqual(['杭州云栈软件科技有限公司ABC123号']);
      }
    } finally {
      await t.db.execute(
        sql`update clients set name = '杭州云栈软件科技有限公司' where id = ${ids.software}`,
      );
    }
  });

  it('the code picture is a 480-pixel PNG', async () => {
    const code = (await codes({ query: 'kind=static' })).list[0]!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/v3/scan-code/image?id=${code.id}&${f.scope(ids.software, ids.hq)}`,
      headers: { 'access-token': f.admin },
    });
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.readUInt32BE(16)).toBe(480);
    expect(res.rawPayload.readUInt32BE(20)).toBe(480);
  });

  it('settings rows are per store', async () => {
    const bj = (await console_('GET', '/v3/scan-code/settings', { sid: ids.bj })).json.data;
    await settings(
      { mode: bj.mode === 'audit' ? 'immediate' : 'audit', default_valid_minutes: 77 },
      { sid: ids.sh },
    );
    const rows = await t.db.select().from(scanSettings).where(eq(scanSettings.storeId, ids.sh));
    expect(rows.map((r) => r.defaultValidMinutes)).toEqual([77]);
    expect((await console_('GET', '/v3/scan-code/settings', { sid: ids.bj })).json.data).toEqual(bj);
    await settings({}, { sid: ids.sh });
  });
});
