import { INVOICE_CODE, invoiceQrText } from '@kaipiao/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, invoicingFixture, payload } from '../../../test/fixtures/invoices.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { invoices } from '../../db/schema/index.ts';
import { RECONCILE_JOB } from './index.ts';

describe('reconciliation job (pg-boss)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;

  beforeAll(async () => {
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'on', KAIPIAO_ROLE: 'all' } });
    await t.app.jobs.started();
    f = await invoicingFixture(t.app, t.db);
  });

  it('settles an unknown invoice once the channel shows it, without anyone asking', async () => {
    await f.dev('control', { device_id: f.ids.digital, fault: 'unknown', fault_count: 1 });
    const body = payload(f.ids.digital);
    const first = await f.issue(body);
    expect(first.json.code).toBe(INVOICE_CODE.CHANNEL_TIMEOUT);
    // the minute schedule is registered; run the job now rather than wait for it
    const schedules = await t.app.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(RECONCILE_JOB);
    await t.app.boss.send(RECONCILE_JOB, {});
    let row: typeof invoices.$inferSelect | undefined;
    for (let i = 0; i < 40 && row?.status !== 'issued'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      [row] = await t.db.select().from(invoices).where(eq(invoices.serialNo, body.serial_no));
    }
    expect(row!.status).toBe('issued');
    // recorded by the TypeScript path (not the issuing SQL): the same §六 QR text
    expect(row!.qrString).toBe(
      invoiceQrText({
        invoiceType: row!.invoiceType,
        invoiceNo: row!.invoiceNo!,
        totalAmount: row!.totalAmount,
        totalWithTax: row!.totalWithTax,
        issueDate: row!.issuedAt!,
      }),
    );
    expect(row!.qrString).toMatch(
      new RegExp(`^01,32,,${row!.invoiceNo},${row!.totalWithTax},\\d{8},,[0-9A-F]{4}$`),
    );
  });
});
