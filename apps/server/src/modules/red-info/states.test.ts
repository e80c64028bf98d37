import { RED_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { type RedKit, redKit, refusal } from '../../../test/fixtures/red-info.ts';
import { buildTestApp } from '../../../test/helper.ts';

/**
 * What a red form may do in each state (domain.md §3.3; service.ts): only 01 / 04 (确认单) and
 * approved (信息表, 普票) may be issued; pending, void, expired and issued forms are refused with
 * their code and nothing changes — the invoices, the forms, the devices' numbers and quota.
 */
describe('red forms in every state: what may and may not be done', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let k: RedKit;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    k = redKit(t, f);
  });

  type Made = { blueId: number; formId: number };
  const partial = (blueId: number, reason = '04', amount = '100.00') => ({
    invoice_id: blueId,
    reason,
    full: false,
    lines: [{ blue_line_no: 1, amount_with_tax: amount }],
  });
  const expectState = async (formId: number, state: string) =>
    expect((await k.formRow(formId)).state).toBe(state);

  // ---------------------------------------------------------------- forms in each state, for real

  /** 02: the buyer has used the invoice, so our form waits for the buyer. */
  async function raised02(): Promise<Made> {
    const blueId = await k.blue();
    expect((await k.devRed('buyer-use', { invoice_id: blueId, used: true })).json.code).toBe(0);
    const res = await k.red('apply', partial(blueId));
    expect(res.json.data).toMatchObject({ state: '02', red_invoice: null });
    return { blueId, formId: res.json.data.form_id };
  }
  /** 03: the buyer raised it; it waits for us. */
  async function raised03(): Promise<Made> {
    const blueId = await k.blue();
    const res = await k.devRed('inbound', partial(blueId, '03'));
    expect(res.json.data).toMatchObject({ state: '03', initiator: 'buyer' });
    return { blueId, formId: res.json.data.form_id };
  }
  const counterparty = async (m: Made, action: string, state: string) => {
    const res = await k.devRed('counterparty', { form_id: m.formId, action });
    expect(res.json.data?.state, res.json.message).toBe(state);
    return m;
  };
  const console_ = async (m: Made, path: string, state: string) => {
    const res = await k.red(path, { form_id: m.formId });
    expect(res.json.data?.state, res.json.message).toBe(state);
    return m;
  };
  /** 01 (no confirmation needed) whose red invoice the bureau refused: still open. */
  async function confirmedWithFailedRed(): Promise<Made> {
    const blueId = await k.blue();
    await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
    const res = await k.red('apply', partial(blueId));
    expect(res.json.data).toMatchObject({ state: '01', red_invoice: { status: 'failed' } });
    return { blueId, formId: res.json.data.form_id };
  }
  /** A 专票 on the UKey: a 信息表 the sandbox bureau approves at once, not yet issued. */
  async function approvedSheet(): Promise<Made> {
    const blueId = await k.blue({ invoiceType: '004' }, f.ids.ukey);
    const res = await k.red('apply', { invoice_id: blueId, reason: '01', full: true });
    expect(res.json.data).toMatchObject({ kind: 'info_sheet', state: 'approved', red_invoice: null });
    return { blueId, formId: res.json.data.form_id };
  }
  /** A state the sandbox bureau never sets (a real bureau's 审核未通过 / 申请中) is written directly. */
  const setState = async (m: Made, state: string) => {
    await t.db.execute(sql`update red_forms set state = ${state} where id = ${m.formId}`);
    return m;
  };

  const builders = {
    '02 销方录入待购方确认': raised02,
    '03 购方录入待销方确认': raised03,
    '05 作废（销方录入购方否认）': async () => counterparty(await raised02(), 'reject', '05'),
    '06 作废（购方录入销方否认）': async () => console_(await raised03(), 'reject', '06'),
    '07 作废（超72小时未确认）': async () => {
      const m = await raised02();
      await k.elapse(m.formId);
      const detail = await k.red('detail', { form_id: m.formId });
      expect(detail.json.data.state).toBe('07');
      return m;
    },
    '08 作废（发起方已撤销）': async () => console_(await raised02(), 'revoke', '08'),
    '09 作废（确认后撤销）': async () => console_(await confirmedWithFailedRed(), 'revoke', '09'),
    '10 作废（异常凭证）': async () => counterparty(await raised02(), 'abnormal', '10'),
    '信息表 revoked': async () => console_(await approvedSheet(), 'revoke', 'revoked'),
    '信息表 rejected': async () => setState(await approvedSheet(), 'rejected'),
    '信息表 applying': async () => setState(await approvedSheet(), 'applying'),
    '01 already issued': async () => {
      const blueId = await k.blue();
      const res = await k.red('apply', partial(blueId));
      expect(res.json.data).toMatchObject({ state: '01', red_invoice: { status: 'issued' } });
      return { blueId, formId: res.json.data.form_id as number };
    },
    '04 already issued': async () => {
      const m = await counterparty(await raised02(), 'confirm', '04');
      expect((await k.formRow(m.formId)).red_invoice_id).not.toBeNull();
      return m;
    },
    '信息表 approved, already issued': async () => {
      const m = await approvedSheet();
      const res = await k.red('issue', { form_id: m.formId });
      expect(res.json.data.red_invoice).toMatchObject({ status: 'issued' });
      return m;
    },
  } satisfies Record<string, () => Promise<Made>>;

  // ------------------------------------------------------------------------------ the matrix

  type Action =
    | 'issue'
    | 'confirm'
    | 'reject'
    | 'revoke'
    | 'buyer confirms'
    | 'buyer rejects'
    | 'buyer withdraws'
    | 'abnormal';
  const act = (action: Action, formId: number) => {
    switch (action) {
      case 'issue':
      case 'confirm':
      case 'reject':
      case 'revoke':
        return k.red(action, { form_id: formId });
      case 'buyer confirms':
        return k.devRed('counterparty', { form_id: formId, action: 'confirm' });
      case 'buyer rejects':
        return k.devRed('counterparty', { form_id: formId, action: 'reject' });
      case 'buyer withdraws':
        return k.devRed('counterparty', { form_id: formId, action: 'revoke' });
      case 'abnormal':
        return k.devRed('counterparty', { form_id: formId, action: 'abnormal' });
    }
  };
  const ALL: Action[] = [
    'issue',
    'confirm',
    'reject',
    'revoke',
    'buyer confirms',
    'buyer rejects',
    'buyer withdraws',
    'abnormal',
  ];
  const every = (code: number) => Object.fromEntries(ALL.map((a) => [a, code])) as Record<Action, number>;
  const B = RED_CODE.BAD_STATE;
  const I = RED_CODE.ALREADY_ISSUED;
  const NONE = { confirm: false, reject: false, revoke: false, issue: false };

  /** Per state: every refused action with its code, and what the console offers (`actions`). */
  const MATRIX: [
    keyof typeof builders,
    Partial<Record<Action, number>>,
    { confirm: boolean; reject: boolean; revoke: boolean; issue: boolean },
  ][] = [
    [
      '02 销方录入待购方确认',
      { issue: B, confirm: B, reject: B, 'buyer withdraws': B },
      { ...NONE, revoke: true },
    ],
    [
      '03 购方录入待销方确认',
      { issue: B, revoke: RED_CODE.NOT_INITIATOR, 'buyer confirms': B, 'buyer rejects': B },
      { ...NONE, confirm: true, reject: true },
    ],
    ['05 作废（销方录入购方否认）', every(B), NONE],
    ['06 作废（购方录入销方否认）', every(B), NONE],
    ['07 作废（超72小时未确认）', every(RED_CODE.EXPIRED), NONE],
    ['08 作废（发起方已撤销）', every(B), NONE],
    ['09 作废（确认后撤销）', every(B), NONE],
    ['10 作废（异常凭证）', every(B), NONE],
    ['信息表 revoked', every(B), NONE],
    ['信息表 rejected', every(B), NONE],
    ['信息表 applying', every(B), NONE],
    ['01 already issued', { ...every(B), issue: I, revoke: I, abnormal: I }, NONE],
    ['04 already issued', { ...every(B), issue: I, revoke: I, abnormal: I }, NONE],
    ['信息表 approved, already issued', { ...every(B), issue: I, revoke: I }, NONE],
  ];

  for (const [state, refused, offered] of MATRIX) {
    it(`${state}: refuses ${Object.keys(refused).join(', ')} and changes nothing`, async () => {
      const m = await builders[state]();
      const view = await k.red('detail', { form_id: m.formId });
      expect(view.json.data.actions).toEqual(offered);
      const before = await k.snapshot(m.blueId);
      for (const [action, code] of Object.entries(refused)) {
        const res = await act(action as Action, m.formId);
        expect(res.json, `${state}: ${action}`).toMatchObject(refusal(code));
        expect(res.json.data ?? null, `${state}: ${action}`).toBeNull();
      }
      expect(await k.snapshot(m.blueId)).toEqual(before);
    });
  }

  it('an elapsed form (not yet swept) is void for every action that looks at it, and frees the blue', async () => {
    const cases: [() => Promise<Made>, Action][] = [
      [raised02, 'issue'],
      [raised03, 'issue'],
      [raised03, 'confirm'],
      [raised03, 'reject'],
      [raised02, 'revoke'],
      [raised02, 'buyer confirms'],
      [raised02, 'buyer rejects'],
      [raised03, 'buyer withdraws'],
      [raised02, 'abnormal'],
    ];
    for (const [build, action] of cases) {
      const m = await build();
      await k.elapse(m.formId);
      const res = await act(action, m.formId);
      expect(res.json, action).toMatchObject(refusal(RED_CODE.EXPIRED));
      await expectState(m.formId, '07');
      expect((await k.formRow(m.formId)).red_invoice_id, action).toBeNull();
    }

    // the blue-info call and a new form see the lock gone without any sweep
    const info = await raised02();
    await k.elapse(info.formId);
    const blueInfo = await k.red('blue-info', { invoice_id: info.blueId });
    expect(blueInfo.json.data).toMatchObject({ pending_form_id: null, remaining_with_tax: '1060.00' });
    await expectState(info.formId, '07');

    const again = await raised02();
    await k.elapse(again.formId);
    const next = await k.red('apply', partial(again.blueId, '04', '1060.00'));
    expect(next.json.data, next.json.message).toMatchObject({ state: '02', total_with_tax: '-1060.00' });
    await expectState(again.formId, '07');

    // a pending form whose hours are not over is still pending
    const live = await raised02();
    await t.db.execute(
      sql`update red_forms set expires_at = now() + interval '1 minute' where id = ${live.formId}`,
    );
    expect((await k.red('apply', partial(live.blueId))).json).toMatchObject(
      refusal(RED_CODE.PENDING_FORM_EXISTS),
    );
    await expectState(live.formId, '02');
    const confirmed = await act('buyer confirms', live.formId);
    expect(confirmed.json.data).toMatchObject({ state: '04', red_invoice: { status: 'issued' } });
  });

  it('the states that may be issued are: 01 and 04 after a failed red, and an approved 信息表', async () => {
    // 01: the bureau refused the red once; issuing again retries the same red invoice (RF<id>)
    const a = await confirmedWithFailedRed();
    const failedRed = (await k.formRow(a.formId)).red_invoice_id;
    expect((await k.red('detail', { form_id: a.formId })).json.data.actions).toEqual({
      confirm: false,
      reject: false,
      revoke: true,
      issue: true,
    });
    const retried = await k.red('issue', { form_id: a.formId });
    expect(retried.json.data).toMatchObject({ state: '01', red_invoice: { status: 'issued' } });
    expect(String(retried.json.data.red_invoice.invoice_id)).toBe(String(failedRed));
    expect(await k.blueRow(a.blueId)).toMatchObject({ status: 'issued', red_status: 'partial' });
    const redsOfA = await t.db.execute(
      sql`select serial_no from invoices where original_invoice_id = ${a.blueId}`,
    );
    expect(redsOfA.rows).toEqual([{ serial_no: `RF${a.formId}` }]);

    // 04: the buyer confirmed while the bureau was failing; the seller issues it afterwards
    const b = await raised02();
    await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
    const confirmed = await k.devRed('counterparty', { form_id: b.formId, action: 'confirm' });
    expect(confirmed.json.data).toMatchObject({ state: '04', red_invoice: { status: 'failed' } });
    const issued = await k.red('issue', { form_id: b.formId });
    expect(issued.json.data).toMatchObject({ state: '04', red_invoice: { status: 'issued' } });
    expect(await k.blueRow(b.blueId)).toMatchObject({ red_status: 'partial' });

    // approved 信息表: issued on request, and the blue is fully reversed
    const c = await approvedSheet();
    const sheet = await k.red('issue', { form_id: c.formId });
    expect(sheet.json.data).toMatchObject({ state: 'approved', red_invoice: { status: 'issued' } });
    expect(await k.blueRow(c.blueId)).toMatchObject({ red_status: 'full' });
  });

  it('a pending form (02 or 03) locks the blue against a second form; a void one frees its amount', async () => {
    for (const build of [raised02, raised03]) {
      const m = await build();
      const info = await k.red('blue-info', { invoice_id: m.blueId });
      // the pending form reserves its 100.00
      expect(info.json.data).toMatchObject({ pending_form_id: m.formId, remaining_with_tax: '960.00' });
      const before = await k.snapshot(m.blueId);
      for (const body of [
        { invoice_id: m.blueId, reason: '01', full: true },
        { invoice_id: m.blueId, reason: '03', full: true },
        partial(m.blueId, '04', '1.00'),
      ]) {
        expect((await k.red('apply', body)).json).toMatchObject(refusal(RED_CODE.PENDING_FORM_EXISTS));
      }
      // the buyer's own second form is refused as well
      expect((await k.devRed('inbound', partial(m.blueId, '03', '1.00'))).json).toMatchObject(
        refusal(RED_CODE.PENDING_FORM_EXISTS),
      );
      expect(await k.snapshot(m.blueId)).toEqual(before);
    }

    // rejected by the buyer (05): nothing is reserved any more, the whole invoice can be reversed
    const r = await counterparty(await raised02(), 'reject', '05');
    const freed = await k.red('blue-info', { invoice_id: r.blueId });
    expect(freed.json.data).toMatchObject({ pending_form_id: null, remaining_with_tax: '1060.00' });
    expect((await k.red('apply', partial(r.blueId, '04', '1060.00'))).json.data.state).toBe('02');

    // revoked after confirmation (09) frees it as well
    const n = await console_(await confirmedWithFailedRed(), 'revoke', '09');
    expect((await k.red('blue-info', { invoice_id: n.blueId })).json.data.remaining_with_tax).toBe('1060.00');
    const whole = await k.red('apply', { invoice_id: n.blueId, reason: '01', full: true });
    expect(whole.json.data).toMatchObject({ state: '01', total_with_tax: '-1060.00' });
    expect(await k.blueRow(n.blueId)).toMatchObject({ red_status: 'full' });
  });

  it('a confirmed form not yet issued reserves its amount: a second form gets only the rest', async () => {
    const m = await approvedSheet();
    // the 信息表 holds the whole invoice: nothing is left for a full or a partial form
    expect((await k.red('apply', { invoice_id: m.blueId, reason: '01', full: true })).json).toMatchObject(
      refusal(RED_CODE.REASON_FULL_ONLY),
    );
    expect((await k.red('apply', { invoice_id: m.blueId, reason: '04', full: true })).json).toMatchObject(
      refusal(RED_CODE.BLUE_FULLY_REDDENED),
    );
    const over = await k.red('apply', partial(m.blueId, '04', '0.01'));
    expect(over.json.code).toBe(RED_CODE.LINE_OVER_REMAINING);
    expect(over.json.message).toBe('第1行红冲超过剩余可红冲：剩余价税合计 0.00 元、数量 0');
    // once it is revoked, the amount is free again
    await console_(m, 'revoke', 'revoked');
    const info = await k.red('blue-info', { invoice_id: m.blueId });
    expect(info.json.data.remaining_with_tax).toBe('1060.00');
  });

  it('a fully reddened invoice refuses another form; so do red and failed invoices', async () => {
    const id = await k.blue();
    // two partial reds that together take exactly the whole invoice make it fully reddened
    expect((await k.red('apply', partial(id, '04', '1059.99'))).json.data.state).toBe('01');
    expect(await k.blueRow(id)).toMatchObject({ red_status: 'partial' });
    const last = await k.red('apply', partial(id, '04', '0.01'));
    expect(last.json.data.red_invoice).toMatchObject({ status: 'issued' });
    expect(await k.blueRow(id)).toMatchObject({ red_status: 'full' });

    const before = await k.snapshot(id);
    for (const body of [
      { invoice_id: id, reason: '04', full: true },
      { invoice_id: id, reason: '03', full: true },
      partial(id, '04', '0.01'),
    ]) {
      expect((await k.red('apply', body)).json).toMatchObject(refusal(RED_CODE.BLUE_FULLY_REDDENED));
    }
    expect((await k.red('blue-info', { invoice_id: id })).json).toMatchObject(
      refusal(RED_CODE.BLUE_FULLY_REDDENED),
    );
    expect((await k.devRed('inbound', partial(id, '03', '0.01'))).json).toMatchObject(
      refusal(RED_CODE.BLUE_FULLY_REDDENED),
    );
    expect(await k.snapshot(id)).toEqual(before);

    // a red invoice is not a blue one
    const redId = Number(before.reds[0]!.id);
    expect((await k.red('apply', { invoice_id: redId, reason: '01', full: true })).json).toMatchObject(
      refusal(RED_CODE.BLUE_NOT_ISSUED),
    );
    // a blue the bureau refused (failed) cannot be reddened
    await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
    const body = payload(f.ids.digital);
    await f.issue(body);
    const failed = await t.db.execute<{ id: string; status: string }>(
      sql`select id, status from invoices where serial_no = ${body.serial_no}`,
    );
    expect(failed.rows[0]?.status).toBe('failed');
    const failedId = Number(failed.rows[0]!.id);
    expect((await k.red('apply', { invoice_id: failedId, reason: '01', full: true })).json).toMatchObject(
      refusal(RED_CODE.BLUE_NOT_ISSUED),
    );
    const forms = await t.db.execute(
      sql`select id from red_forms where blue_invoice_id in (${redId}, ${failedId})`,
    );
    expect(forms.rows).toEqual([]);
  });
});
