import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import {
  beijingDateTime,
  beijingFileStamp,
  EXPORT_EXCEL_MAX,
  EXPORT_PDF_MAX,
  INVOICE_TYPES,
  type InvoiceType,
  invoiceFilterSchema,
  LIBRARY_STATUS,
  libraryStatusOf,
  rateLabel,
  TERMS,
} from '@kaipiao/shared';
import type { SQL } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import type { Db } from '../../db/client.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { loadArchiver, loadExcelJS } from '../../lib/heavy-modules.ts';
import {
  claimExport,
  countExportable,
  type ExportBatchRow,
  type ExportRecordRow,
  exportConditions,
  exportLines,
  failExport,
  finishExport,
  keysetBatch,
  setExportProgress,
} from './export-repo.ts';

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
  /** when progress is due and the file name's time (`app.clock`; the system clock by default) */
  clock?: Clock;
};

const BATCH = 500;
/** how often a running export records its progress */
const PROGRESS_MS = 500;

export class ExportFailure extends Error {}

async function setProgress(db: Db, id: number, done: number, total: number, from = 0, span = 100) {
  // Stryker disable next-line ConditionalExpression: runExport refuses a total of 0 before any progress is written
  const pct = total === 0 ? from : Math.min(99, Math.floor(from + (done / total) * span));
  await setExportProgress(db, id, pct);
}

/**
 * The matches in keyset batches. The next batch is asked for as soon as the current one arrives, so
 * the database works while the caller writes (the Excel export is otherwise half idle).
 */
async function* batches(db: Db, where: SQL): AsyncGenerator<ExportBatchRow[]> {
  const fetch = async (after: { time: string; id: number } | null) => keysetBatch(db, where, after, BATCH);
  let pending: Promise<ExportBatchRow[]> | null = fetch(null);
  while (pending) {
    const rows: ExportBatchRow[] = await pending;
    if (rows.length === 0) return;
    const last: ExportBatchRow = rows[rows.length - 1]!;
    // Stryker disable next-line ConditionalExpression: fetching after a short batch only finds the empty one that ends the loop
    pending = rows.length < BATCH ? null : fetch({ time: last.sort_time, id: Number(last.id) });
    // a rejected prefetch is seen when it is awaited; keep it from counting as unhandled meanwhile
    pending?.catch(() => undefined);
    yield rows;
  }
}

/** Records progress at most every PROGRESS_MS (each update is a commit); the end is always written. */
function progressWriter(db: Db, id: number, total: number, clock: Clock) {
  let lastAt = 0;
  return async (done: number, from: number, span: number) => {
    const now = clock().getTime();
    if (now - lastAt < PROGRESS_MS) return;
    lastAt = now;
    await setProgress(db, id, done, total, from, span);
  };
}

const safeName = (s: string) => s.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80);

type Column = { header: string; key: string; width: number; text?: boolean };

const INVOICE_COLUMNS: Column[] = [
  { header: TERMS.invoiceCode, key: 'invoice_code', width: 14, text: true },
  { header: TERMS.invoiceNo, key: 'invoice_no', width: 24, text: true },
  { header: TERMS.invoiceKind, key: 'invoice_type_name', width: 26 },
  { header: `蓝/${TERMS.redShort}`, key: 'direction', width: 8 },
  { header: '状态', key: 'status_name', width: 10 },
  { header: TERMS.issueTime, key: 'issued_at', width: 20 },
  { header: `${TERMS.buyer}名称`, key: 'buyer_name', width: 36 },
  { header: `${TERMS.buyer}${TERMS.taxCodeShort}`, key: 'buyer_tax_code', width: 22, text: true },
  { header: TERMS.totalAmount, key: 'total_amount', width: 14 },
  { header: TERMS.totalTax, key: 'total_tax', width: 12 },
  { header: TERMS.totalWithTax, key: 'total_with_tax', width: 14 },
  { header: TERMS.store, key: 'store_name', width: 14 },
  { header: '流水号', key: 'serial_no', width: 28, text: true },
];

const LINE_COLUMNS: Column[] = [
  { header: TERMS.invoiceNo, key: 'invoice_no', width: 24, text: true },
  { header: '行号', key: 'line_no', width: 6 },
  { header: TERMS.itemName, key: 'full_name', width: 36 },
  { header: TERMS.spec, key: 'spec', width: 12 },
  { header: TERMS.unit, key: 'unit', width: 8 },
  { header: TERMS.quantity, key: 'quantity', width: 12 },
  { header: `${TERMS.unitPrice}（不含税）`, key: 'unit_price', width: 14 },
  { header: TERMS.amount, key: 'amount', width: 14 },
  { header: TERMS.taxRate, key: 'rate', width: 8 },
  { header: TERMS.taxAmount, key: 'tax_amount', width: 12 },
  { header: TERMS.totalWithTax, key: 'amount_with_tax', width: 14 },
  { header: TERMS.taxClassCode, key: 'tax_class_code', width: 22, text: true },
];

/** Beijing time 'YYYY-MM-DD HH:mm:ss' of a timestamp as PostgreSQL or JSON writes it; '' for none. */
const beijing = (time: string | Date | null) => (time ? beijingDateTime(time) : '');

/**
 * A sheet whose cells share one style object per column: exceljs caches a style id per style object,
 * and the per-cell copies it otherwise makes cost more than writing the cell.
 */
function sheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, columns: Column[]) {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  const header = ws.getRow(1);
  header.font = { bold: true };
  header.commit();
  const styles: Partial<ExcelJS.Style>[] = columns.map((c) => (c.text ? { numFmt: '@' } : {}));
  return {
    add(values: unknown[]) {
      const row = ws.addRow(values);
      // Stryker disable next-line EqualityOperator: one more cell with no value and no style is not written (only the row's spans hint grows); read back the rows are the same
      for (let i = 0; i < styles.length; i++) row.getCell(i + 1).style = styles[i]!;
      row.commit();
    },
    // Stryker disable next-line ArrowFunction: the workbook's commit commits every sheet not yet committed
    commit: () => ws.commit(),
  };
}

async function writeExcel(deps: ExportDeps, rec: ExportRecordRow, where: SQL, total: number, file: string) {
  const { stream } = await loadExcelJS();
  const wb = new stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false,
  });
  wb.creator = '开票台';
  const progress = progressWriter(deps.db, rec.id, total, deps.clock ?? systemClock);
  const invSheet = sheet(wb, '发票列表', INVOICE_COLUMNS);
  let done = 0;
  for await (const rows of batches(deps.db, where)) {
    for (const r of rows) {
      // the columns of INVOICE_COLUMNS, in order
      invSheet.add([
        r.invoice_code,
        r.invoice_no,
        INVOICE_TYPES[r.invoice_type as InvoiceType] ?? r.invoice_type,
        r.direction === 'red' ? TERMS.redShort : TERMS.blueShort,
        LIBRARY_STATUS[libraryStatusOf(r.status, r.red_status)],
        beijing(r.issued_at),
        r.buyer_name,
        r.buyer_tax_code,
        Number(r.total_amount),
        Number(r.total_tax),
        Number(r.total_with_tax),
        // Stryker disable next-line StringLiteral: invoices.store_id is NOT NULL and joins its store
        r.store_name ?? '',
        r.serial_no,
      ]);
    }
    done += rows.length;
    await progress(done, 0, 50);
  }
  invSheet.commit();

  const lineSheet = sheet(wb, '商品明细', LINE_COLUMNS);
  done = 0;
  for await (const rows of batches(deps.db, where)) {
    const numbers = new Map(rows.map((r) => [Number(r.id), r.invoice_no ?? '']));
    const lines = await exportLines(deps.db, rec.client_id, [...numbers.keys()]);
    for (const l of lines) {
      // the columns of LINE_COLUMNS, in order
      lineSheet.add([
        // Stryker disable next-line StringLiteral: the lines read are those of the invoices just numbered
        numbers.get(Number(l.invoice_id)) ?? '',
        l.line_no,
        l.full_name,
        l.spec,
        l.unit,
        l.quantity === null ? null : Number(l.quantity),
        l.unit_price === null ? null : Number(l.unit_price),
        Number(l.amount),
        rateLabel(l.tax_rate, l.zero_rate_flag, l.preferential_code),
        Number(l.tax_amount),
        Number(l.amount_with_tax),
        l.tax_class_code,
      ]);
    }
    done += rows.length;
    await progress(done, 50, 50);
  }
  lineSheet.commit();
  await wb.commit();
}

async function writeZip(deps: ExportDeps, rec: ExportRecordRow, where: SQL, total: number, file: string) {
  const out = createWriteStream(file);
  // PDFs are already compressed
  const { ZipArchive } = await loadArchiver();
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
  // Stryker disable next-line ConditionalExpression: archiver refuses a Buffer entry in append (seen at each batch's check above) and a zip-stream error rejects finalize, so no error is left here
  if (failure) throw failure;
}

/** Runs one export record to the end; failures are recorded on the record, not thrown. */
export async function runExport(deps: ExportDeps, recordId: number): Promise<void> {
  const rec = await claimExport(deps.db, recordId);
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
    const total = await countExportable(deps.db, where, max);
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
    await finishExport(deps.db, rec.id, {
      total,
      filePath: `${rel}.${ext}`,
      fileSize: size,
      fileName: `${label}_${beijingFileStamp((deps.clock ?? systemClock)())}.${ext}`,
    });
  } catch (e) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: without force a missing file rejects, and the rejection is swallowed all the same
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    const message = e instanceof ExportFailure ? e.message : '导出失败，请稍后重试';
    if (!(e instanceof ExportFailure)) deps.log?.error({ err: e, recordId }, 'export failed');
    await failExport(deps.db, rec.id, message);
  }
}
