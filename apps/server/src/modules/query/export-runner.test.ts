import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { INVOICE_TYPES } from '@kaipiao/shared';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, insertFixtures } from '../../../test/fixtures/query.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { unzipFile } from '../../../test/zip.ts';
import { ExportFailure, type PdfSource, runExport } from './export-runner.ts';

/**
 * One export run to its end (export-runner.ts), called as the job calls it: the Excel workbook's
 * sheets, columns and cells, the zip's entry names, the record's end state and file name, what is
 * refused, and what a failure leaves (a message on the record, no file).
 */
describe('export runner', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let f: Fixture;
  let dataDir: string;
  const errors: unknown[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kp-export-runner-'));
    t = await buildTestApp({ env: { KAIPIAO_JOBS: 'off' } });
    f = await insertFixtures(t.db);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const pdfNamed =
    (name: (id: number) => string): PdfSource =>
    async (_client, id) => ({
      fileName: name(id),
      content: Buffer.from(`%PDF-1.7 ${id}`),
    });
  const run = async (
    rec: { kind: string; filters?: object; ids?: number[]; status?: string },
    pdfFor: PdfSource = pdfNamed((id) => `${id}.pdf`),
  ) => {
    const id = Number(
      (
        await t.db.execute<{ id: number }>(sql`
          insert into export_records (client_id, kind, status, filters, invoice_ids, created_by, expires_at)
          values (${f.software}, ${rec.kind}, ${rec.status ?? 'queued'}, ${JSON.stringify(rec.filters ?? {})}::jsonb,
            ${rec.ids ? sql`${`{${rec.ids.join(',')}}`}::bigint[]` : null}, ${f.admin}, now() + interval '7 days')
          returning id`)
      ).rows[0]!.id,
    );
    await runExport(
      { db: t.db, dataDir, pdfFor, log: { error: (o, msg) => errors.push({ ...(o as object), msg }) } },
      id,
    );
    return (
      await t.db.execute<{
        status: string;
        progress: number;
        row_count: number;
        error: string | null;
        file_path: string | null;
        file_name: string;
        file_size: number | null;
        finished_at: Date | null;
      }>(sql`select status, progress, row_count, error, file_path, file_name, file_size, finished_at
        from export_records where id = ${id}`)
    ).rows[0]!;
  };
  const leftovers = async () => {
    const dir = path.join(dataDir, 'exports', String(f.software));
    return (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.part'));
  };

  it('Excel: two sheets, every column of a red invoice and of its lines, numbers as numbers', async () => {
    const rec = await run({ kind: 'excel', filters: { invoice_no: f.numbers.C } });
    expect(rec).toMatchObject({ status: 'done', progress: 100, row_count: 1, error: null });
    expect(rec.file_name).toMatch(/^发票明细_\d{8}_\d{6}\.xlsx$/);
    expect(rec.file_path).toMatch(new RegExp(`^exports/${f.software}/\\d+-[0-9a-f]{12}\\.xlsx$`));
    const file = path.join(dataDir, rec.file_path!);
    expect((await fs.stat(file)).size).toBe(Number(rec.file_size));
    expect(await leftovers()).toEqual([]);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['发票列表', '商品明细']);
    const inv = wb.getWorksheet('发票列表')!;
    expect(inv.getRow(1).font?.bold).toBe(true);
    expect(inv.getRow(1).values).toEqual([
      undefined,
      '发票代码',
      '发票号码',
      '发票种类',
      '蓝/红字',
      '状态',
      '开票时间',
      '购买方名称',
      '购买方税号',
      '合计金额',
      '合计税额',
      '价税合计',
      '门店',
      '流水号',
    ]);
    const row = inv.getRow(2).values as unknown[];
    expect(row.slice(1, 9)).toEqual([
      undefined,
      f.numbers.C,
      INVOICE_TYPES['81'],
      '红字',
      '正常',
      '2026-11-12 10:00:00',
      '上海云帆信息技术有限公司',
      '91310115MA1YUNFAN2',
    ]);
    expect(row.slice(9, 12)).toEqual([-2000, -120, -2120]);
    expect(typeof row[12]).toBe('string');
    expect(row[13]).toMatch(/^FIX-C-/);
    expect(inv.getCell('B2').numFmt).toBe('@');
    const lines = wb.getWorksheet('商品明细')!;
    expect(lines.rowCount).toBe(2);
    const l = lines.getRow(2).values as unknown[];
    expect(l[1]).toBe(f.numbers.C);
    expect(l[2]).toBe(1);
    expect(l[3]).toBe('*信息技术服务*软件开发服务');
    expect(l.slice(8, 12)).toEqual([-2000, '6%', -120, -2120]);
    expect(l[12]).toBe('3040201010000000000');
  });

  it('a blue invoice is 蓝字 with its library status; lines of several invoices stay with their numbers', async () => {
    const rec = await run({ kind: 'excel', ids: [f.ids.B!, f.ids.D!] });
    expect(rec).toMatchObject({ status: 'done', row_count: 2 });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dataDir, rec.file_path!));
    const inv = wb.getWorksheet('发票列表')!;
    const byNo = new Map(
      [2, 3].map((r) => {
        const v = inv.getRow(r).values as unknown[];
        return [v[2], v];
      }),
    );
    expect(byNo.get(f.numbers.B)!.slice(4, 6)).toEqual(['蓝字', '全额红冲']);
    const lines = wb.getWorksheet('商品明细')!;
    const owners = [2, 3, 4].map((r) => (lines.getRow(r).values as unknown[])[1]);
    expect(owners.filter((n) => n === f.numbers.D)).toHaveLength(2);
    expect(owners.filter((n) => n === f.numbers.B)).toHaveLength(1);
  });

  it('zip: one PDF per issued invoice, names made safe and kept apart', async () => {
    const rec = await run(
      { kind: 'pdf_zip', ids: [f.ids.A!, f.ids.B!, f.ids.D!] },
      pdfNamed(() => 'a/b: c*.PDF'),
    );
    expect(rec).toMatchObject({ status: 'done', row_count: 3, progress: 100 });
    expect(rec.file_name).toMatch(/^发票PDF_\d{8}_\d{6}\.zip$/);
    const zip = await fs.readFile(path.join(dataDir, rec.file_path!));
    // 'a/b: c*' → a_b_c_; newest first (B), the later ones of that name get their invoice id
    const names = new Set([...zip.toString('latin1').matchAll(/a_b_c_(_\d+)?\.pdf/g)].map((m) => m[0]));
    expect([...names].sort()).toEqual(
      ['a_b_c_.pdf', `a_b_c__${f.ids.A}.pdf`, `a_b_c__${f.ids.D}.pdf`].sort(),
    );
  });

  it('nothing to export, over the limit, a document that cannot be made: failed with the reason, no file left', async () => {
    expect(await run({ kind: 'excel', filters: { buyer_name: '不存在的购方' } })).toMatchObject({
      status: 'failed',
      error: '没有符合条件的发票',
      file_path: null,
    });
    // E failed at the bureau: no document
    expect(await run({ kind: 'pdf_zip', ids: [f.ids.E!] })).toMatchObject({
      status: 'failed',
      error: '没有可下载的已开具发票（开具中、失败的发票没有版式文件）',
    });
    const refused = await run({ kind: 'pdf_zip', ids: [f.ids.A!] }, async () => {
      throw new ExportFailure('发票版式文件生成失败，请稍后重试');
    });
    expect(refused).toMatchObject({
      status: 'failed',
      error: '发票版式文件生成失败，请稍后重试',
      file_path: null,
    });
    expect(refused.finished_at).not.toBeNull();
    const before = errors.length;
    const broken = await run({ kind: 'pdf_zip', ids: [f.ids.A!] }, async () => {
      throw new Error('disk on fire');
    });
    expect(broken).toMatchObject({ status: 'failed', error: '导出失败，请稍后重试' });
    expect(errors.length).toBe(before + 1);
    expect(await leftovers()).toEqual([]);
  });

  it('a document the zip cannot take (not bytes): failed, logged, no file left', async () => {
    const before = errors.length;
    const rec = await run({ kind: 'pdf_zip', ids: [f.ids.A!] }, async () => ({
      fileName: 'A.pdf',
      content: 42 as unknown as Buffer,
    }));
    expect(rec).toMatchObject({ status: 'failed', error: '导出失败，请稍后重试', file_path: null });
    expect(errors.length).toBe(before + 1);
    expect(await leftovers()).toEqual([]);
  });

  it('PDF names: only a trailing .pdf is dropped, and a long name is cut to 80 characters', async () => {
    const long = '发'.repeat(100);
    const rec = await run({ kind: 'pdf_zip', ids: [f.ids.A!, f.ids.B!] }, async (_c, id) => ({
      fileName: id === f.ids.A ? '发票.pdf备份.PDF' : `${long}.pdf`,
      content: Buffer.from('%PDF'),
    }));
    expect(rec.status).toBe('done');
    const names = unzipFile(await fs.readFile(path.join(dataDir, rec.file_path!))).map((e) => e.name);
    expect(names.sort()).toEqual(['发票.pdf备份.pdf', `${'发'.repeat(80)}.pdf`].sort());
  });

  it('a refusal is recorded but not logged; a failure is logged with its record, also with no logger given', async () => {
    const before = errors.length;
    expect(await run({ kind: 'excel', filters: { buyer_name: '不存在的购方' } })).toMatchObject({
      status: 'failed',
    });
    expect(errors.length).toBe(before);
    const broken = await run({ kind: 'pdf_zip', ids: [f.ids.A!] }, async () => {
      throw new Error('disk on fire');
    });
    expect(errors.length).toBe(before + 1);
    expect(errors.at(-1)).toMatchObject({ err: { message: 'disk on fire' }, msg: 'export failed' });
    expect((errors.at(-1) as { recordId: number }).recordId).toBeGreaterThan(0);
    expect(broken.status).toBe('failed');
    // no logger: the failure is still recorded, nothing thrown
    const id = Number(
      (
        await t.db.execute<{ id: number }>(sql`
          insert into export_records (client_id, kind, status, filters, invoice_ids, created_by, expires_at)
          values (${f.software}, 'pdf_zip', 'queued', '{}'::jsonb, ${`{${f.ids.A}}`}::bigint[], ${f.admin}, now() + interval '7 days')
          returning id`)
      ).rows[0]!.id,
    );
    await runExport(
      {
        db: t.db,
        dataDir,
        pdfFor: async () => {
          throw new Error('disk on fire');
        },
      },
      id,
    );
    const [row] = (
      await t.db.execute<{ status: string; error: string }>(
        sql`select status, error from export_records where id = ${id}`,
      )
    ).rows;
    expect(row).toEqual({ status: 'failed', error: '导出失败，请稍后重试' });
  });

  it('a record already finished is not run again', async () => {
    const rec = await run({ kind: 'excel', status: 'done' });
    expect(rec).toMatchObject({ status: 'done', progress: 0, file_path: null, finished_at: null });
  });
});
