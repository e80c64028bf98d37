import { CODE, DOC_CODE, SESSION_CODE, toChineseCapital } from '@kaipiao/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertWellFormedXml, insertInvoice, xsdErrors } from '../../../test/fixtures/documents.ts';
import { invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO, demoIds, login } from '../../../test/helper.ts';
import type { App } from '../../app.ts';
import {
  clientStores,
  invoiceEvents,
  invoiceFiles,
  invoices,
  outbox,
  redForms,
} from '../../db/schema/index.ts';
import { runInvoiceIssuedHooks } from '../invoices/hooks.ts';
import { EMAIL_JOB, RENDER_JOB } from './jobs.ts';
import { extractPdfText } from './pdf-text.ts';

type Db = App['db'];

const events = (db: Db, invoiceId: number) =>
  db
    .select()
    .from(invoiceEvents)
    .where(eq(invoiceEvents.invoiceId, invoiceId))
    .orderBy(asc(invoiceEvents.id));

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('invoice documents: download and e-mail', () => {
  let app: App;
  let db: Db;
  let admin: string;
  let clerk: string;
  let software: number;
  let hotel: number;
  let storeOf: Record<string, number>;

  const q = (clientId: number, storeId = -1) => `client_id=${clientId}&sid=${storeId}`;

  beforeAll(async () => {
    ({ app, db } = await buildTestApp());
    admin = await login(app, DEMO.admin.account);
    clerk = await login(app, DEMO.clerk.account);
    ({ software, hotel } = (await demoIds(app, admin)) as { software: number; hotel: number });
    const stores = await db.select().from(clientStores);
    storeOf = Object.fromEntries(stores.map((s) => [s.code, s.id]));
  });

  it('jobs are off in tests unless asked for', () => {
    expect(app.jobs.enabled).toBe(false);
    expect(app.jobs.worker).toBe(false);
    return expect(app.jobs.started()).rejects.toThrow(/KAIPIAO_JOBS/);
  });

  it('downloads the PDF with a Chinese file name, renders it once and serves it from the cache', async () => {
    const inv = await insertInvoice(db, {
      clientId: software,
      storeId: storeOf.HQ!,
      buyerName: '上海明远贸易有限公司',
    });
    const url = `/v3/invoice-detail/download?${q(software, storeOf.HQ)}&invoice_id=${inv.id}&kind=pdf`;
    const res = await app.inject({ method: 'GET', url, headers: { 'access-token': admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const cd = String(res.headers['content-disposition']);
    expect(cd).toMatch(/^attachment; filename="[ -~]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toBe(`电子发票（普通发票）_${inv.invoiceNo}.pdf`);
    const text = await extractPdfText(res.rawPayload);
    expect(text).toContain('上海明远贸易有限公司');
    expect(text).toContain(inv.invoiceNo!);
    expect(text).toContain(toChineseCapital('212.00'));

    const stored = await db
      .select()
      .from(invoiceFiles)
      .where(and(eq(invoiceFiles.invoiceId, inv.id), eq(invoiceFiles.kind, 'pdf')));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.size).toBe(res.rawPayload.length);
    expect(stored[0]!.clientId).toBe(software);

    const again = await app.inject({ method: 'GET', url, headers: { 'access-token': admin } });
    expect(Buffer.compare(again.rawPayload, res.rawPayload)).toBe(0);
    const rendered = (await events(db, inv.id)).filter((e) => e.kind === 'rendered');
    expect(rendered).toHaveLength(1);
  });

  it('downloads the XML data file, well-formed, with the totals and escaped remark', async () => {
    const inv = await insertInvoice(db, { clientId: software, storeId: storeOf.HQ!, buyerName: '杭州&客户' });
    const res = await app.inject({
      method: 'GET',
      url: `/v3/invoice-detail/download?${q(software)}&invoice_id=${inv.id}&kind=xml&inline=1`,
      headers: { 'access-token': admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(/^inline; /);
    const xml = res.body;
    assertWellFormedXml(xml);
    expect(xml).toContain('<TotalAmWithoutTax>200.00</TotalAmWithoutTax>');
    expect(xml).toContain('<TotalTax-includedAmount>212.00</TotalTax-includedAmount>');
    expect(xml).toContain('<BuyerName>杭州&amp;客户</BuyerName>');
    expect(xml).toContain('合同号 HT-1 &amp; &lt;测试&gt;');
    // bureau spec §四: valid against the schema, the seller's bureau (Zhejiang) and taxpayer type
    expect(await xsdErrors(xml)).toEqual([]);
    expect(xml).toContain('<EInvoiceTag>SWEI3300</EInvoiceTag>');
    expect(xml).toContain('<TaxBureauName>国家税务总局浙江省税务局</TaxBureauName>');
    expect(xml).toMatch(/<TaxpayerType>\s*<LabelCode>1<\/LabelCode>\s*<LabelName>一般纳税人<\/LabelName>/);
    expect(xml).toContain('<TotaltaxIncludedAmount>212.00</TotaltaxIncludedAmount>');
  });

  it('a red invoice’s XML names the blue invoice and its 红字确认单; a small-scale seller says so', async () => {
    const blue = await insertInvoice(db, { clientId: hotel, storeId: storeOf.BS!, buyerName: '红冲客户' });
    const red = await insertInvoice(db, { clientId: hotel, storeId: storeOf.BS!, buyerName: '红冲客户' });
    const [form] = await db
      .insert(redForms)
      .values({
        clientId: hotel,
        storeId: storeOf.BS!,
        deviceId: red.deviceId,
        blueInvoiceId: blue.id,
        kind: 'confirm',
        formNo: '33010826112200000777',
        reason: '01',
        full: true,
        state: '04',
        totalAmount: '-200.00',
        totalTax: '-12.00',
        totalWithTax: '-212.00',
        lines: [],
        redInvoiceId: red.id,
      })
      .returning();
    await db
      .update(invoices)
      .set({
        direction: 'red',
        originalInvoiceId: blue.id,
        redFormId: form!.id,
        totalAmount: '-200.00',
        totalTax: '-12.00',
        totalWithTax: '-212.00',
      })
      .where(eq(invoices.id, red.id));
    const res = await app.inject({
      method: 'GET',
      url: `/v3/invoice-detail/download?${q(hotel)}&invoice_id=${red.id}&kind=xml`,
      headers: { 'access-token': admin },
    });
    expect(res.statusCode).toBe(200);
    const xml = res.body;
    expect(await xsdErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<InIssuType>\s*<LabelCode>N<\/LabelCode>/);
    expect(xml).toContain(`<OriginalInvoiceCode>${blue.invoiceNo}</OriginalInvoiceCode>`);
    expect(xml).toContain('<CreditNoteNumber>33010826112200000777</CreditNoteNumber>');
    expect(xml).toContain('<TotalTax-includedAmount>-212.00</TotalTax-includedAmount>');
    expect(xml).toMatch(/<TaxpayerType>\s*<LabelCode>2<\/LabelCode>\s*<LabelName>小规模纳税人<\/LabelName>/);
  });

  it("answers another business's invoice, or another store's for a one-store clerk, with 10004 and no file", async () => {
    const foreign = await insertInvoice(db, {
      clientId: hotel,
      storeId: storeOf.BS!,
      buyerName: '别家的客户',
    });
    const res = await app.inject({
      method: 'GET',
      url: `/v3/invoice-detail/download?${q(software)}&invoice_id=${foreign.id}&kind=pdf`,
      headers: { 'access-token': admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ code: CODE.NOT_FOUND, data: null });
    expect(res.body).not.toContain('别家的客户');
    const mail = await call(app, 'POST', `/v3/invoice-detail/send-email?${q(software)}`, {
      token: admin,
      body: { invoice_id: foreign.id, email: 'buyer@example.com' },
    });
    expect(mail.json.code).toBe(CODE.NOT_FOUND);
    expect(await db.select().from(invoiceFiles).where(eq(invoiceFiles.invoiceId, foreign.id))).toHaveLength(
      0,
    );

    // the clerk works in 文三路总部 only
    const otherStore = await insertInvoice(db, {
      clientId: software,
      storeId: storeOf.BJ!,
      buyerName: '滨江的客户',
    });
    const own = await insertInvoice(db, {
      clientId: software,
      storeId: storeOf.HQ!,
      buyerName: '总部的客户',
    });
    const get = (id: number) =>
      app.inject({
        method: 'GET',
        url: `/v3/invoice-detail/download?${q(software, storeOf.HQ)}&invoice_id=${id}`,
        headers: { 'access-token': clerk },
      });
    // another store of the same business: 无权限操作该门店 (issue 21), no file
    expect((await get(otherStore.id)).json()).toMatchObject({
      code: SESSION_CODE.STORE_NOT_PERMITTED,
      data: null,
    });
    expect((await get(own.id)).headers['content-type']).toBe('application/pdf');
  });

  it('refuses an invoice that has no documents yet, and a call without the menu or a session', async () => {
    const issuing = await insertInvoice(db, {
      clientId: software,
      storeId: storeOf.HQ!,
      buyerName: '开具中',
      issued: false,
    });
    const res = await call(
      app,
      'GET',
      `/v3/invoice-detail/download?${q(software)}&invoice_id=${issuing.id}&kind=pdf`,
      { token: admin },
    );
    expect(res.json.code).toBe(DOC_CODE.NOT_ISSUED);
    const anon = await call(
      app,
      'GET',
      `/v3/invoice-detail/download?${q(software)}&invoice_id=${issuing.id}`,
    );
    expect(anon.json.code).toBe(CODE.UNAUTHORIZED);
    const bad = await call(app, 'GET', `/v3/invoice-detail/download?${q(software)}&invoice_id=x&kind=doc`, {
      token: admin,
    });
    expect(bad.json.code).toBe(CODE.VALIDATION);
  });

  it('e-mails the PDF and XML through the outbox and records emailed with the address', async () => {
    const inv = await insertInvoice(db, { clientId: software, storeId: storeOf.HQ!, buyerName: '邮件客户' });
    const res = await call(app, 'POST', `/v3/invoice-detail/send-email?${q(software, storeOf.HQ)}`, {
      token: clerk,
      body: { invoice_id: inv.id, email: ' finance@mingyuan.example.com ' },
    });
    expect(res.json).toMatchObject({
      code: 0,
      data: { invoice_id: inv.id, email: 'finance@mingyuan.example.com', status: 'sent' },
    });
    const [mail] = await db.select().from(outbox).where(eq(outbox.recipient, 'finance@mingyuan.example.com'));
    expect(mail).toMatchObject({ channel: 'email', status: 'sent', error: null });
    expect(mail!.subject).toContain(inv.invoiceNo!);
    expect(mail!.content).toContain('¥212.00');
    const files = await db.select().from(invoiceFiles).where(eq(invoiceFiles.invoiceId, inv.id));
    const sizeOf = Object.fromEntries(files.map((f) => [f.kind, f.size]));
    expect(mail!.attachments).toEqual([
      {
        file_name: `电子发票（普通发票）_${inv.invoiceNo}.pdf`,
        content_type: 'application/pdf',
        size: sizeOf.pdf,
      },
      {
        file_name: `电子发票（普通发票）_${inv.invoiceNo}.xml`,
        content_type: 'application/xml',
        size: sizeOf.xml,
      },
    ]);
    const emailed = (await events(db, inv.id)).filter((e) => e.kind === 'emailed');
    expect(emailed).toHaveLength(1);
    expect(emailed[0]!.detail).toMatchObject({ email: 'finance@mingyuan.example.com', outbox_id: mail!.id });
    expect(emailed[0]!.userId).not.toBeNull();
  });

  it('reports a bounce (…@fail.example) as 15002 and records email_failed with the address', async () => {
    const inv = await insertInvoice(db, { clientId: software, storeId: storeOf.HQ!, buyerName: '退信客户' });
    const res = await call(app, 'POST', `/v3/invoice-detail/send-email?${q(software)}`, {
      token: admin,
      body: { invoice_id: inv.id, email: 'nobody@fail.example' },
    });
    expect(res.json.code).toBe(DOC_CODE.EMAIL_FAILED);
    expect(res.json.data).toMatchObject({
      email: 'nobody@fail.example',
      reason: expect.stringContaining('550'),
    });
    const failed = (await events(db, inv.id)).filter((e) => e.kind === 'email_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.detail).toMatchObject({
      email: 'nobody@fail.example',
      error: expect.stringContaining('550'),
    });
    const [row] = await db.select().from(outbox).where(eq(outbox.recipient, 'nobody@fail.example'));
    expect(row).toMatchObject({ status: 'failed', channel: 'email' });
    expect(row!.attachments).toHaveLength(2);
  });

  it('validates the address with the shared e-mail pattern', async () => {
    const inv = await insertInvoice(db, { clientId: software, storeId: storeOf.HQ!, buyerName: '校验客户' });
    for (const email of ['not-an-email', 'a@b', '']) {
      const res = await call(app, 'POST', `/v3/invoice-detail/send-email?${q(software)}`, {
        token: admin,
        body: { invoice_id: inv.id, email },
      });
      expect(res.json.code).toBe(CODE.VALIDATION);
      expect(res.json.data.errors[0]).toEqual({ field: 'email', message: '请输入正确的邮箱地址' });
    }
    expect(await db.select().from(outbox).where(eq(outbox.channel, 'email'))).not.toContainEqual(
      expect.objectContaining({ recipient: 'not-an-email' }),
    );
  });
});

describe('after issue (jobs on)', () => {
  let app: App;
  let db: Db;
  let web: App;
  let software: number;
  let hq: number;

  beforeAll(async () => {
    const t = await buildTestApp({ env: { KAIPIAO_JOBS: 'on' } });
    ({ app, db } = t);
    web = (await buildTestApp({ env: { KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'web' }, reuse: t })).app;
    await app.jobs.started();
    const admin = await login(app, DEMO.admin.account);
    software = (await demoIds(app, admin)).software;
    const [store] = await db.select().from(clientStores).where(eq(clientStores.code, 'HQ'));
    hq = store!.id;
  });

  it('queues rendering and the e-mail to the buyer; the worker renders both files and mails them', async () => {
    expect(app.jobs).toMatchObject({ enabled: true, worker: true });
    const inv = await insertInvoice(db, {
      clientId: software,
      storeId: hq,
      buyerName: '自动发送客户',
      email: 'auto@buyer.example.com',
    });
    runInvoiceIssuedHooks(app, inv.id, { sendEmail: true });
    await app.invoiceHooks.drain();
    const queued = await db.execute<{ name: string; data: { invoiceId: number; email?: string } }>(
      sql`select name, data from pgboss.job where (data->>'invoiceId')::bigint = ${inv.id} order by name`,
    );
    expect(queued.rows.map((r) => r.name)).toEqual([EMAIL_JOB, RENDER_JOB]);
    expect(queued.rows[0]!.data).toMatchObject({ invoiceId: inv.id, email: 'auto@buyer.example.com' });

    const emailed = await waitFor(async () => (await events(db, inv.id)).find((e) => e.kind === 'emailed'));
    expect(emailed.detail).toMatchObject({ email: 'auto@buyer.example.com' });
    const files = await db.select().from(invoiceFiles).where(eq(invoiceFiles.invoiceId, inv.id));
    expect(files.map((f) => f.kind).sort()).toEqual(['pdf', 'xml']);
    const [mail] = await db.select().from(outbox).where(eq(outbox.recipient, 'auto@buyer.example.com'));
    expect(mail!.attachments).toHaveLength(2);
  });

  it('renders but sends nothing without send_email or a buyer address; a bounce is recorded, not retried', async () => {
    const quiet = await insertInvoice(db, {
      clientId: software,
      storeId: hq,
      buyerName: '不发邮件',
      email: 'x@y.example.com',
    });
    runInvoiceIssuedHooks(app, quiet.id, { sendEmail: false });
    const bounce = await insertInvoice(db, {
      clientId: software,
      storeId: hq,
      buyerName: '退信',
      email: 'gone@fail.example',
    });
    runInvoiceIssuedHooks(app, bounce.id, { sendEmail: true });
    await app.invoiceHooks.drain();
    await waitFor(
      async () =>
        (await db.select().from(invoiceFiles).where(eq(invoiceFiles.invoiceId, quiet.id))).length === 2,
    );
    const failed = await waitFor(async () =>
      (await events(db, bounce.id)).find((e) => e.kind === 'email_failed'),
    );
    expect(failed.detail).toMatchObject({ email: 'gone@fail.example' });
    const jobs = await db.execute<{ name: string; state: string; retry_count: number }>(
      sql`select name, state, retry_count from pgboss.job where (data->>'invoiceId')::bigint in (${quiet.id}, ${bounce.id}) and name = ${EMAIL_JOB}`,
    );
    expect(jobs.rows).toHaveLength(1);
    await waitFor(async () => {
      const r = await db.execute<{ state: string; retry_count: number }>(
        sql`select state, retry_count from pgboss.job where (data->>'invoiceId')::bigint = ${bounce.id} and name = ${EMAIL_JOB}`,
      );
      return r.rows[0]?.state === 'completed' && r.rows[0].retry_count === 0;
    });
  });

  it('an invoice issued through POST /v3/online-invoicing/blue is rendered and e-mailed by the jobs', async () => {
    const f = await invoicingFixture(app, db);
    const body = payload(f.ids.digital, {
      buyer: { name: '接口开票客户', email: 'api@buyer.example.com' },
      extra: { send_email: true },
    });
    const res = await f.issue(body);
    expect(res.json).toMatchObject({ code: 0, data: { status: 'issued' } });
    const invoiceId = res.json.data.invoice_id as number;
    await app.invoiceHooks.drain();
    const emailed = await waitFor(async () =>
      (await events(db, invoiceId)).find((e) => e.kind === 'emailed'),
    );
    expect(emailed.detail).toMatchObject({ email: 'api@buyer.example.com' });
    const [pdf] = await db
      .select()
      .from(invoiceFiles)
      .where(and(eq(invoiceFiles.invoiceId, invoiceId), eq(invoiceFiles.kind, 'pdf')));
    const text = await extractPdfText(pdf!.content);
    expect(text).toContain('接口开票客户');
    expect(text).toContain(res.json.data.invoice_no);
    expect(text).toContain(toChineseCapital(res.json.data.total_price_with_tax));
    // the QR string the issuing code stored is the one printed (and rendered into the symbol)
    const [row] = await db.select({ qr: invoices.qrString }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(row!.qr).toMatch(new RegExp(`^01,32,,${res.json.data.invoice_no},`));
  });

  it('a web-role process enqueues but does not work the queues', async () => {
    expect(web.jobs).toMatchObject({ enabled: true, worker: false });
    await web.jobs.started();
    const id = await web.boss.send(RENDER_JOB, { clientId: software, invoiceId: -1 });
    expect(id).toBeTruthy();
  });
});
