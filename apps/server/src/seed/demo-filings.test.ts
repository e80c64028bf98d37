import { beijingInstant, beijingParts } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildTestApp, DEMO } from '../../test/helper.ts';
import { BEIJING_TZ } from '../lib/beijing-sql.ts';
import { filingClock } from '../modules/devices/filing.ts';
import { applyFilingLocks } from '../modules/devices/filing-locks.ts';
import { seedDemoFilings } from './demo-filings.ts';
import { seedDemoHistory } from './demo-history.ts';

describe('demo filings', () => {
  it('dates devices back to their history and files the previous month, so nothing locks', async () => {
    const t = await buildTestApp();
    await seedDemoHistory(t.db, DEMO);
    const early = await t.db.execute(sql`select 1 from tax_devices d
      where exists (select 1 from invoices i where i.device_id = d.id and i.issued_at < d.created_at)`);
    expect(early.rows.length).toBeGreaterThan(0);

    // the 20th of next month: every demo disc existed during this month and must have filed it
    const { year, month } = beijingParts();
    const later = beijingInstant({ year, month: month + 1, day: 20, hour: 10 });
    const filed = await seedDemoFilings(t.db, DEMO, later);
    expect(filed).toBeGreaterThanOrEqual(4);
    expect(await seedDemoFilings(t.db, DEMO, later)).toBe(0);
    expect(await applyFilingLocks(t.db, later)).toBe(0);

    // the history's old-kind invoices were issued on a disc that now dates from its first invoice
    const moved = await t.db.execute(sql`select 1 from tax_devices d
      where exists (select 1 from invoices i where i.device_id = d.id and i.issued_at < d.created_at)`);
    expect(moved.rows).toHaveLength(0);
    // each filing carries the month's invoices of its device, as 抄税 would have uploaded
    const { period } = filingClock(later);
    const mismatched = await t.db.execute(sql`select f.device_id from device_filings f
      where f.period = ${period} and f.invoice_count <> (select count(*) from invoices i
        where i.device_id = f.device_id and i.status in ('issued', 'voided')
          and to_char(i.issued_at at time zone ${BEIJING_TZ}, 'YYYY-MM') = f.period)`);
    expect(mismatched.rows).toHaveLength(0);
    const withInvoices = await t.db.execute(
      sql`select 1 from device_filings where period = ${period} and invoice_count > 0`,
    );
    expect(withInvoices.rows.length).toBeGreaterThan(0);
  });
});
