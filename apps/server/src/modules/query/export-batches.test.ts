import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EXPORT_PDF_MAX, QUERY_CODE } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertCopies, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp, call, DEMO, login } from '../../../test/helper.ts';
import { unzipFile } from '../../../test/zip.ts';
import { type PdfSource, runExport } from './export-runner.ts';

/**
 * Exports larger than one keyset batch (500 rows): every match written once, in order, across
 * batch boundaries that fall inside runs of equal issue times; progress recorded per batch for a zip
 * and at most every 500 ms (on the export's clock) for Excel; the PDF limit at exactly its value.
 * A trigger logs every progress the record is given, so the sequence is checked, not just the end.
 */
describe('export runner over several batches', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let dataDir: string;
  const BULK = '批量导出测试购方有限公司';
  const errors: Array<{ obj: unknown; msg?: string }> = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-batches-'));
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off' } });
    f = await insertFixtures(t.db);
    // exactly the PDF limit, three copies to each issue time (batches end inside a run of ties)
    await insertCopies(t.db, f.ids.A!, EXPORT_PDF_MAX, { buyer: BULK, tie: 3 });
    await t.db.execute(sql`
      create table progress_log (n bigserial primary key, record_id bigint, progress int);
      create function log_progress() returns trigger language plpgsql as $$
        begin insert into progress_log (record_id, progress) values (new.id, new.progress); return new; end $$;
      create trigger export_progress after update of progress on export_records
        for each row execute function log_progress();`);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const pdfById: PdfSource = async (_client, id) => ({
    fileName: `${id}.pdf`,
    content: Buffer.from(`%PDF ${id}`),
  });
  /** a clock that moves 250 ms each time it is read, from a fixed Beijing noon */
  const steppingClock = () => {
    let at = Date.parse('2026-11-20T12:00:00+08:00');
    return () => {
      const now = new Date(at);
      at += 250;
      return now;
    };
  };
  const run = async (
    kind: 'excel' | 'pdf_zip',
    filters: object,
    clock = steppingClock(),
    pdfFor: PdfSource = pdfById,
  ) => {
    const id = Number(
      (
        await t.db.execute<{ id: number }>(sql`
          insert into export_records (client_id, kind, status, filters, created_by, expires_at)
          values (${f.software}, ${kind}, 'queued', ${JSON.stringify(filters)}::jsonb, ${f.admin}, now() + interval '7 days')
          returning id`)
      ).rows[0]!.id,
    );
    await runExport(
      { db: t.db, dataDir, pdfFor, clock, log: { error: (obj, msg) => errors.push({ obj, msg }) } },
      id,
    );
    const rec = (
      await t.db.execute<{
        status: string;
        row_count: number;
        error: string | null;
        file_path: string | null;
        file_name: string;
      }>(sql`select status, row_count, error, file_path, file_name from export_records where id = ${id}`)
    ).rows[0]!;
    const progress = (
      await t.db.execute<{ progress: number }>(
        sql`select progress from progress_log where record_id = ${id} order by n`,
      )
    ).rows.map((r) => r.progress);
    return { ...rec, progress };
  };
  const bulkIds = async () =>
    (
      await t.db.execute<{ id: number }>(sql`
        select id from invoices where client_id = ${f.software} and buyer_name = ${BULK}
        order by issued_at desc, id desc`)
    ).rows.map((r) => Number(r.id));

  it('zip at exactly the PDF limit: every invoice once, progress after each batch, the name on the clock', async () => {
    const rec = await run('pdf_zip', { buyer_name: BULK });
    expect(rec).toMatchObject({ status: 'done', row_count: EXPORT_PDF_MAX, error: null });
    // claimed (0), 500 of 1000 (50), 1000 of 1000 (held at 99 until the file is in place), done
    expect(rec.progress).toEqual([0, 50, 99, 100]);
    // the clock's first reading (12:00:00 Beijing) names the file
    expect(rec.file_name).toBe('发票PDF_20261120_120000.zip');
    const entries = unzipFile(await fs.readFile(path.join(dataDir, rec.file_path!)));
    const ids = await bulkIds();
    expect(entries.map((e) => e.name)).toEqual(ids.map((id) => `${id}.pdf`));
    expect(entries[0]!.data.toString()).toBe(`%PDF ${ids[0]}`);
  });

  it('a document the zip refuses fails the export at the end of its batch: the next batch is never read', async () => {
    const asked: number[] = [];
    const first = (await bulkIds())[0]!;
    const before = errors.length;
    const rec = await run('pdf_zip', { buyer_name: BULK }, steppingClock(), async (client, id) => {
      asked.push(id);
      // not bytes: archiver refuses the entry with an 'error' event
      return id === first ? { fileName: 'bad.pdf', content: 42 as unknown as Buffer } : pdfById(client, id);
    });
    expect(rec).toMatchObject({ status: 'failed', error: '导出失败，请稍后重试', file_path: null });
    expect(errors.length).toBe(before + 1);
    // the first batch's documents are all asked for and counted, then the refusal is seen
    expect(asked.length).toBe(500);
    expect(asked[0]).toBe(first);
    expect(rec.progress).toEqual([0, 50]);
  });

  it('zip over the PDF limit by one: refused with the limit, no file', async () => {
    const [extra] = await insertCopies(t.db, f.ids.A!, 1, { buyer: BULK, first: EXPORT_PDF_MAX + 1 });
    try {
      const rec = await run('pdf_zip', { buyer_name: BULK });
      expect(rec).toMatchObject({
        status: 'failed',
        error: `超过单次导出上限${EXPORT_PDF_MAX}张，请缩小查询范围后再导出`,
        file_path: null,
      });
      // asked for through the route, the same export is refused up front, naming its kind and limit
      const admin = await login(t.app, DEMO.admin.account);
      const asked = await call(t.app, 'POST', `/v3/invoice-export/create?client_id=${f.software}&sid=-1`, {
        token: admin,
        body: { kind: 'pdf_zip', filters: { buyer_name: BULK } },
      });
      expect(asked.json).toEqual({
        code: QUERY_CODE.EXPORT_TOO_MANY,
        message: `PDF批量下载单次最多${EXPORT_PDF_MAX}张，当前超过${EXPORT_PDF_MAX}张，请缩小查询范围后再导出`,
        data: null,
      });
      // Excel's limit is far higher: the same 1001 export
      const excel = await run('excel', { buyer_name: BULK });
      expect(excel).toMatchObject({ status: 'done', row_count: EXPORT_PDF_MAX + 1 });
      // written at most every 500 ms of a clock read once per batch, 250 ms apart: batches 1, 3, 5
      // of six (500, 1000, 1001 invoices; then their lines from 50%), capped at 99 until done
      expect(excel.progress).toEqual([0, 24, 50, 99, 100]);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(path.join(dataDir, excel.file_path!));
      expect(wb.creator).toBe('开票台');
      const inv = wb.getWorksheet('发票列表')!;
      expect(inv.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(inv.rowCount).toBe(EXPORT_PDF_MAX + 2);
      const ids = await bulkIds();
      const serials = (
        await t.db.execute<{ id: number; serial_no: string }>(
          sql`select id, serial_no from invoices where buyer_name = ${BULK}`,
        )
      ).rows;
      const serialOf = new Map(serials.map((r) => [Number(r.id), r.serial_no]));
      const written = [];
      for (let r = 2; r <= inv.rowCount; r++) written.push(inv.getRow(r).getCell(13).value);
      expect(written).toEqual(ids.map((id) => serialOf.get(id)));
      // every line once, with the quantity and price the copies carry
      const lines = wb.getWorksheet('商品明细')!;
      expect(lines.rowCount).toBe(EXPORT_PDF_MAX + 2);
      expect((lines.getRow(2).values as unknown[]).slice(6, 9)).toEqual([2, 500, 1000]);
      // the fixture's own lines carry none: empty cells, not zeros
      const one = await run('excel', { invoice_no: f.numbers.A });
      const wb1 = new ExcelJS.Workbook();
      await wb1.xlsx.readFile(path.join(dataDir, one.file_path!));
      const l = wb1.getWorksheet('商品明细')!.getRow(2).values as unknown[];
      expect(l[6]).toBeUndefined();
      expect(l[7]).toBeUndefined();
      expect(l[8]).toBe(1000);
    } finally {
      await t.db.execute(sql`delete from invoice_lines where invoice_id = ${extra}`);
      await t.db.execute(sql`delete from invoices where id = ${extra}`);
    }
  });

  it('an invoice without a number or issue time: empty cells for both, its lines kept', async () => {
    const rec = await run('excel', { statuses: ['failed'] });
    expect(rec.status).toBe('done');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dataDir, rec.file_path!));
    const row = wb.getWorksheet('发票列表')!.getRow(2);
    expect(row.getCell(2).value ?? '').toBe('');
    expect(row.getCell(6).value ?? '').toBe('');
    const line = wb.getWorksheet('商品明细')!.getRow(2);
    expect(line.getCell(1).value ?? '').toBe('');
    expect(line.getCell(3).value).toBe('*信息技术服务*软件开发服务');
  });
});
