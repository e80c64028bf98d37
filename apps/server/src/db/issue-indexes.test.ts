import { type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import type { DbOrTx } from '../channels/numbers.ts';
import { recordCopy, selectPeriodTotals } from '../modules/devices/repo.ts';
import { redInvoiceSums, takenByLine } from '../modules/red-info/repo.ts';

/**
 * Every index of `invoices` is written by every invoice the issuing statement inserts (issue 11 item
 * 6), so migration 0020 dropped the two issue-time indexes and keeps red invoices only in
 * invoices_original_idx. What read them still reads an index: each statement below, EXPLAINed with
 * sequential scans disabled, names an index of `invoices` and no sequential scan of it.
 */
describe('the readers of the indexes migration 0020 dropped or narrowed', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  /** The plans of the statements `run` sends, each EXPLAINed in a transaction without seq scans. */
  async function plansOf(run: (db: DbOrTx) => Promise<unknown>): Promise<string[]> {
    const plans: string[] = [];
    const undo = new Error('undo');
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const explaining = {
          execute: async (q: SQL) => {
            const res = await tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${q}`);
            plans.push(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
            return { rows: [], rowCount: 0 };
          },
        } as unknown as DbOrTx;
        // the caller reads no rows back from an EXPLAIN: what it makes of them does not matter here
        await run(explaining).catch(() => undefined);
        throw undo;
      })
      .catch((err: unknown) => {
        if (err !== undo) throw err;
      });
    expect(plans.length).toBeGreaterThan(0);
    return plans;
  }

  const from = new Date('2026-10-31T16:00:00Z');
  const to = new Date('2026-11-30T16:00:00Z');

  // the index condition must hold the range or the key: an index scanned over the whole business
  // (client_id alone) would not do
  const period = /Index Cond: \(\(client_id = 1\) AND \(COALESCE\(issued_at, created_at\) >=/;
  const original = /Index Cond: \(original_invoice_id = '?10'?(::bigint)?\)/;
  it.each([
    ['抄税 period totals', period, (db: DbOrTx) => selectPeriodTotals(db, 1, [1, 2], from, to)],
    [
      '抄税 recorded',
      period,
      (db: DbOrTx) =>
        recordCopy(db, { clientId: 1, deviceId: 1, period: '202611', from, to, uploadNo: 'X', userId: 1 }),
    ],
    ['a blue invoice’s red invoices (sums)', original, (db: DbOrTx) => redInvoiceSums(db, 1, 10)],
    ['a blue invoice’s red invoices (per line)', original, (db: DbOrTx) => takenByLine(db, 1, 10)],
  ])('%s: an index of invoices on what it asks, no sequential scan', async (_name, cond, run) => {
    for (const plan of await plansOf(run)) {
      expect(plan).not.toMatch(/Seq Scan on invoices/);
      expect(plan).toMatch(cond);
    }
  });

  it('the dropped indexes are gone and invoices_original_idx holds red invoices only', async () => {
    const res = await t.db.execute<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where tablename = 'invoices'`,
    );
    const names = res.rows.map((r) => r.indexname);
    expect(names).not.toContain('invoices_client_issued_idx');
    expect(names).not.toContain('invoices_client_store_issued_idx');
    expect(res.rows.find((r) => r.indexname === 'invoices_original_idx')?.indexdef).toMatch(
      /WHERE \(original_invoice_id IS NOT NULL\)/,
    );
  });
});
