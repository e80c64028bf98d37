import { beijingCompactDay, CODE, INVOICE_TYPES, RED_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClock, testClock } from '../../../test/clock.ts';
import { type Fixture, invoicingFixture, line } from '../../../test/fixtures/invoices.ts';
import { type RedKit, redKit } from '../../../test/fixtures/red-info.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { raceBehindLock } from '../../../test/race.ts';
import type { IssuedFacts } from '../invoices/hooks.ts';

/**
 * What a red form and its red invoice leave behind (service.ts, repo.ts): the view's fields, the
 * form's deadline and author, its number, the red invoice's remark, lines and events, the quota a
 * red gives back (same month of the same year only, on the app's clock), no e-mail to the buyer,
 * the retry of a refused red, and the list's filters.
 */
describe('red forms: what they record and show', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let k: RedKit;
  let clock: TestClock;
  const issued: { id: number; opts: IssuedFacts }[] = [];
  const record = async (_app: unknown, id: number, opts: IssuedFacts) => {
    issued.push({ id, opts });
  };

  beforeAll(async () => {
    clock = testClock();
    t = await buildTestApp({ clock });
    f = await invoicingFixture(t.app, t.db);
    k = redKit(t, f);
    t.app.invoiceHooks.add(record);
  });
  afterAll(() => {
    t.app.invoiceHooks.delete(record);
  });

  const partial = (blueId: number, reason: string, lines: Record<string, unknown>[]) => ({
    invoice_id: blueId,
    reason,
    full: false,
    lines,
  });
  const row = async <T>(q: ReturnType<typeof sql>) => (await t.db.execute(q)).rows[0] as T;
  const redOf = (formId: number) =>
    row<{ id: string; remark: string; request_hash: string }>(
      sql`select i.id, i.remark, i.request_hash from invoices i join red_forms f on f.red_invoice_id = i.id
        where f.id = ${formId}`,
    );

  it('blue-info names the invoice type, shows quantities and prices, and what each line has left', async () => {
    const id = await k.blue({ lines: [line('1060.00', { quantity: '2' }), line('300.00')] });
    const info = (await k.red('blue-info', { invoice_id: id })).json.data;
    expect(info.blue.invoice_type_name).toBe(INVOICE_TYPES['82']);
    expect(info.has_discount).toBe(false);
    expect(info.lines[0]).toMatchObject({
      quantity: '2',
      unit_price: '500',
      unit_price_with_tax: '530',
      remaining_quantity: '2',
    });
    expect(info.lines[1]).toMatchObject({
      quantity: null,
      unit_price: null,
      unit_price_with_tax: null,
      remaining_quantity: null,
    });
    expect(
      (
        await k.red(
          'apply',
          partial(id, '03', [{ blue_line_no: 1, quantity: '1', amount_with_tax: '530.00' }]),
        )
      ).json.data.red_invoice.status,
    ).toBe('issued');
    const after = (await k.red('blue-info', { invoice_id: id })).json.data;
    expect(after.lines[0]).toMatchObject({ remaining_quantity: '1', remaining_with_tax: '530.00' });
  });

  it('blue-info: a discount line is flagged; only a used 数电 invoice needs the buyer’s confirmation', async () => {
    const discounted = await k.blue({
      lines: [
        { ...line('1060.00'), line_kind: 2 as const },
        { ...line('-106.00', { line_kind: 1 }), line_kind: 1 as const },
        line('300.00'),
      ],
    });
    expect((await k.red('blue-info', { invoice_id: discounted })).json.data.has_discount).toBe(true);

    const digital = await k.blue();
    expect((await k.red('blue-info', { invoice_id: digital })).json.data.needs_confirmation).toBe(false);
    await k.devRed('buyer-use', { invoice_id: digital, used: true });
    expect((await k.red('blue-info', { invoice_id: digital })).json.data.needs_confirmation).toBe(true);

    const special = await k.blue({ invoiceType: '004' }, f.ids.ukey);
    await k.devRed('buyer-use', { invoice_id: special, used: true });
    const sheet = (await k.red('blue-info', { invoice_id: special })).json.data;
    expect(sheet).toMatchObject({ kind: 'info_sheet', needs_confirmation: false });
  });

  it('a form waiting for a party has 72 hours; a decided one has none; the seller’s form names its author', async () => {
    const formRow = (id: number) =>
      row<{ hours: string | null; decided: boolean; created_by: number | null }>(sql`
        select extract(epoch from expires_at - created_at) / 3600 as hours, decided_at is not null as decided,
          created_by from red_forms where id = ${id}`);
    const admin = await row<{ id: number }>(sql`select id from users where account = 'kaipiao_admin'`);

    const used = await k.blue();
    await k.devRed('buyer-use', { invoice_id: used, used: true });
    const waiting = (
      await k.red('apply', partial(used, '04', [{ blue_line_no: 1, amount_with_tax: '10.00' }]))
    ).json.data;
    expect(waiting).toMatchObject({ state: '02', initiator: 'seller', reason_name: '销售折让' });
    expect(waiting.blue.invoice_type_name).toBe(INVOICE_TYPES['82']);
    expect(waiting.expires_at).not.toBeNull();
    expect(await formRow(waiting.form_id)).toMatchObject({ decided: false, created_by: admin.id });
    expect(Math.round(Number((await formRow(waiting.form_id)).hours))).toBe(72);

    const inbound = (
      await k.devRed(
        'inbound',
        partial(await k.blue(), '03', [{ blue_line_no: 1, amount_with_tax: '10.00' }]),
      )
    ).json.data;
    expect(inbound).toMatchObject({ state: '03', initiator: 'buyer' });
    expect(inbound.expires_at).not.toBeNull();
    expect(Math.round(Number((await formRow(inbound.form_id)).hours))).toBe(72);
    expect((await formRow(inbound.form_id)).created_by).toBeNull();
    expect(inbound.created_by_name).toBe('购买方');

    const direct = (await k.red('apply', { invoice_id: await k.blue(), reason: '01', full: true })).json.data;
    expect(direct).toMatchObject({ state: '01', expires_at: null });
    // 数电 numbers have no code: the red invoice's code is empty, not null
    expect(direct.red_invoice.invoice_code).toBe('');
    expect(await formRow(direct.form_id)).toMatchObject({ hours: null, decided: true, created_by: admin.id });
    // a 信息表 the bureau approved at once is decided too
    const sheet = (
      await k.red('apply', {
        invoice_id: await k.blue({ invoiceType: '004' }, f.ids.ukey),
        reason: '01',
        full: true,
      })
    ).json.data;
    expect(sheet).toMatchObject({
      state: 'approved',
      actions: { issue: true, revoke: true, confirm: false },
    });
    expect(await formRow(sheet.form_id)).toMatchObject({ hours: null, decided: true });
    // a seller's form with no user (older history) is the system's
    await t.db.execute(sql`update red_forms set created_by = null where id = ${sheet.form_id}`);
    expect((await k.red('detail', { form_id: sheet.form_id })).json.data.created_by_name).toBe('系统');
  });

  it('the form number carries the device’s area code; the red invoice’s remark cites the blue and the form', async () => {
    await t.db.execute(sql`update tax_devices set area_code = '44' where id = ${f.ids.digital}`);
    try {
      const id = await k.blue();
      const blueNo = (
        await row<{ invoice_no: string }>(sql`select invoice_no from invoices where id = ${id}`)
      ).invoice_no;
      const form = (await k.red('apply', { invoice_id: id, reason: '01', full: true })).json.data;
      const ymd = beijingCompactDay(new Date()).slice(2);
      expect(form.form_no).toBe(`${ymd}44${String(form.form_id).padStart(12, '0')}`);
      expect((await redOf(form.form_id)).remark).toBe(
        `被红冲蓝字数电发票号码：${blueNo} 红字发票信息确认单编号：${form.form_no}`,
      );
    } finally {
      await t.db.execute(sql`update tax_devices set area_code = '33' where id = ${f.ids.digital}`);
    }

    const special = await k.blue({ invoiceType: '004' }, f.ids.ukey);
    const sheet = (await k.red('apply', { invoice_id: special, reason: '01', full: true })).json.data;
    expect((await k.red('issue', { form_id: sheet.form_id })).json.data.red_invoice.status).toBe('issued');
    expect((await redOf(sheet.form_id)).remark).toBe(`开具红字增值税专用发票信息表编号${sheet.form_no}`);

    const paper = await k.blue({ invoiceType: '007' }, f.ids.goldenMain);
    const p = await row<{ invoice_code: string; invoice_no: string }>(
      sql`select invoice_code, invoice_no from invoices where id = ${paper}`,
    );
    const direct = (await k.red('apply', { invoice_id: paper, reason: '01', full: true })).json.data;
    expect(direct.kind).toBe('direct');
    expect((await redOf(direct.form_id)).remark).toBe(
      `对应正数发票代码:${p.invoice_code}号码:${p.invoice_no}`,
    );
  });

  it('the red invoice numbers its lines from 1, is keyed by its form, records the form, and e-mails nobody', async () => {
    const id = await k.blue({ lines: [line('1060.00'), line('300.00'), line('200.00')] });
    const form = (
      await k.red(
        'apply',
        partial(id, '04', [
          { blue_line_no: 3, amount_with_tax: '50.00' },
          { blue_line_no: 2, amount_with_tax: '30.00' },
        ]),
      )
    ).json.data;
    const red = await redOf(form.form_id);
    const lines = (
      await t.db.execute<{ line_no: number; amount_with_tax: string }>(
        sql`select line_no, amount_with_tax from invoice_lines where invoice_id = ${red.id} order by line_no`,
      )
    ).rows;
    expect(lines.map((l) => [l.line_no, l.amount_with_tax])).toEqual([
      [1, '-50.00'],
      [2, '-30.00'],
    ]);
    expect(red.request_hash).toBe(`red-form:${form.form_id}`);
    const created = await row<{ detail: Record<string, unknown> }>(
      sql`select detail from invoice_events where invoice_id = ${red.id} and kind = 'created'`,
    );
    expect(created.detail).toMatchObject({
      status: 'issuing',
      serial_no: `RF${form.form_id}`,
      red_form_id: form.form_id,
      form_no: form.form_no,
    });
    await t.app.invoiceHooks.drain();
    expect(issued.find((i) => i.id === Number(red.id))?.opts).toEqual({
      clientId: f.ids.software,
      sendEmail: false,
    });
  });

  it('a refused red is retried on the same invoice, recorded as a retry', async () => {
    const id = await k.blue();
    await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
    const form = (await k.red('apply', { invoice_id: id, reason: '01', full: true })).json.data;
    expect(form.red_invoice.status).toBe('failed');
    const again = (await k.red('issue', { form_id: form.form_id })).json.data;
    expect(again.red_invoice).toMatchObject({ invoice_id: form.red_invoice.invoice_id, status: 'issued' });
    const retry = await row<{ detail: Record<string, unknown> }>(sql`select detail from invoice_events
      where invoice_id = ${form.red_invoice.invoice_id} and kind = 'issuing' and detail ? 'retry'`);
    expect(retry.detail).toEqual({ retry: true, red_form_id: form.form_id });
  });

  it('a confirmed form (01, 04) whose red the bureau refused offers 开具 and 撤销; the bureau may mark it abnormal', async () => {
    const failedRed = async (confirmByBuyer: boolean) => {
      const id = await k.blue();
      if (confirmByBuyer) await k.devRed('buyer-use', { invoice_id: id, used: true });
      await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
      let form = (await k.red('apply', partial(id, '04', [{ blue_line_no: 1, amount_with_tax: '10.00' }])))
        .json.data;
      if (confirmByBuyer) {
        expect(form.state).toBe('02');
        form = (await k.devRed('counterparty', { form_id: form.form_id, action: 'confirm' })).json.data;
      } else {
        await f.dev('control', { device_id: f.ids.digital, fault: 'none' });
      }
      expect(form.red_invoice.status).toBe('failed');
      return form;
    };
    const f01 = await failedRed(false);
    expect(f01).toMatchObject({ state: '01', actions: { issue: true, revoke: true, confirm: false } });
    const f04 = await failedRed(true);
    expect(f04).toMatchObject({ state: '04', actions: { issue: true, revoke: true, confirm: false } });
    // the bureau may also mark a form still waiting for either party (02, 03) abnormal
    const used = await k.blue();
    await k.devRed('buyer-use', { invoice_id: used, used: true });
    const f02 = (await k.red('apply', partial(used, '04', [{ blue_line_no: 1, amount_with_tax: '10.00' }])))
      .json.data;
    const f03 = (
      await k.devRed(
        'inbound',
        partial(await k.blue(), '03', [{ blue_line_no: 1, amount_with_tax: '10.00' }]),
      )
    ).json.data;
    expect([f02.state, f03.state]).toEqual(['02', '03']);
    for (const form of [f01, f04, f02, f03]) {
      const abnormal = await k.devRed('counterparty', { form_id: form.form_id, action: 'abnormal' });
      expect(abnormal.json.data.state, abnormal.json.message).toBe('10');
    }
  });

  it('a form whose blue invoice is no longer issued cannot be issued', async () => {
    const special = await k.blue({ invoiceType: '004' }, f.ids.ukey);
    const sheet = (await k.red('apply', { invoice_id: special, reason: '01', full: true })).json.data;
    await t.db.execute(sql`update invoices set status = 'voided' where id = ${special}`);
    expect((await k.red('issue', { form_id: sheet.form_id })).json.code).toBe(RED_CODE.BLUE_NOT_ISSUED);
    expect((await k.formRow(sheet.form_id)).red_invoice_id).toBeNull();
  });

  it('the quota comes back for a 数电 red in the blue’s month of the same year only (app clock)', async () => {
    const quota = async () =>
      Number(
        (
          await row<{ quota_used: string }>(
            sql`select quota_used from tax_devices where id = ${f.ids.digital}`,
          )
        ).quota_used,
      );
    const redOne = async (at: Date | null) => {
      const id = await k.blue(); // 1000.00 + 60.00
      if (at) clock.set(at);
      try {
        const before = await quota();
        const res = await k.red('apply', { invoice_id: id, reason: '01', full: true });
        expect(res.json.data.red_invoice.status).toBe('issued');
        return Math.round((before - (await quota())) * 100) / 100;
      } finally {
        clock.release();
      }
    };
    const now = new Date();
    expect(await redOne(null)).toBe(1000);
    const nextYear = new Date(now);
    nextYear.setUTCFullYear(now.getUTCFullYear() + 1);
    expect(await redOne(nextYear)).toBe(0);
    expect(await redOne(new Date(now.getTime() + 40 * 86_400_000))).toBe(0);
  });

  it('作废 only in the month of issue: the same month a year later is refused (app clock)', async () => {
    const paper = await k.blue({ invoiceType: '007', lines: [line('106.00')] }, f.ids.goldenMain);
    const nextYear = new Date();
    nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
    clock.set(nextYear);
    try {
      const late = await k.voidCall({ invoice_id: paper, reason: '开错' });
      expect(late.json.code).toBe(RED_CODE.VOID_PAST_MONTH);
    } finally {
      clock.release();
    }
    // 作废 changes a store's invoice: not from the all-stores view
    const summary = await k.voidCall({ invoice_id: paper, reason: '开错' }, { sid: -1 });
    expect(summary.json.code).toBe(CODE.SWITCH_STORE);
    expect((await k.voidCall({ invoice_id: paper, reason: '开错' })).json.data.status).toBe('voided');
  });

  it('the list filters by state group, kind and keyword (wildcards taken literally) and pages', async () => {
    const list = async (q: Record<string, unknown>) =>
      (await k.red('list', { page: 1, page_size: 50, ...q })).json.data as {
        list: { form_id: number; state: string; kind: string }[];
        total: number;
      };
    // one withdrawn form (08) for the 作废 group
    const used = await k.blue();
    await k.devRed('buyer-use', { invoice_id: used, used: true });
    const w = (await k.red('apply', partial(used, '04', [{ blue_line_no: 1, amount_with_tax: '1.00' }]))).json
      .data;
    const withdrawn = (await k.red('revoke', { form_id: w.form_id })).json.data;
    expect(withdrawn).toMatchObject({ state: '08', expires_at: null });
    const all = await list({});
    expect(all.total).toBeGreaterThanOrEqual(8);
    for (const [group, states] of [
      ['pending', ['02', '03', 'applying']],
      ['confirmed', ['01', '04', 'approved']],
      ['void', ['05', '06', '07', '08', '09', '10', 'rejected', 'revoked']],
    ] as const) {
      const got = await list({ state: group });
      expect(got.list.length, group).toBeGreaterThan(0);
      expect(
        got.list.every((x) => (states as readonly string[]).includes(x.state)),
        group,
      ).toBe(true);
      expect(got.total).toBe(all.list.filter((x) => (states as readonly string[]).includes(x.state)).length);
    }
    const sheets = await list({ kind: 'info_sheet' });
    expect(sheets.list.length).toBeGreaterThan(0);
    expect(sheets.list.every((x) => x.kind === 'info_sheet')).toBe(true);
    expect((await list({ state: '02' })).list.every((x) => x.state === '02')).toBe(true);

    const byNo = all.list[0]!;
    const one = await list({ keyword: (await k.red('detail', { form_id: byNo.form_id })).json.data.form_no });
    expect(one.list.map((x) => x.form_id)).toEqual([byNo.form_id]);
    // the buyer name contains no % or _: as wildcards they would match every form
    expect((await list({ keyword: '%' })).total).toBe(0);
    expect((await list({ keyword: '_' })).total).toBe(0);

    const page2 = (await k.red('list', { page: 2, page_size: 2 })).json.data;
    expect(page2.list.map((x: { form_id: number }) => x.form_id)).toEqual(
      all.list.slice(2, 4).map((x) => x.form_id),
    );
    expect(page2.total).toBe(all.total);
  });

  it('作废 and 红冲 of one paper invoice at once: exactly one goes through (both lock the blue invoice)', async () => {
    const paper = await k.blue({ invoiceType: '007', lines: [line('106.00')] }, f.ids.goldenMain);
    // both stop at the business's row (their inserts' foreign key) after reading the invoice
    const [voided, reddened] = await raceBehindLock({
      url: t.url,
      lock: 'select id from clients where id = $1 for update',
      params: [f.ids.software],
      calls: [
        () => k.voidCall({ invoice_id: paper, reason: '开错' }),
        () => k.red('apply', { invoice_id: paper, reason: '01', full: true }),
      ],
    });
    const codes = [voided!.json.code, reddened!.json.code];
    expect(
      codes.filter((c) => c === 0),
      JSON.stringify(codes),
    ).toHaveLength(1);
    const b = await k.blueRow(paper);
    const reds = await t.db.execute(
      sql`select id from invoices where original_invoice_id = ${paper} and status = 'issued'`,
    );
    if (voided!.json.code === 0) {
      expect(reddened!.json.code).toBe(RED_CODE.BLUE_NOT_ISSUED);
      expect(b.status).toBe('voided');
      expect(reds.rows).toHaveLength(0);
      // and no form reserves the voided invoice (the red was refused before raising one)
      const forms = await t.db.execute(sql`select state from red_forms where blue_invoice_id = ${paper}`);
      expect(forms.rows).toEqual([]);
    } else {
      expect(voided!.json.code).toBe(RED_CODE.VOID_REDDENED);
      expect(b).toMatchObject({ status: 'issued', red_status: 'full' });
      expect(reds.rows).toHaveLength(1);
    }
  });

  it('the sandbox bureau’s counterparty refuses a form that does not exist', async () => {
    const res = await k.devRed('counterparty', { form_id: 999_999_999, action: 'confirm' });
    expect(res.json.code).toBe(RED_CODE.FORM_NOT_FOUND);
  });
});

/**
 * Route options (menu, store scope, schema) and handlers are evaluated when the app is built; an app
 * built in `beforeAll` is not traced to any test, so the mutation run would only try them against
 * tests that build their own app. This one does: every red route answers its call, refuses a body
 * its schema refuses, and refuses a clerk whose rule lacks its menu.
 */
describe('the red routes as registered', () => {
  it('each route answers, validates its body and is closed without its menu', async () => {
    const t = await buildTestApp();
    const f = await invoicingFixture(t.app, t.db);
    const k = redKit(t, f);
    const part = (invoice_id: number) => ({
      invoice_id,
      reason: '04',
      full: false,
      lines: [{ blue_line_no: 1, amount_with_tax: '10.00' }],
    });

    const id = await k.blue();
    expect((await k.red('blue-info', { invoice_id: id })).json.data.blue.invoice_id).toBe(id);
    const applied = (await k.red('apply', part(id))).json.data;
    expect(applied).toMatchObject({ state: '01', red_invoice: { status: 'issued' } });
    expect((await k.red('detail', { form_id: applied.form_id })).json.data.form_id).toBe(applied.form_id);
    expect((await k.red('list', {})).json.data.total).toBe(1);

    const inbound = async () => (await k.devRed('inbound', part(await k.blue()))).json.data.form_id as number;
    expect((await k.red('confirm', { form_id: await inbound() })).json.data.state).toBe('04');
    expect((await k.red('reject', { form_id: await inbound() })).json.data.state).toBe('06');
    const used = await k.blue();
    await k.devRed('buyer-use', { invoice_id: used, used: true });
    const waiting = (await k.red('apply', part(used))).json.data.form_id;
    expect((await k.red('revoke', { form_id: waiting })).json.data.state).toBe('08');
    const special = await k.blue({ invoiceType: '004' }, f.ids.ukey);
    const sheet = (await k.red('apply', { invoice_id: special, reason: '01', full: true })).json.data.form_id;
    expect((await k.red('issue', { form_id: sheet })).json.data.red_invoice.status).toBe('issued');
    const paper = await k.blue({ invoiceType: '007', lines: [line('106.00')] }, f.ids.goldenMain);
    expect((await k.voidCall({ invoice_id: paper, reason: '开错' })).json.data).toEqual({
      invoice_id: paper,
      status: 'voided',
    });

    // the schema: a form id that is not a number never reaches the service
    for (const path of ['detail', 'confirm', 'reject', 'revoke', 'issue']) {
      const bad = await k.red(path, { form_id: 'x' });
      expect(bad.json.code, path).toBe(CODE.VALIDATION);
      expect(bad.json.message, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await k.red('apply', { invoice_id: id, reason: '99', full: true })).json.code).toBe(
      CODE.VALIDATION,
    );
    expect((await k.red('blue-info', { invoice_id: 'x' })).json.code).toBe(CODE.VALIDATION);
    expect((await k.red('list', { page: 0 })).json.code).toBe(CODE.VALIDATION);
    expect((await k.voidCall({ invoice_id: paper })).json.code).toBe(CODE.VALIDATION);

    // the menu: without 红字信息表 (and the library, for 作废) the clerk is refused every call
    const clerk = { token: f.clerk };
    expect((await k.red('list', {}, clerk)).json.code).toBe(0);
    await t.db.execute(sql`update authority_rules set urls = array(
      select u from unnest(urls) u where u not in ('/red-info/sheet', '/red-info/modify', '/query/invoice', '/hotel/query/invoice'))`);
    t.app.accessService.forgetAll();
    const calls: [string, unknown][] = [
      ['list', {}],
      ['detail', { form_id: applied.form_id }],
      ['blue-info', { invoice_id: id }],
      ['apply', part(id)],
      ['confirm', { form_id: 1 }],
      ['reject', { form_id: 1 }],
      ['revoke', { form_id: 1 }],
      ['issue', { form_id: 1 }],
    ];
    for (const [path, body] of calls) {
      expect((await k.red(path, body, clerk)).json.code, path).toBe(CODE.FORBIDDEN);
    }
    expect((await k.voidCall({ invoice_id: id, reason: 'x' }, clerk)).json.code).toBe(CODE.FORBIDDEN);
  }, 60_000);
});
