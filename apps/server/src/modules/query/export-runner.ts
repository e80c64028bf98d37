import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import {
  EXPORT_EXCEL_MAX,
  EXPORT_PDF_MAX,
  type InvoiceFilter,
  invoiceFilterSchema,
  rateLabel,
} from '@kaipiao/shared';
import { ZipArchive } from 'archiver';
import { type SQL, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client.ts';
import { keysetBatchSql, type ListRow, libraryConditions } from './library-sql.ts';
import { toInvoiceRow } from './repo.ts';

/**
 * Builds one export (issue 3 item 7): an Excel file (exceljs streaming writer: invoices, then their
 * lines) or a zip of invoice PDFs (archiver), written under `<dataDir>/exports/<client>/`. Walks the
 * matches newest first by keyset batches, so memory stays flat, and records progress as it goes.
 * Safe to run twice for one record (a retried job starts over and replaces the file).
 */

export type PdfSource = (
  clientId: number,
  invoiceId: number,
) => Promise<{ fileName: string; content: Buffer }>;

export type ExportDeps = {
  db: Db;
  dataDir: string;
  pdfFor: PdfSource;
  log?: { error: (obj: unknown, msg?: string) => void };
};

const BATCH = 500;

type RecordRow = {
  id: number;
  client_id: number;
  kind: string;
  filters: unknown;
  invoice_ids: (number | string)[] | null;
  store_ids: number[] | null;
  status: string;
};

export class ExportFailure extends Error {}

/** The filters + scope + selection of a record as one WHERE. */
export function exportConditions(rec: {
  clientId: number;
  storeIds: readonly number[] | null;
  filters: InvoiceFilter;
  invoiceIds: readonly number[] | null;
  pdfOnly: boolean;
}): SQL {
  const parts = [libraryConditions({ clientId: rec.clientId, storeIds: rec.storeIds }, rec.filters)];
  if (rec.invoiceIds) parts.push(sql`i.id = any(${`{${rec.invoiceIds.join(',') || '0'}}`}::bigint[])`);
  // only issued invoices have documents
  if (rec.pdfOnly) parts.push(sql`i.status = 'issued' and i.invoice_no is not null`);
  return sql.join(parts, sql` and `);
}

async function setProgress(db: Db, id: number, done: number, total: number, from = 0, span = 100) {
  const pct = total === 0 ? from : Math.min(99, Math.floor(from + (done / total) * span));
  await db.execute(sql`update export_records set progress = ${pct} where id = ${id}`);
}

type BatchRow = ListRow & { sort_time: string };

async function* batches(db: Db, where: SQL): AsyncGenerator<BatchRow[]> {
  let after: { time: string; id: number } | null = null;
  for (;;) {
    const res: { rows: BatchRow[] } = await db.execute<BatchRow>(keysetBatchSql(where, after, BATCH));
    if (res.rows.length === 0) return;
    yield res.rows;
    const last: BatchRow = res.rows[res.rows.length - 1]!;
    after = { time: last.sort_time, id: Number(last.id) };
    if (res.rows.length < BATCH) return;
  }
}

const stamp = (d = new Date()) =>
  new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '_');

const safeName = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80);

const INVOICE_COLUMNS: { header: string; key: string; width: number; text?: boolean }[] = [
  { header: '发票代码', key: 'invoice_code', width: 14, text: true },
  { header: '发票号码', key: 'invoice_no', width: 24, text: true },
  { header: '发票种类', key: 'invoice_type_name', width: 26 },
  { header: '蓝/红字', key: 'direction', width: 8 },
  { header: '状态', key: 'status_name', width: 10 },
  { header: '开票日期', key: 'issued_at', width: 20 },
  { header: '购买方名称', key: 'buyer_name', width: 36 },
  { header: '购买方税号', key: 'buyer_tax_code', width: 22, text: true },
  { header: '合计金额', key: 'total_amount', width: 14 },
  { header: '合计税额', key: 'total_tax', width: 12 },
  { header: '价税合计', key: 'total_with_tax', width: 14 },
  { header: '门店', key: 'store_name', width: 14 },
  { header: '流水号', key: 'serial_no', width: 28, text: true },
];

const LINE_COLUMNS: { header: string; key: string; width: number; text?: boolean }[] = [
  { header: '发票号码', key: 'invoice_no', width: 24, text: true },
  { header: '行号', key: 'line_no', width: 6 },
  { header: '项目名称', key: 'full_name', width: 36 },
  { header: '规格型号', key: 'spec', width: 12 },
  { header: '单位', key: 'unit', width: 8 },
  { header: '数量', key: 'quantity', width: 12 },
  { header: '单价（不含税）', key: 'unit_price', width: 14 },
  { header: '金额', key: 'amount', width: 14 },
  { header: '税率', key: 'rate', width: 8 },
  { header: '税额', key: 'tax_amount', width: 12 },
  { header: '价税合计', key: 'amount_with_tax', width: 14 },
  { header: '税收分类编码', key: 'tax_class_code', width: 22, text: true },
];

/** Beijing time 'YYYY-MM-DD HH:mm:ss' of an ISO instant. */
const beijing = (isoTime: string | null) =>
  isoTime ? new Date(Date.parse(isoTime) + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ') : '';

function sheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, columns: typeof INVOICE_COLUMNS) {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.width,
    style: c.text ? { numFmt: '@' } : {},
  }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  return ws;
}

async function writeExcel(deps: ExportDeps, rec: RecordRow, where: SQL, total: number, file: string) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false,
  });
  wb.creator = '开票台';
  const invSheet = sheet(wb, '发票列表', INVOICE_COLUMNS);
  let done = 0;
  for await (const rows of batches(deps.db, where)) {
    for (const r of rows) {
      const v = toInvoiceRow(r);
      invSheet
        .addRow({
          ...v,
          direction: v.direction === 'red' ? '红字' : '蓝字',
          issued_at: beijing(v.issued_at),
          total_amount: Number(v.total_amount),
          total_tax: Number(v.total_tax),
          total_with_tax: Number(v.total_with_tax),
        })
        .commit();
    }
    done += rows.length;
    await setProgress(deps.db, rec.id, done, total, 0, 50);
  }
  invSheet.commit();

  const lineSheet = sheet(wb, '商品明细', LINE_COLUMNS);
  done = 0;
  for await (const rows of batches(deps.db, where)) {
    const numbers = new Map(rows.map((r) => [Number(r.id), r.invoice_no ?? '']));
    const lines = await deps.db.execute<{
      invoice_id: number;
      line_no: number;
      full_name: string;
      spec: string;
      unit: string;
      quantity: string | null;
      unit_price: string | null;
      amount: string;
      tax_rate: string;
      tax_amount: string;
      amount_with_tax: string;
      tax_class_code: string;
      zero_rate_flag: string;
      preferential_code: string;
    }>(sql`select invoice_id, line_no, full_name, spec, unit, quantity, unit_price, amount, tax_rate, tax_amount,
        amount_with_tax, tax_class_code, zero_rate_flag, preferential_code
      from invoice_lines
      where client_id = ${rec.client_id} and invoice_id = any(${`{${[...numbers.keys()].join(',')}}`}::bigint[])
      order by invoice_id desc, line_no`);
    for (const l of lines.rows) {
      lineSheet
        .addRow({
          invoice_no: numbers.get(Number(l.invoice_id)) ?? '',
          line_no: l.line_no,
          full_name: l.full_name,
          spec: l.spec,
          unit: l.unit,
          quantity: l.quantity === null ? null : Number(l.quantity),
          unit_price: l.unit_price === null ? null : Number(l.unit_price),
          amount: Number(l.amount),
          rate: rateLabel(l.tax_rate, l.zero_rate_flag, l.preferential_code),
          tax_amount: Number(l.tax_amount),
          amount_with_tax: Number(l.amount_with_tax),
          tax_class_code: l.tax_class_code,
        })
        .commit();
    }
    done += rows.length;
    await setProgress(deps.db, rec.id, done, total, 50, 50);
  }
  lineSheet.commit();
  await wb.commit();
}

async function writeZip(deps: ExportDeps, rec: RecordRow, where: SQL, total: number, file: string) {
  const out = createWriteStream(file);
  // PDFs are already compressed
  const zip = new ZipArchive({ store: true });
  let failure: Error | null = null;
  zip.on('error', (e) => {
    failure = e;
  });
  zip.pipe(out);
  const names = new Set<string>();
  let done = 0;
  try {
    for await (const rows of batches(deps.db, where)) {
      for (const r of rows) {
        const pdf = await deps.pdfFor(rec.client_id, Number(r.id));
        let name = safeName(pdf.fileName.replace(/\.pdf$/i, ''));
        if (names.has(name)) name = `${name}_${r.id}`;
        names.add(name);
        zip.append(pdf.content, { name: `${name}.pdf` });
        done += 1;
      }
      await setProgress(deps.db, rec.id, done, total);
      if (failure) throw failure;
    }
    await zip.finalize();
    await finished(out);
  } catch (e) {
    zip.abort();
    out.destroy();
    throw e;
  }
  if (failure) throw failure;
}

/** Runs one export record to the end; failures are recorded on the record, not thrown. */
export async function runExport(deps: ExportDeps, recordId: number): Promise<void> {
  const claimed = await deps.db.execute<RecordRow>(sql`
    update export_records set status = 'running', started_at = now(), progress = 0, error = null
    where id = ${recordId} and status in ('queued', 'running')
    returning id, client_id, kind, filters, invoice_ids, store_ids, status`);
  const rec = claimed.rows[0];
  if (!rec) return;
  const rel = path.join('exports', String(rec.client_id), `${rec.id}-${randomBytes(6).toString('hex')}`);
  const ext = rec.kind === 'excel' ? 'xlsx' : 'zip';
  const abs = path.join(deps.dataDir, `${rel}.${ext}`);
  const tmp = `${abs}.part`;
  try {
    const filters = invoiceFilterSchema.parse(rec.filters ?? {});
    const where = exportConditions({
      clientId: rec.client_id,
      storeIds: rec.store_ids,
      filters,
      invoiceIds: rec.invoice_ids?.map(Number) ?? null,
      pdfOnly: rec.kind === 'pdf_zip',
    });
    const max = rec.kind === 'excel' ? EXPORT_EXCEL_MAX : EXPORT_PDF_MAX;
    const counted = await deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from (select 1 from invoices i where ${where} limit ${max + 1}) m`,
    );
    const total = Number(counted.rows[0]?.n ?? 0);
    if (total === 0) {
      throw new ExportFailure(
        rec.kind === 'pdf_zip'
          ? '没有可下载的已开具发票（开具中、失败的发票没有版式文件）'
          : '没有符合条件的发票',
      );
    }
    if (total > max) throw new ExportFailure(`超过单次导出上限${max}张，请缩小查询范围后再导出`);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    if (rec.kind === 'excel') await writeExcel(deps, rec, where, total, tmp);
    else await writeZip(deps, rec, where, total, tmp);
    await fs.rename(tmp, abs);
    const { size } = await fs.stat(abs);
    const label = rec.kind === 'excel' ? '发票明细' : '发票PDF';
    await deps.db.execute(sql`
      update export_records set status = 'done', progress = 100, row_count = ${total},
        file_path = ${`${rel}.${ext}`}, file_size = ${size}, file_name = ${`${label}_${stamp()}.${ext}`},
        finished_at = now()
      where id = ${rec.id}`);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    const message = e instanceof ExportFailure ? e.message : '导出失败，请稍后重试';
    if (!(e instanceof ExportFailure)) deps.log?.error({ err: e, recordId }, 'export failed');
    await deps.db.execute(sql`
      update export_records set status = 'failed', error = ${message}, finished_at = now() where id = ${rec.id}`);
  }
}
