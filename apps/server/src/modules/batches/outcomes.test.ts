import { INVOICE_CODE, messageFor } from '@kaipiao/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchFiles } from '../../../test/fixtures/batch-uploads.ts';
import { type Fixture, invoicingFixture } from '../../../test/fixtures/invoices.ts';
import { buildTestApp, call } from '../../../test/helper.ts';
import { invoices } from '../../db/schema/index.ts';

type Row = {
  seq: number;
  serial_no: string;
  status: string;
  invoice_id: number | null;
  invoice_no: string | null;
  invoice_code: string;
  issued_at: string | null;
  error_code: string | null;
  error_message: string | null;
};

/**
 * What a batch row records of each answer of the channel (batches/runner.ts issueBatchRow): issued
 * with its number and time; refused by the bureau, failed with the bureau's words and the invoice
 * kept for a retry; an unknown answer settled by asking the channel — issued when the bureau has it,
 * else failed with the time-out and the invoice to reconcile; and the invoices marked as a batch's.
 */
describe('batch rows and the channel’s answers', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  const files = batchFiles(
    () => t,
    () => f,
    'O',
  );
  const q = () => f.scope(f.ids.software, f.ids.hq);

  beforeAll(async () => {
    t = await buildTestApp();
    f = await invoicingFixture(t.app, t.db);
  });

  /** Uploads and runs a batch of `n` invoices to its end; its rows. */
  const run = async (n: number) => {
    const up = await files.send(await files.file(n));
    expect(up.json.code, up.json.message).toBe(0);
    const id = up.json.data.batch_id as number;
    const started = await call(t.app, 'POST', `/v3/batch-invoice/start?${q()}`, {
      token: f.admin,
      body: { batch_id: id },
    });
    expect(started.json.code, started.json.message).toBe(0);
    await t.app.batchRunner!.idle(id);
    // as stored (the rows answer shows the clerk's subset; the result file and retries read these)
    const rows =
      await t.db.execute<Row>(sql`select seq, serial_no, status, invoice_id::int as invoice_id, invoice_no,
        invoice_code, issued_at, error_code, error_message from batch_rows where batch_id = ${id} order by seq`);
    return rows.rows;
  };
  const invoiceOf = async (serialNo: string) =>
    (await t.db.select().from(invoices).where(eq(invoices.serialNo, serialNo)))[0];

  it('issued: the number, code and time; the invoice is the batch’s', async () => {
    const [row] = await run(1);
    const inv = await invoiceOf(row!.serial_no);
    expect(row).toMatchObject({
      status: 'issued',
      invoice_id: inv!.id,
      invoice_no: inv!.invoiceNo,
      invoice_code: '',
      error_code: null,
      error_message: null,
    });
    expect(new Date(row!.issued_at!).getTime()).toBe(inv!.issuedAt!.getTime());
    expect(inv!.source).toBe('batch');
  });

  it('refused by the bureau: failed with its words and code, the invoice kept for a retry', async () => {
    await f.dev('control', {
      device_id: f.ids.digital,
      fault: 'error',
      fault_code: '70001',
      fault_message: '税局系统繁忙',
      fault_count: 1,
    });
    const [row] = await run(1);
    const inv = await invoiceOf(row!.serial_no);
    expect(inv!.status).toBe('failed');
    expect(row).toMatchObject({
      status: 'failed',
      invoice_id: inv!.id,
      invoice_no: null,
      invoice_code: '',
      issued_at: null,
      error_code: String(INVOICE_CODE.CHANNEL_ERROR),
      error_message: '开票失败，税局返回：税局系统繁忙（70001）',
    });
  });

  it('an unknown answer the bureau does not show yet: failed with the time-out, the invoice left to reconcile', async () => {
    await f.dev('control', {
      device_id: f.ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 3600,
    });
    const [row] = await run(1);
    const inv = await invoiceOf(row!.serial_no);
    expect(inv!.status).toBe('unknown');
    expect(row).toMatchObject({
      status: 'failed',
      invoice_id: inv!.id,
      invoice_no: null,
      error_code: String(INVOICE_CODE.CHANNEL_TIMEOUT),
      error_message: messageFor(INVOICE_CODE.CHANNEL_TIMEOUT),
    });
    // once the bureau shows it, a retry of the row answers with that invoice, not a second one
    await t.db.execute(
      sql`update channel_sandbox_issues set visible_at = now() where serial_no = ${row!.serial_no}`,
    );
    const batchId = Number(
      (
        await t.db.execute<{ batch_id: number }>(
          sql`select batch_id from batch_rows where serial_no = ${row!.serial_no}`,
        )
      ).rows[0]!.batch_id,
    );
    const retried = await call(t.app, 'POST', `/v3/batch-invoice/retry?${q()}`, {
      token: f.admin,
      body: { batch_id: batchId },
    });
    expect(retried.json.code, retried.json.message).toBe(0);
    await t.app.batchRunner!.idle(batchId);
    const after = (
      await t.db.execute<{ status: string; invoice_id: string }>(
        sql`select status, invoice_id from batch_rows where serial_no = ${row!.serial_no}`,
      )
    ).rows[0]!;
    expect(after.status).toBe('issued');
    expect(Number(after.invoice_id)).toBe(inv!.id);
    expect(await t.db.select().from(invoices).where(eq(invoices.serialNo, row!.serial_no))).toHaveLength(1);
  });

  it('an unknown answer the bureau shows at once: issued, settled by asking for the serial', async () => {
    await f.dev('control', {
      device_id: f.ids.digital,
      fault: 'unknown',
      fault_count: 1,
      unknown_visible_after_s: 0,
    });
    const [row] = await run(1);
    const inv = await invoiceOf(row!.serial_no);
    expect(row).toMatchObject({
      status: 'issued',
      invoice_id: inv!.id,
      invoice_no: inv!.invoiceNo,
      error_code: null,
    });
    expect(inv).toMatchObject({ status: 'issued', source: 'batch' });
  });
});
