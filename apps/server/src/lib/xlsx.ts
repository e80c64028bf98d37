import { CATALOG_CODE } from '@kaipiao/shared';
import type ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { loadExcelJS } from './heavy-modules.ts';
import { openXlsx, UPLOAD_LIMITS, XlsxRefused } from './xlsx-reader.ts';

/**
 * Excel import/export for list screens (goods codes, buyer titles): one sheet, Chinese headers in
 * row 1, one record per row. Import reads cells as text and reports problems per row and column.
 */

export type SheetColumn = {
  key: string;
  header: string;
  width?: number;
  /** header must be present on import */
  required?: boolean;
  /** written on export, ignored on import */
  exportOnly?: boolean;
  /** column formatted as text ('@') so long digit strings keep every digit */
  text?: boolean;
  /** what earlier templates called the column: still read on import */
  aliases?: readonly string[];
};

export type CellRow = Record<string, string | number | null>;
export type ImportRow = { row: number; values: Record<string, string> };
export type RowError = { row: number; column: string; message: string };

export const MAX_IMPORT_ROWS = UPLOAD_LIMITS.list.dataRows;
const LIMITS = UPLOAD_LIMITS.list;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const IMPORT_MSG = {
  OLD_XLS: '不支持 .xls 旧格式，请在 Excel 中另存为 .xlsx 后再导入',
  CORRUPT: '文件已损坏或不是有效的 Excel 文件，请下载导入模板填写后再导入',
  TOO_LARGE: `文件不能超过${LIMITS.fileBytes / 1024 / 1024}MB`,
  MISSING_HEADERS: (names: string[]) => `表头缺少「${names.join('」「')}」列，请下载最新导入模板`,
  TOO_MANY: (n: number) => `单次最多导入${MAX_IMPORT_ROWS}行，当前文件有${n}行，请拆分后再导入`,
  FORMULA: '单元格含有公式，请复制后“选择性粘贴为数值”再导入',
  CELL_ERROR: '单元格是错误值（如 #N/A），请修改后再导入',
  LOST_DIGITS: '该单元格是超过15位的数字，Excel 已丢失末尾数字，请将该列设为“文本”后重新填写',
} as const;

/** A workbook with one data sheet (and an optional instructions sheet) as an .xlsx buffer. */
export async function buildWorkbook(opts: {
  sheetName: string;
  columns: readonly SheetColumn[];
  rows: readonly CellRow[];
  notes?: readonly string[];
}): Promise<Buffer> {
  const { Workbook } = await loadExcelJS();
  const wb = new Workbook();
  wb.creator = '开票台';
  const ws = wb.addWorksheet(opts.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = opts.columns.map((c) => ({
    key: c.key,
    header: c.required ? `${c.header}*` : c.header,
    width: c.width ?? 16,
    style: c.text ? { numFmt: '@' } : {},
  }));
  const head = ws.getRow(1);
  head.font = { bold: true };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F5E9' } };
  for (const r of opts.rows) ws.addRow(r);
  if (opts.notes?.length) {
    const help = wb.addWorksheet('填写说明');
    help.getColumn(1).width = 100;
    for (const line of opts.notes) help.addRow([line]);
    help.getRow(1).font = { bold: true };
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function sendXlsx(reply: FastifyReply, buffer: Buffer, filename: string) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header(
      'content-disposition',
      `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    )
    .header('cache-control', 'no-store')
    .send(buffer);
}

/**
 * The uploaded file of a multipart request (field name free), refused when missing or too big. It is
 * held in memory (never written to disk) up to `UPLOAD_LIMITS.list.fileBytes`.
 */
export async function readUpload(req: FastifyRequest): Promise<{ filename: string; buffer: Buffer }> {
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    file = await req.file({ limits: { ...UPLOAD_LIMITS.multipart, fileSize: LIMITS.fileBytes } });
  } catch {
    throw new AppError(CATALOG_CODE.IMPORT_NO_FILE);
  }
  if (!file) throw new AppError(CATALOG_CODE.IMPORT_NO_FILE);
  try {
    const buffer = await file.toBuffer();
    return { filename: file.filename, buffer };
  } catch {
    throw new AppError(CATALOG_CODE.IMPORT_NOT_EXCEL, IMPORT_MSG.TOO_LARGE);
  }
}

function assertXlsx(filename: string, buffer: Buffer) {
  if (buffer.length === 0) throw new AppError(CATALOG_CODE.IMPORT_EMPTY);
  const oleMagic = buffer.subarray(0, 4).toString('hex') === 'd0cf11e0';
  if (oleMagic || /\.xls$/i.test(filename))
    throw new AppError(CATALOG_CODE.IMPORT_NOT_EXCEL, IMPORT_MSG.OLD_XLS);
  const zipMagic = buffer.subarray(0, 4).toString('hex') === '504b0304';
  if (!zipMagic || (filename && !/\.xlsx$/i.test(filename)))
    throw new AppError(CATALOG_CODE.IMPORT_NOT_EXCEL);
}

const normHeader = (h: string) => h.replace(/[*＊\s]|（必填）|\(必填\)/g, '');

/**
 * Reads the first sheet, streaming, through the bounded reader (zip limits, uncompressed sizes and
 * row counts are checked before anything is parsed): header row 1 mapped to `columns` by name (order
 * free, unknown columns ignored), empty rows skipped. File-level problems throw; cell problems come
 * back as row errors. Past `MAX_IMPORT_ROWS` data rows no row is kept, only counted for the message.
 */
export async function readImportSheet(
  filename: string,
  buffer: Buffer,
  columns: readonly SheetColumn[],
): Promise<{ rows: ImportRow[]; errors: RowError[] }> {
  assertXlsx(filename, buffer);
  const importable = columns.filter((c) => !c.exportOnly);
  const byHeader = new Map(
    importable.flatMap((c) => [c.header, ...(c.aliases ?? [])].map((h) => [normHeader(h), c] as const)),
  );
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  let dataRows = 0;
  let sawRow = false;
  try {
    const book = await openXlsx(buffer, LIMITS);
    const ws = book.sheets[0];
    if (!ws) throw new AppError(CATALOG_CODE.IMPORT_EMPTY);
    let colOf: Map<number, SheetColumn> | null = null;
    for await (const row of book.rows(ws)) {
      const cells = row.values as ExcelJS.CellValue[];
      if (!colOf) {
        sawRow = true;
        colOf = new Map();
        if (row.number === 1) {
          cells.forEach((v, col) => {
            const c = byHeader.get(normHeader(cellText(v).text));
            if (c) colOf!.set(col, c);
          });
        }
        const present = new Set([...colOf.values()].map((c) => c.key));
        const missing = importable.filter((c) => c.required && !present.has(c.key)).map((c) => c.header);
        if (missing.length)
          throw new AppError(CATALOG_CODE.IMPORT_BAD_HEADER, IMPORT_MSG.MISSING_HEADERS(missing));
        if (row.number === 1) continue;
      }
      const values: Record<string, string> = {};
      const rowErrors: RowError[] = [];
      for (const [col, c] of colOf) {
        const { text, problem } = cellText(cells[col]);
        values[c.key] = text;
        if (problem) rowErrors.push({ row: row.number, column: c.header, message: problem });
      }
      if (Object.values(values).every((v) => v === '') && rowErrors.length === 0) continue;
      // past the limit rows are only counted (the sheet's row count is already bounded)
      if (++dataRows > MAX_IMPORT_ROWS) continue;
      rows.push({ row: row.number, values });
      errors.push(...rowErrors);
    }
  } catch (err) {
    if (err instanceof XlsxRefused) {
      const code =
        err.kind === 'too_many_rows' ? CATALOG_CODE.IMPORT_TOO_MANY_ROWS : CATALOG_CODE.IMPORT_NOT_EXCEL;
      throw new AppError(code, err.kind === 'corrupt' ? IMPORT_MSG.CORRUPT : err.message);
    }
    if (err instanceof AppError) throw err;
    throw new AppError(CATALOG_CODE.IMPORT_NOT_EXCEL, IMPORT_MSG.CORRUPT);
  }
  if (!sawRow || dataRows === 0) throw new AppError(CATALOG_CODE.IMPORT_EMPTY);
  if (dataRows > MAX_IMPORT_ROWS) {
    throw new AppError(CATALOG_CODE.IMPORT_TOO_MANY_ROWS, IMPORT_MSG.TOO_MANY(dataRows));
  }
  return { rows, errors };
}

/** A cell as trimmed text; formulas, error values and digits Excel has rounded are problems. */
function cellText(v: ExcelJS.CellValue): { text: string; problem?: string } {
  if (v === null || v === undefined) return { text: '' };
  if (typeof v === 'string') return { text: v.trim() };
  if (typeof v === 'number') {
    if (Math.abs(v) >= 1e15 && Number.isInteger(v))
      return { text: String(v), problem: IMPORT_MSG.LOST_DIGITS };
    return { text: String(v) };
  }
  if (typeof v === 'boolean') return { text: v ? '是' : '否' };
  if (v instanceof Date) return { text: v.toISOString().slice(0, 10) };
  if ('formula' in v || 'sharedFormula' in v) return { text: '', problem: IMPORT_MSG.FORMULA };
  if ('error' in v) return { text: '', problem: IMPORT_MSG.CELL_ERROR };
  if ('richText' in v)
    return {
      text: v.richText
        .map((r) => r.text)
        .join('')
        .trim(),
    };
  if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
  return { text: String(v).trim() };
}
