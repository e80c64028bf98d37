import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { type RedKit, redKit } from '../../../test/fixtures/red-info.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { holdLock } from '../../../test/race.ts';

/**
 * A red invoice whose outcome another process records while the bureau is still being asked (a
 * reconciliation run that found it not issued): the channel's own recording then finds the invoice
 * moved on and answers nothing. The form's answer shows what the other process recorded.
 */
describe('a red recorded by another process during the bureau call', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let k: RedKit;
  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
    k = redKit(t, f);
  });

  it('answers the form with the red as the other process left it, not with an error', async () => {
    const blueId = await k.blue();
    // the bureau refuses the next call; its counted fault is taken under the control row's lock,
    // which the test holds: the red invoice is committed as issuing and the call waits there
    await f.dev('control', { device_id: f.ids.digital, fault: 'error', fault_count: 1 });
    const held = await holdLock(
      t.url,
      'select device_id from channel_sandbox_controls where device_id = $1 for update',
      [f.ids.digital],
    );
    let applying: ReturnType<RedKit['red']> | undefined;
    try {
      applying = k.red('apply', { invoice_id: blueId, reason: '01', full: true });
      await held.waiters(1);
      const moved = await t.db.execute(sql`update invoices i set status = 'failed', error_code = 'reconciled',
          error_message = '对账确认未开具', updated_at = now()
        from red_forms r where r.red_invoice_id = i.id and r.blue_invoice_id = ${blueId} and i.status = 'issuing'
        returning i.id`);
      expect(moved.rows).toHaveLength(1);
    } finally {
      await held.release();
    }
    const res = await applying!;
    expect(res.json.code, res.json.message).toBe(0);
    expect(res.json.data).toMatchObject({
      state: '01',
      red_invoice: { status: 'failed', error_message: '对账确认未开具' },
      actions: { issue: true },
    });
    // the bureau's refusal was not recorded over it, and the blue is not reddened
    expect((await k.blueRow(blueId)).red_status).toBe('none');
    await f.dev('control', { device_id: f.ids.digital, fault: 'none' });
  });
});
