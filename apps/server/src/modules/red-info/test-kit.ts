import { RED_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { type buildTestApp, call } from '../../../test/helper.ts';
import { type Fixture, payload } from '../invoices/test-fixtures.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
type Where = { clientId?: number; sid?: number; token?: string };

/** The exact messages of the red-letter and void refusals (packages/shared errors/messages.ts). */
export const RED_MSG: Record<number, string> = {
  [RED_CODE.BLUE_NOT_ISSUED]: '仅已开具成功的蓝字发票可以红冲',
  [RED_CODE.BLUE_FULLY_REDDENED]: '该发票已全额红冲，没有可红冲的余额',
  [RED_CODE.LINE_OVER_REMAINING]: '红冲明细超过对应蓝字明细的剩余数量或金额',
  [RED_CODE.PENDING_FORM_EXISTS]: '该发票有待确认的红字确认单，蓝字发票已锁定，请先处理该确认单',
  [RED_CODE.REASON_FULL_ONLY]: '红冲原因为“开票有误”时只能全额红冲，且蓝字发票不能已部分红冲',
  [RED_CODE.LINE_NOT_EDITABLE]: '所选红冲原因不允许修改该明细项',
  [RED_CODE.BAD_STATE]: '当前状态不能执行该操作，请刷新后重试',
  [RED_CODE.EXPIRED]: '红字确认单超过72小时未确认，已自动作废，请重新申请',
  [RED_CODE.NOT_INITIATOR]: '只有发起方可以撤销待确认的红字确认单',
  [RED_CODE.ALREADY_ISSUED]: '该红字信息表（确认单）已开具红字发票',
  [RED_CODE.PARTIAL_WITH_DISCOUNT]: '含折扣行的发票只能全额红冲',
  [RED_CODE.BAD_LINE]: '红冲明细与蓝字发票明细不符，请刷新后重新填写',
  [RED_CODE.VOID_ELECTRONIC]: '电子发票（含数电发票）不能作废，如需冲销请开具红字发票（红冲）',
  [RED_CODE.VOID_PAST_MONTH]: '只能作废当月开具的纸质发票，跨月发票请开具红字发票（红冲）',
  [RED_CODE.VOID_NOT_ISSUED]: '仅已开具成功的蓝字发票可以作废',
  [RED_CODE.VOID_REDDENED]: '该发票已有红字发票或红字信息表，不能作废',
  [RED_CODE.VOID_DEVICE_OFFLINE]: '开票设备离线时不能作废发票，请检查设备连接后重试',
};

/** `{ code, message }` of a refusal, message exact. */
export const refusal = (code: number) => ({ code, message: RED_MSG[code] });

/** Calls and database views the red-letter and void tests share (routes as the console calls them). */
export function redKit(t: TestApp, f: Fixture) {
  const ids = f.ids;
  const where = (o: Where) => f.scope(o.clientId ?? ids.software, o.sid ?? ids.hq);

  const red = (path: string, body: unknown, o: Where = {}) =>
    call(t.app, 'POST', `/v3/red-info/${path}?${where(o)}`, { token: o.token ?? f.admin, body });
  const devRed = (path: string, body: unknown) => call(t.app, 'POST', `/v3/dev/red-info/${path}`, { body });
  const voidCall = (body: unknown, o: Where = {}) =>
    call(t.app, 'POST', `/v3/invoice-detail/void?${where(o)}`, { token: o.token ?? f.admin, body });

  /** An issued blue invoice (数电 by default: one service line of 1060.00 = 2 × 530.00 incl. 6%). */
  const blue = async (
    opts: Parameters<typeof payload>[1] = {},
    device: number = ids.digital,
  ): Promise<number> => {
    const res = await f.issue(payload(device, opts));
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data.status).toBe('issued');
    return res.json.data.invoice_id as number;
  };

  const blueRow = async (id: number) =>
    (
      await t.db.execute<{ status: string; red_status: string }>(
        sql`select status, red_status from invoices where id = ${id}`,
      )
    ).rows[0]!;

  const formRow = async (id: number) =>
    (
      await t.db.execute<{ state: string; red_invoice_id: string | null; expires_at: Date | null }>(
        sql`select state, red_invoice_id, expires_at from red_forms where id = ${id}`,
      )
    ).rows[0]!;

  /** The pending form's 72 hours are over, and nothing has looked at it since (no sweep ran). */
  const elapse = (formId: number) =>
    t.db.execute(sql`update red_forms set expires_at = now() - interval '1 second',
      created_at = now() - interval '72 hours 1 second' where id = ${formId}`);

  /**
   * Everything a refused call must leave as it was: the blue invoice, its red invoices and forms,
   * the business's invoice rows and events, and the devices' number counters, stock and quota.
   */
  const snapshot = async (blueId: number) => {
    const q = async (query: ReturnType<typeof sql>) => (await t.db.execute(query)).rows;
    return {
      blue: await q(sql`select status, red_status, updated_at from invoices where id = ${blueId}`),
      reds: await q(sql`select id, status, total_with_tax, invoice_no from invoices
        where original_invoice_id = ${blueId} order by id`),
      forms: await q(sql`select id, state, red_invoice_id, decided_at, expires_at, total_with_tax, lines
        from red_forms where blue_invoice_id = ${blueId} order by id`),
      invoices: await q(sql`select count(*)::int as n, max(id) as last from invoices`),
      events: await q(sql`select count(*)::int as n from invoice_events`),
      counters: await q(sql`select device_id, series, year, last_seq from channel_number_counters
        order by device_id, series, year`),
      stock: await q(sql`select id, next_no from channel_number_ranges order by id`),
      quota: await q(sql`select id, quota_used from tax_devices order by id`),
      bureau: await q(sql`select invoice_id, buyer_used, voided_at from sandbox_invoice_states
        order by invoice_id`),
    };
  };

  return { red, devRed, voidCall, blue, blueRow, formRow, elapse, snapshot };
}

export type RedKit = ReturnType<typeof redKit>;
