import { invoiceQrText, RED_CODE } from '@kaipiao/shared';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { xsdErrors } from '../../../test/fixtures/documents.ts';
import { type Fixture, invoicingFixture, line, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call, DEMO } from '../../../test/helper.ts';
import { raceBehindLock } from '../../../test/race.ts';
import { invoiceEvents, invoices, redForms } from '../../db/schema/index.ts';
import { seedDemoHistory } from '../../seed/demo-history.ts';
import { seedDemoRedForms } from '../../seed/red-forms.ts';
import { loadInvoiceDoc } from '../documents/model.ts';
import { renderInvoiceXml } from '../documents/xml.ts';
import { expirePending } from './repo.ts';

describe('red-letter forms and void (/v3/red-info/*, /v3/invoice-detail/void)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let ids: Fixture['ids'];

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    ids = f.ids;
  });

  const red = (path: string, body: unknown, opts: { clientId?: number; sid?: number } = {}) =>
    call(
      t.app,
      'POST',
      `/v3/red-info/${path}?${f.scope(opts.clientId ?? ids.software, opts.sid ?? ids.hq)}`,
      {
        token: f.admin,
        body,
      },
    );
  const devRed = (path: string, body: unknown) => call(t.app, 'POST', `/v3/dev/red-info/${path}`, { body });
  const voidCall = (body: unknown, opts: { clientId?: number; sid?: number } = {}) =>
    call(
      t.app,
      'POST',
      `/v3/invoice-detail/void?${f.scope(opts.clientId ?? ids.software, opts.sid ?? ids.hq)}`,
      {
        token: f.admin,
        body,
      },
    );

  /** A blue 数电 invoice: one service line of 1060.00 (2 × 530.00 incl. 6%). */
  const blue = async (opts: Parameters<typeof payload>[1] = {}, device = ids.digital) => {
    const res = await f.issue(payload(device, opts));
    expect(res.json.code).toBe(0);
    return res.json.data.invoice_id as number;
  };
  const blueRow = async (id: number) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

  it('a full 数电 red needs no confirmation (01), is issued at once, and makes the blue fully reddened', async () => {
    const id = await blue({
      lines: [line('1060.00', { quantity: '2' }), line('300.00', { tax_rate: '0.13' })],
    });
    const res = await red('apply', { invoice_id: id, reason: '01', full: true });
    expect(res.json.code).toBe(0);
    const form = res.json.data;
    expect(form).toMatchObject({ kind: 'confirm', state: '01', state_name: '无需确认', full: true });
    expect(form.form_no).toMatch(/^\d{20}$/);
    expect(form.total_with_tax).toBe('-1360.00');
    expect(form.red_invoice).toMatchObject({ status: 'issued' });
    expect(form.red_invoice.invoice_no).toMatch(/^\d{20}$/);
    expect(form.lines.map((l: { quantity: string | null }) => l.quantity)).toEqual(['-2', null]);

    const b = await blueRow(id);
    expect(b.redStatus).toBe('full');
    const r = await blueRow(form.red_invoice.invoice_id);
    expect(r).toMatchObject({
      direction: 'red',
      status: 'issued',
      originalInvoiceId: id,
      redFormId: form.form_id,
    });
    expect(r.totalWithTax).toBe('-1360.00');
    expect(r.remark).toContain(`红字发票信息确认单编号：${form.form_no}`);
    const ev = await t.db.select().from(invoiceEvents).where(eq(invoiceEvents.invoiceId, id));
    expect(ev.filter((e) => e.kind === 'reddened')).toHaveLength(1);
    await t.app.invoiceHooks.drain();
    // the issued hook settles again without a second event
    const ev2 = await t.db.select().from(invoiceEvents).where(eq(invoiceEvents.invoiceId, id));
    expect(ev2.filter((e) => e.kind === 'reddened')).toHaveLength(1);

    const again = await red('apply', {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '1.00' }],
    });
    expect(again.json.code).toBe(RED_CODE.BLUE_FULLY_REDDENED);
  });

  it('refuses a partial red over what the line has left; the blue becomes partially reddened', async () => {
    const id = await blue();
    const first = await red('apply', {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '600.00' }],
    });
    expect(first.json.code).toBe(0);
    expect(first.json.data.total_with_tax).toBe('-600.00');
    expect((await blueRow(id)).redStatus).toBe('partial');

    const over = await red('apply', {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '460.01' }],
    });
    expect(over.json.code).toBe(RED_CODE.LINE_OVER_REMAINING);
    expect(over.json.message).toContain('460.00');

    const info = await red('blue-info', { invoice_id: id });
    expect(info.json.data.remaining_with_tax).toBe('460.00');
    const rest = await red('apply', {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '460.00' }],
    });
    expect(rest.json.code).toBe(0);
    expect((await blueRow(id)).redStatus).toBe('full');
  });

  it('two concurrent partial reds that together exceed the remainder: one is refused', async () => {
    const id = await blue();
    const body = {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '600.00' }],
    };
    // a real race: the test holds its business's row, which a form's insert checks (its foreign
    // key), so each request stops right before inserting its form, after reading what the invoice
    // has left; released together, only the blue invoice's lock keeps the second and third from
    // reading the remainder before the first form is in
    const results = await raceBehindLock({
      url: t.url,
      lock: 'select id from clients where id = $1 for update',
      params: [ids.software],
      calls: [() => red('apply', body), () => red('apply', body), () => red('apply', body)],
    });
    const codes = results.map((r) => r.json.code).sort();
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(
      codes.filter((c) => c === RED_CODE.LINE_OVER_REMAINING || c === RED_CODE.OVER_REMAINING),
    ).toHaveLength(2);
    // the refused ones left no form behind that would reserve more than the invoice has
    const forms = await t.db.select().from(redForms).where(eq(redForms.blueInvoiceId, id));
    expect(forms.map((r) => r.totalWithTax)).toEqual(['-600.00']);
    const reds = await t.db.select().from(invoices).where(eq(invoices.originalInvoiceId, id));
    expect(reds.map((r) => r.totalWithTax)).toEqual(['-600.00']);
    expect((await blueRow(id)).redStatus).toBe('partial');
  });

  it('a used invoice needs the buyer: 02 locks the blue, the buyer confirms (04, issued) or rejects (05), the seller may revoke (08)', async () => {
    const id = await blue();
    expect((await devRed('buyer-use', { invoice_id: id, used: true })).json.code).toBe(0);
    const part = {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '530.00' }],
    };

    const a = await red('apply', part);
    expect(a.json.data).toMatchObject({
      state: '02',
      red_invoice: null,
      actions: { revoke: true, issue: false },
    });
    const hours = (Date.parse(a.json.data.expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);
    expect((await red('apply', part)).json.code).toBe(RED_CODE.PENDING_FORM_EXISTS);
    const revoked = await red('revoke', { form_id: a.json.data.form_id });
    expect(revoked.json.data.state).toBe('08');

    const b = await red('apply', part);
    expect(
      (await devRed('counterparty', { form_id: b.json.data.form_id, action: 'reject' })).json.data.state,
    ).toBe('05');

    const c = await red('apply', part);
    const confirmed = await devRed('counterparty', { form_id: c.json.data.form_id, action: 'confirm' });
    expect(confirmed.json.data).toMatchObject({ state: '04', red_invoice: { status: 'issued' } });
    expect(confirmed.json.data.total_with_tax).toBe('-530.00');
    expect((await blueRow(id)).redStatus).toBe('partial');
    // nothing to confirm twice; a confirmed and issued form cannot be revoked
    expect(
      (await devRed('counterparty', { form_id: c.json.data.form_id, action: 'confirm' })).json.code,
    ).toBe(RED_CODE.BAD_STATE);
    expect((await red('revoke', { form_id: c.json.data.form_id })).json.code).toBe(RED_CODE.ALREADY_ISSUED);
  });

  it('a buyer-raised form (03) waits for the seller: confirm issues it, reject voids it (06); only the buyer may withdraw it', async () => {
    const id = await blue();
    const part = {
      invoice_id: id,
      reason: '03',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '100.00' }],
    };
    const inbound = await devRed('inbound', part);
    expect(inbound.json.data).toMatchObject({
      state: '03',
      initiator: 'buyer',
      actions: { confirm: true, reject: true },
    });
    expect((await red('revoke', { form_id: inbound.json.data.form_id })).json.code).toBe(
      RED_CODE.NOT_INITIATOR,
    );
    const rejected = await red('reject', { form_id: inbound.json.data.form_id });
    expect(rejected.json.data.state).toBe('06');

    const second = await devRed('inbound', part);
    const ok = await red('confirm', { form_id: second.json.data.form_id });
    expect(ok.json.data).toMatchObject({ state: '04', red_invoice: { status: 'issued' } });

    const third = await devRed('inbound', part);
    expect(
      (await devRed('counterparty', { form_id: third.json.data.form_id, action: 'revoke' })).json.data.state,
    ).toBe('08');
  });

  it('two clerks confirming a buyer-raised form at once: one confirms and issues, the other is refused', async () => {
    const id = await blue();
    const inbound = await devRed('inbound', {
      invoice_id: id,
      reason: '03',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '100.00' }],
    });
    const formId = inbound.json.data.form_id as number;
    // both queue at the form's lock (held by the test) after the same start, and go on together
    const [a, b] = await raceBehindLock({
      url: t.url,
      lock: 'select id from red_forms where id = $1 for update',
      params: [formId],
      calls: [() => red('confirm', { form_id: formId }), () => red('confirm', { form_id: formId })],
    });
    expect([a.json.code, b.json.code].sort()).toEqual([0, RED_CODE.BAD_STATE].sort());
    const winner = a.json.code === 0 ? a : b;
    expect(winner.json.data).toMatchObject({ state: '04', red_invoice: { status: 'issued' } });
    const reds = await t.db.select().from(invoices).where(eq(invoices.redFormId, formId));
    expect(reds.map((r) => [r.status, r.totalWithTax])).toEqual([['issued', '-100.00']]);
    expect((await blueRow(id)).redStatus).toBe('partial');
  });

  it('two clerks issuing the same approved form at once: one red invoice, the other is told it is issued', async () => {
    const special = (await f.issue(payload(ids.ukey, { invoiceType: '004' }))).json.data.invoice_id as number;
    const form = await red('apply', { invoice_id: special, reason: '01', full: true });
    expect(form.json.data).toMatchObject({ kind: 'info_sheet', state: 'approved', red_invoice: null });
    const formId = form.json.data.form_id as number;
    const [a, b] = await raceBehindLock({
      url: t.url,
      lock: 'select id from red_forms where id = $1 for update',
      params: [formId],
      calls: [() => red('issue', { form_id: formId }), () => red('issue', { form_id: formId })],
    });
    expect([a.json.code, b.json.code].sort()).toEqual([0, RED_CODE.ALREADY_ISSUED].sort());
    const winner = a.json.code === 0 ? a : b;
    expect(winner.json.data.red_invoice).toMatchObject({ status: 'issued' });
    const reds = await t.db.select().from(invoices).where(eq(invoices.redFormId, formId));
    expect(reds).toHaveLength(1);
    expect((await blueRow(special)).redStatus).toBe('full');
  });

  it('expires a pending form after 72 hours (07): actions refused, the blue is unlocked again', async () => {
    const id = await blue();
    await devRed('buyer-use', { invoice_id: id, used: true });
    const part = {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '50.00' }],
    };
    const a = await red('apply', part);
    const formId = a.json.data.form_id as number;
    // 72 hours pass
    await t.db
      .update(redForms)
      .set({
        expiresAt: sql`now() - interval '1 second'`,
        createdAt: sql`now() - interval '72 hours 1 second'`,
      })
      .where(eq(redForms.id, formId));
    const detail = await red('detail', { form_id: formId });
    expect(detail.json.data).toMatchObject({
      state: '07',
      state_name: '作废（超72小时未确认）',
      state_class: 'void',
    });
    const late = await devRed('counterparty', { form_id: formId, action: 'confirm' });
    expect(late.json.code).toBe(RED_CODE.EXPIRED);
    expect(late.json.message).toContain('72小时');
    expect((await blueRow(id)).redStatus).toBe('none');
    const list = await red('list', { state: 'void', keyword: a.json.data.form_no });
    expect(list.json.data.list.map((x: { form_id: number }) => x.form_id)).toEqual([formId]);
    expect((await red('apply', part)).json.data.state).toBe('02');
    // the job's sweep (every business) does the same without a request
    await t.db
      .update(redForms)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(sql`${redForms.blueInvoiceId} = ${id} and ${redForms.state} = '02'`);
    expect(await expirePending(t.db)).toBe(1);
    const [swept] = await t.db
      .select()
      .from(redForms)
      .where(sql`${redForms.blueInvoiceId} = ${id} and ${redForms.state} = '07'`)
      .orderBy(sql`id desc`)
      .limit(1);
    expect(swept).toBeTruthy();
  });

  it('enforces the reasons: 开票有误 full only, 销货退回 by quantity, 销售折让 by amount, goods/service kinds', async () => {
    const id = await blue();
    const apply = (body: Record<string, unknown>) => red('apply', { invoice_id: id, full: false, ...body });
    expect(
      (await apply({ reason: '01', lines: [{ blue_line_no: 1, amount_with_tax: '10.00' }] })).json.code,
    ).toBe(RED_CODE.REASON_FULL_ONLY);
    expect((await apply({ reason: '04', lines: [{ blue_line_no: 1, quantity: '1' }] })).json.code).toBe(
      RED_CODE.LINE_NOT_EDITABLE,
    );
    expect((await apply({ reason: '04', lines: [] })).json.code).toBe(RED_CODE.NO_LINES);
    expect(
      (await apply({ reason: '04', lines: [{ blue_line_no: 9, amount_with_tax: '1.00' }] })).json.code,
    ).toBe(RED_CODE.BAD_LINE);
    // service-only invoice (3…): no 销货退回
    expect((await apply({ reason: '02', lines: [{ blue_line_no: 1, quantity: '1' }] })).json.code).toBe(
      RED_CODE.REASON_SERVICE_ONLY,
    );
    // goods-only invoice (1…): no 服务中止; 销货退回 by quantity at the blue unit price
    const goods = await blue({
      lines: [
        line('226.00', {
          quantity: '2',
          tax_rate: '0.13',
          tax_class_code: '1090511030000000000',
          short_name: '计算机',
          name: '键盘',
        }),
      ],
    });
    expect(
      (
        await red('apply', {
          invoice_id: goods,
          reason: '03',
          full: false,
          lines: [{ blue_line_no: 1, amount_with_tax: '1.00' }],
        })
      ).json.code,
    ).toBe(RED_CODE.REASON_GOODS_ONLY);
    expect(
      (
        await red('apply', {
          invoice_id: goods,
          reason: '02',
          full: false,
          lines: [{ blue_line_no: 1, amount_with_tax: '1.00' }],
        })
      ).json.code,
    ).toBe(RED_CODE.LINE_NOT_EDITABLE);
    const ret = await red('apply', {
      invoice_id: goods,
      reason: '02',
      full: false,
      lines: [{ blue_line_no: 1, quantity: '1' }],
    });
    expect(ret.json.data.lines[0]).toMatchObject({
      quantity: '-1',
      amount_with_tax: '-113.00',
      amount: '-100.00',
      tax_amount: '-13.00',
    });
    // 开票有误 no longer possible once partly reddened
    expect((await red('apply', { invoice_id: goods, reason: '01', full: true })).json.code).toBe(
      RED_CODE.REASON_FULL_ONLY,
    );
  });

  it('older 专票: a 信息表 approved with a 16-digit number, then the red invoice is issued from it', async () => {
    const special = (await f.issue(payload(ids.ukey, { invoiceType: '004' }))).json.data.invoice_id as number;
    const a = await red('apply', { invoice_id: special, reason: '01', full: true });
    expect(a.json.data).toMatchObject({
      kind: 'info_sheet',
      state: 'approved',
      red_invoice: null,
      actions: { issue: true },
    });
    expect(a.json.data.form_no).toMatch(/^\d{16}$/);
    const issued = await red('issue', { form_id: a.json.data.form_id });
    expect(issued.json.data.red_invoice).toMatchObject({ status: 'issued' });
    expect(issued.json.data.red_invoice.invoice_code).toMatch(/^\d{10,12}$/);
    expect((await red('issue', { form_id: a.json.data.form_id })).json.code).toBe(RED_CODE.ALREADY_ISSUED);
    expect((await blueRow(special)).redStatus).toBe('full');
  });

  it('older 普票 need no form: the reversal is issued at once with the blue code and number in the remark', async () => {
    const res = await f.issue(payload(ids.ukey, { invoiceType: '026' }));
    const id = res.json.data.invoice_id as number;
    const a = await red('apply', {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '106.00' }],
    });
    expect(a.json.data).toMatchObject({
      kind: 'direct',
      state: 'approved',
      form_no: '',
      total_with_tax: '-106.00',
    });
    expect(a.json.data.red_invoice.status).toBe('issued');
    const r = await blueRow(a.json.data.red_invoice.invoice_id);
    expect(r.remark).toBe(`对应正数发票代码:${res.json.data.invoice_code}号码:${res.json.data.invoice_no}`);
    expect(r.invoiceCode).toMatch(/^\d{12}$/);
    expect((await blueRow(id)).redStatus).toBe('partial');
  });

  it('a same-month 数电 red gives the quota back; 销售折让 does not', async () => {
    const quota = async () =>
      (await call(t.app, 'GET', `/v3/dev/channel/state?device_id=${ids.digital}`)).json.data
        .quota_used as string;
    const id = await blue();
    const before = Number(await quota());
    await red('apply', {
      invoice_id: id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '106.00' }],
    });
    expect(Number(await quota())).toBe(before);
    await red('apply', { invoice_id: id, reason: '03', full: true });
    // the rest: 954.00 incl. tax = 900.00 excl.
    expect(Number(await quota())).toBeCloseTo(before - 900, 2);
  });

  it('void: same-month paper only; 数电, electronic and last month refused with the red-letter hint', async () => {
    const digital = await blue();
    const v1 = await voidCall({ invoice_id: digital, reason: '开错' });
    expect(v1.json.code).toBe(RED_CODE.VOID_ELECTRONIC);
    expect(v1.json.message).toContain('红字发票');
    const elec = (await f.issue(payload(ids.ukey, { invoiceType: '026' }))).json.data.invoice_id as number;
    expect((await voidCall({ invoice_id: elec, reason: '开错' })).json.code).toBe(RED_CODE.VOID_ELECTRONIC);

    const old = (await f.issue(payload(ids.goldenMain, { invoiceType: '007' }))).json.data
      .invoice_id as number;
    await t.db
      .update(invoices)
      .set({ issuedAt: sql`now() - interval '40 days'` })
      .where(eq(invoices.id, old));
    const v2 = await voidCall({ invoice_id: old, reason: '开错' });
    expect(v2.json.code).toBe(RED_CODE.VOID_PAST_MONTH);

    const paper = (await f.issue(payload(ids.goldenMain, { invoiceType: '007' }))).json.data
      .invoice_id as number;
    expect((await voidCall({ invoice_id: paper, reason: '' })).json.code).not.toBe(0);
    const v3 = await voidCall({ invoice_id: paper, reason: '购买方信息填写错误' });
    expect(v3.json).toMatchObject({ code: 0, data: { invoice_id: paper, status: 'voided' } });
    expect((await blueRow(paper)).status).toBe('voided');
    const ev = await t.db.select().from(invoiceEvents).where(eq(invoiceEvents.invoiceId, paper));
    expect(ev.find((e) => e.kind === 'voided')?.detail).toMatchObject({ reason: '购买方信息填写错误' });
    const told = await t.db.execute<{ voided_at: Date | null }>(
      sql`select voided_at from sandbox_invoice_states where invoice_id = ${paper}`,
    );
    expect(told.rows[0]?.voided_at).toBeTruthy();
    expect((await voidCall({ invoice_id: paper, reason: 'again' })).json.code).toBe(RED_CODE.VOID_NOT_ISSUED);
    // a voided invoice cannot be reddened
    expect((await red('apply', { invoice_id: paper, reason: '01', full: true })).json.code).toBe(
      RED_CODE.BLUE_NOT_ISSUED,
    );
  });

  it("refuses another tenant's invoice and form ids", async () => {
    const hotelBlue = await f.issue(
      payload(ids.hotelDigital, { lines: [line('1010.00', { tax_rate: '0.01' })] }),
      {
        clientId: ids.hotel,
        sid: ids.bs,
      },
    );
    expect(hotelBlue.json.code).toBe(0);
    const hid = hotelBlue.json.data.invoice_id as number;
    expect((await red('apply', { invoice_id: hid, reason: '01', full: true })).json.code).toBe(
      RED_CODE.BLUE_NOT_FOUND,
    );
    expect((await red('blue-info', { invoice_id: hid })).json.code).toBe(RED_CODE.BLUE_NOT_FOUND);
    expect((await voidCall({ invoice_id: hid, reason: 'x' })).json.code).toBe(RED_CODE.BLUE_NOT_FOUND);
    const hotelForm = await red(
      'apply',
      { invoice_id: hid, reason: '01', full: true },
      { clientId: ids.hotel, sid: ids.bs },
    );
    expect(hotelForm.json.code).toBe(0);
    const fid = hotelForm.json.data.form_id as number;
    expect((await red('detail', { form_id: fid })).json.code).toBe(RED_CODE.FORM_NOT_FOUND);
    expect((await red('revoke', { form_id: fid })).json.code).toBe(RED_CODE.FORM_NOT_FOUND);
    for (const action of ['confirm', 'reject', 'issue']) {
      expect((await red(action, { form_id: fid })).json.code).toBe(RED_CODE.FORM_NOT_FOUND);
    }
    // the other tenant's form is untouched
    expect(
      (await red('detail', { form_id: fid }, { clientId: ids.hotel, sid: ids.bs })).json.data.state,
    ).toBe('01');
    const list = await red('list', {});
    expect(list.json.data.list.some((x: { form_id: number }) => x.form_id === fid)).toBe(false);
    // the clerk (store HQ of the software business only) cannot reach the hotel either
    const clerkTry = await call(t.app, 'POST', `/v3/red-info/apply?${f.scope(ids.hotel, ids.bs)}`, {
      token: f.clerk,
      body: { invoice_id: hid, reason: '01', full: true },
    });
    expect(clerkTry.json.code).not.toBe(0);
  });
});

describe('demo red forms (seed)', () => {
  it('seeds forms in several states and a partially reddened blue invoice, once', async () => {
    const t = await buildTestApp();
    await seedDemoHistory(t.db, DEMO);
    await seedDemoRedForms(t.db, DEMO);
    await seedDemoRedForms(t.db, DEMO);
    const f = await invoicingFixture(t.app, t.db);
    const list = await call(t.app, 'POST', `/v3/red-info/list?${f.scope(f.ids.software, f.ids.hq)}`, {
      token: f.clerk,
      body: {},
    });
    expect(list.json.code).toBe(0);
    const forms = list.json.data.list as Array<{
      state: string;
      red_invoice: { status: string } | null;
      blue: { invoice_id: number };
    }>;
    expect(forms.map((x) => x.state).sort()).toEqual(['01', '02', '03', '05', '07']);
    const issued = forms.find((x) => x.state === '01')!;
    expect(issued.red_invoice?.status).toBe('issued');
    const [b] = await t.db.select().from(invoices).where(eq(invoices.id, issued.blue.invoice_id));
    expect(b!.redStatus).toBe('partial');
    // the red invoice's QR is §六's and its XML names the blue invoice and the 确认单 (issue 23)
    const [r] = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.originalInvoiceId, b!.id), isNotNull(invoices.redFormId)));
    expect(r!.qrString).toBe(
      invoiceQrText({
        invoiceType: r!.invoiceType,
        invoiceCode: r!.invoiceCode,
        invoiceNo: r!.invoiceNo!,
        checkCode: r!.checkCode,
        totalAmount: r!.totalAmount,
        totalWithTax: r!.totalWithTax,
        issueDate: r!.issuedAt!,
      }),
    );
    const [form] = await t.db.select().from(redForms).where(eq(redForms.id, r!.redFormId!));
    expect(form!.formNo).toMatch(/^\d{20}$/);
    const xml = renderInvoiceXml((await loadInvoiceDoc(t.db, r!.clientId, r!.id))!);
    expect(xml).toContain(`<OriginalInvoiceCode>${b!.invoiceNo}</OriginalInvoiceCode>`);
    expect(xml).toContain(`<CreditNoteNumber>${form!.formNo}</CreditNoteNumber>`);
    expect(await xsdErrors(xml)).toEqual([]);
  }, 120_000);
});
