import { INVOICE_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helper.ts';
import { AppError } from '../../../lib/app-error.ts';
import {
  assertDeviceCanIssue,
  assertDeviceUsable,
  DEVICE_RULES,
  type DeviceFacts,
  deviceRefusal,
  type IssueAsk,
} from './eligibility.ts';
import { eligibleSql, RULE_SQL } from './eligibility-sql.ts';

const OK: DeviceFacts = {
  device_id: 7,
  bound: true,
  invoice_types: ['82', '004'],
  device_status: 'active',
  online: true,
  locked: false,
  per_invoice_limit: '10000.00',
  monthly_quota: '50000.00',
  quota_used: '49000.00',
  stock: 0,
};
const ask: IssueAsk = { invoiceType: '82', amount: '1000.00' };
const codeOf = (d: DeviceFacts, a: IssueAsk = ask) => deviceRefusal(d, a)?.code ?? 0;

describe('the device rule (one home: issuing, batch upload and the issuing statement)', () => {
  it('names the first rule broken, in order', () => {
    const rows: [string, Partial<DeviceFacts>, IssueAsk, number][] = [
      ['may issue, exactly the quota left', {}, ask, 0],
      ['no device', { device_id: null, bound: false }, ask, INVOICE_CODE.DEVICE_NOT_FOUND],
      ['not bound', { bound: false, online: false }, ask, INVOICE_CODE.DEVICE_NOT_BOUND],
      [
        'kind',
        { device_status: 'disabled' },
        { ...ask, invoiceType: '81' },
        INVOICE_CODE.DEVICE_TYPE_UNSUPPORTED,
      ],
      ['disabled', { device_status: 'disabled', online: false }, ask, INVOICE_CODE.DEVICE_DISABLED],
      ['offline', { online: false, locked: true }, ask, INVOICE_CODE.DEVICE_OFFLINE],
      ['locked', { locked: true }, ask, INVOICE_CODE.DEVICE_LOCKED],
      ['limit', { per_invoice_limit: '999.99' }, ask, INVOICE_CODE.OVER_INVOICE_LIMIT],
      ['limit exactly', { per_invoice_limit: '1000.00' }, ask, 0],
      ['quota one cent short', { quota_used: '49000.01' }, ask, INVOICE_CODE.QUOTA_EXCEEDED],
      ['no quota (a disc)', { monthly_quota: null, stock: 1 }, { ...ask, invoiceType: '004' }, 0],
      [
        'no stock (older kind)',
        { monthly_quota: null },
        { ...ask, invoiceType: '004' },
        INVOICE_CODE.STOCK_EXHAUSTED,
      ],
    ];
    for (const [name, change, a, code] of rows)
      expect([name, codeOf({ ...OK, ...change }, a)]).toEqual([name, code]);
  });

  it('says the limit and the quota left in the refusal', () => {
    expect(deviceRefusal({ ...OK, per_invoice_limit: '999.99' }, ask)?.message).toContain(
      '单张限额 999.99 元',
    );
    expect(deviceRefusal({ ...OK, quota_used: '49500' }, ask)?.message).toContain('本月剩余额度 500.00 元');
    expect(() => assertDeviceCanIssue({ ...OK, locked: true }, ask)).toThrow(AppError);
  });

  it('a batch upload checks the device as such: found, bound, active — not its state today', () => {
    expect(() => assertDeviceUsable({ ...OK, online: false, locked: true, stock: 0 })).not.toThrow();
    for (const [change, code] of [
      [{ device_id: null }, INVOICE_CODE.DEVICE_NOT_FOUND],
      [{ bound: false }, INVOICE_CODE.DEVICE_NOT_BOUND],
      [{ device_status: 'disabled' }, INVOICE_CODE.DEVICE_DISABLED],
    ] as const) {
      try {
        assertDeviceUsable({ ...OK, ...change });
        expect.unreachable();
      } catch (err) {
        expect((err as AppError).code).toBe(code);
      }
    }
  });

  describe('the SQL predicate agrees with the TypeScript rule', () => {
    let t: Awaited<ReturnType<typeof buildTestApp>>;
    beforeAll(async () => {
      t = await buildTestApp({ seed: false });
    });

    const money = fc.integer({ min: 0, max: 200_000 }).map((c) => (c / 100).toFixed(2));
    const facts: fc.Arbitrary<DeviceFacts> = fc.record({
      device_id: fc.option(fc.constant(7), { freq: 8 }),
      bound: fc.boolean(),
      invoice_types: fc.option(fc.subarray(['81', '82', '004', '026']), { freq: 8 }),
      device_status: fc.option(fc.constantFrom('active', 'disabled'), { freq: 8 }),
      online: fc.option(fc.boolean(), { freq: 8 }),
      locked: fc.option(fc.boolean(), { freq: 8 }),
      per_invoice_limit: fc.option(money, { freq: 8 }),
      monthly_quota: fc.option(money, { freq: 2 }),
      quota_used: fc.option(money, { freq: 8 }),
      stock: fc.integer({ min: 0, max: 3 }),
    });
    const asks: fc.Arbitrary<IssueAsk> = fc.record({
      invoiceType: fc.constantFrom('81', '82', '004', '026'),
      amount: money,
    });

    it('every rule has its predicate and no predicate is left without its rule', () => {
      expect(Object.keys(RULE_SQL).map(Number).sort()).toEqual(DEVICE_RULES.map((r) => r.code).sort());
    });

    const edges = fc.record({
      limit: fc.constantFrom('free', 'equal', 'cent-under'),
      quota: fc.constantFrom('free', 'equal', 'cent-under'),
    });
    const atEdge = (d: DeviceFacts, a: IssueAsk, e: { limit: string; quota: string }): DeviceFacts => {
      const cents = Math.round(Number(a.amount) * 100);
      const at = (mode: string) => ((mode === 'equal' ? cents : cents - 1) / 100).toFixed(2);
      const out = { ...d };
      if (e.limit !== 'free') out.per_invoice_limit = at(e.limit);
      if (e.quota !== 'free') {
        out.monthly_quota = '5000.00';
        out.quota_used = (5000 - Number(at(e.quota))).toFixed(2);
      }
      return out;
    };

    it('on 300 generated devices and invoices (nulls included)', async () => {
      await fc.assert(
        fc.asyncProperty(facts, asks, edges, async (generated, a, edge) => {
          // the boundaries where a comparison's direction shows: the limit at exactly the amount or a
          // cent under it, the quota left at exactly the amount or a cent under it
          const d = atEdge(generated, a, edge);
          const res = await t.db.execute<{ ok: boolean | null }>(sql`
            select (${eligibleSql(a)}) as ok from (select
              ${d.device_id}::int as device_id, ${d.bound}::boolean as bound,
              ${d.invoice_types === null ? null : `{${d.invoice_types.join(',')}}`}::text[] as invoice_types,
              ${d.device_status}::text as device_status, ${d.online}::boolean as online,
              ${d.locked}::boolean as locked, ${d.per_invoice_limit}::numeric as per_invoice_limit,
              ${d.monthly_quota}::numeric as monthly_quota, ${d.quota_used}::numeric as quota_used,
              ${d.stock}::int as stock) ctx`);
          // the insert's WHERE takes a row only when the predicate is true (null is not)
          expect(res.rows[0]!.ok === true).toBe(deviceRefusal(d, a) === null);
        }),
        { numRuns: 300 },
      );
    });
  });
});
