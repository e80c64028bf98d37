import { EventEmitter } from 'node:events';
import { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { BATCH_LIMITS, BATCH_SHEETS, type BatchIssue } from '@kaipiao/shared';
import ExcelJS from 'exceljs';
import { type BatchColumn, INVOICE_COLUMNS, LINE_COLUMNS, normHeader } from './columns.ts';

/** A data row of one sheet: its Excel row number and the cell texts by column key. */
export type SheetRow = { row: number; values: Record<string, string> };

export type ParsedFile = {
  invoices: SheetRow[];
  lines: SheetRow[];
  /** cell and structure problems (formulas, error values, lost digits, missing columns …) */
  issues: BatchIssue[];
  /** a problem that stops reading (not an Excel file, limits exceeded): nothing else is reported */
  fatal: { code: 'not_excel' | 'empty' | 'bad_header' | 'too_many'; issue: BatchIssue } | null;
};

export const CELL_MSG = {
  FORMULA: '单元格含有公式，请复制后“选择性粘贴为数值”再上传',
  CELL_ERROR: '单元格是错误值（如 #N/A），请修改后再上传',
  LOST_DIGITS: '该单元格是超过15位的数字，Excel 已丢失末尾数字，请将该列设为“文本”后重新填写',
  BAD_NUMBER: '数字格式不正确',
} as const;

const fileIssue = (message: string, sheet = ''): BatchIssue => ({ sheet, row: 0, column: '', message });

/** Refuses what is not an .xlsx before parsing (old .xls, CSV, pictures, empty files). */
export function sniffXlsx(filename: string, buffer: Buffer): BatchIssue | null {
  if (buffer.length === 0) return fileIssue('文件是空的，请选择填写好的批量开票模板');
  const magic = buffer.subarray(0, 4).toString('hex');
  if (magic === 'd0cf11e0' || /\.xls$/i.test(filename)) {
    return fileIssue('不支持 .xls 旧格式，请在 Excel 中另存为 .xlsx 后再上传');
  }
  if (magic !== '504b0304' || (filename && !/\.xlsx$/i.test(filename))) {
    return fileIssue('请上传由批量开票模板填写的 .xlsx 文件');
  }
  return null;
}

/** A cell as trimmed text, with the problem that makes it unusable. */
export function cellText(value: ExcelJS.CellValue): { text: string; problem?: string } {
  const v = value;
  if (v === null || v === undefined) return { text: '' };
  if (typeof v === 'string') return { text: v.trim() };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return { text: '', problem: CELL_MSG.BAD_NUMBER };
    if (Math.abs(v) >= 1e15 && Number.isInteger(v)) return { text: String(v), problem: CELL_MSG.LOST_DIGITS };
    const s = String(v);
    if (/e/i.test(s)) return { text: s, problem: CELL_MSG.BAD_NUMBER };
    return { text: s };
  }
  if (typeof v === 'boolean') return { text: v ? '是' : '否' };
  if (v instanceof Date) return { text: v.toISOString().slice(0, 10) };
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) return { text: '', problem: CELL_MSG.FORMULA };
    if ('error' in v) return { text: '', problem: CELL_MSG.CELL_ERROR };
    if ('richText' in v)
      return {
        text: v.richText
          .map((r) => r.text)
          .join('')
          .trim(),
      };
    // a hyperlink (Excel links e-mail addresses as they are typed)
    if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
  }
  return { text: String(v).trim() };
}

/** A zip entry's bytes as text, decoded across chunk boundaries. */
function decodedStream(entry: NodeJS.ReadableStream): Transform {
  const decoder = new StringDecoder('utf8');
  const out = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, cb) {
      const text = decoder.write(chunk);
      cb(null, text === '' ? undefined : text);
    },
    flush(cb) {
      const rest = decoder.end();
      cb(null, rest === '' ? undefined : rest);
    },
  });
  entry.on('error', (err) => out.destroy(err));
  return entry.pipe(out);
}

async function* decodedChunks(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

type ReaderInternals = Record<string, (...args: unknown[]) => unknown>;

/**
 * exceljs's streaming reader decodes each compressed chunk to text on its own, so a Chinese
 * character cut by a chunk boundary turns into U+FFFD (seen on files of a few thousand rows). The
 * reader's entry parsers get their input as already-decoded text instead (the reader passes text
 * through unchanged).
 */
function utf8SafeReader(input: Readable): AsyncIterable<unknown> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'emit',
  });
  const r = reader as unknown as ReaderInternals;
  const proto = Object.getPrototypeOf(reader) as ReaderInternals;
  for (const name of ['_parseRels', '_parseWorkbook', '_parseSharedStrings']) {
    const original = proto[name];
    if (typeof original !== 'function') throw new Error(`exceljs WorkbookReader lacks ${name}`);
    r[name] = function (this: unknown, entry: unknown) {
      return original.call(this, decodedStream(entry as NodeJS.ReadableStream));
    };
  }
  const parseWorksheet = proto._parseWorksheet;
  if (typeof parseWorksheet !== 'function') throw new Error('exceljs WorkbookReader lacks _parseWorksheet');
  r._parseWorksheet = function (this: unknown, iterator: unknown, sheetNo: unknown) {
    // A sheet stored before the shared strings comes from a temp file: exceljs opens a read stream
    // on it and deletes the file as soon as the sheet is passed over. A sheet we skip (or stop in)
    // is deleted before the stream's open() runs, and the stream's ENOENT had no listener: an
    // uncaught exception in whatever request ran next. A listener keeps that error on the stream;
    // a sheet we do read still sees it through its iterator.
    if (iterator instanceof EventEmitter) {
      (iterator as EventEmitter).on('error', () => undefined);
    }
    return parseWorksheet.call(this, decodedChunks(iterator as AsyncIterable<Buffer>), sheetNo);
  };
  return reader as unknown as AsyncIterable<unknown>;
}

type SheetSpec = { name: string; columns: readonly BatchColumn[]; limit: number; unit: string };

const SPECS: readonly SheetSpec[] = [
  { name: BATCH_SHEETS.invoices, columns: INVOICE_COLUMNS, limit: BATCH_LIMITS.invoices, unit: '张发票' },
  { name: BATCH_SHEETS.lines, columns: LINE_COLUMNS, limit: BATCH_LIMITS.lines, unit: '行商品明细' },
];

/**
 * Reads the uploaded workbook with exceljs's streaming reader, row by row (the file is never held as
 * a workbook model): maps headers to columns, reads cells as text, and stops early once a sheet
 * passes its limit. Only the sheets 发票信息 and 商品明细 are read.
 */
export async function parseBatchFile(filename: string, buffer: Buffer): Promise<ParsedFile> {
  const out: ParsedFile = { invoices: [], lines: [], issues: [], fatal: null };
  const sniffed = sniffXlsx(filename, buffer);
  if (sniffed) return { ...out, fatal: { code: 'not_excel', issue: sniffed } };

  const seen = new Set<string>();
  try {
    const reader = utf8SafeReader(Readable.from(buffer));
    for await (const ws of reader as AsyncIterable<AsyncIterable<ExcelJS.Row> & { name: string }>) {
      const name = ws.name;
      const spec = SPECS.find((s) => s.name === name);
      if (!spec || seen.has(spec.name)) continue;
      seen.add(spec.name);
      const target = spec.name === BATCH_SHEETS.invoices ? out.invoices : out.lines;
      const fatal = await readSheet(ws, spec, target, out.issues);
      if (fatal) {
        out.fatal = fatal;
        return out;
      }
    }
  } catch {
    return {
      ...out,
      fatal: {
        code: 'not_excel',
        issue: fileIssue('文件已损坏或不是有效的 Excel 文件，请下载模板填写后再上传'),
      },
    };
  }

  for (const spec of SPECS) {
    if (!seen.has(spec.name)) {
      out.fatal = {
        code: 'bad_header',
        issue: fileIssue(`找不到工作表「${spec.name}」，请使用批量开票模板，不要修改工作表名称`, spec.name),
      };
      return out;
    }
  }
  if (out.invoices.length === 0) {
    out.fatal = { code: 'empty', issue: fileIssue('“发票信息”表没有数据', BATCH_SHEETS.invoices) };
  } else if (out.lines.length === 0) {
    out.fatal = { code: 'empty', issue: fileIssue('“商品明细”表没有数据', BATCH_SHEETS.lines) };
  }
  return out;
}

async function readSheet(
  ws: AsyncIterable<ExcelJS.Row>,
  spec: SheetSpec,
  target: SheetRow[],
  issues: BatchIssue[],
): Promise<ParsedFile['fatal']> {
  const byHeader = new Map(spec.columns.map((c) => [normHeader(c.header), c]));
  let colOf: Map<number, BatchColumn> | null = null;
  for await (const row of ws) {
    const values = row.values as ExcelJS.CellValue[];
    if (!colOf) {
      // the first non-empty row is the header
      if (!values.some((v) => cellText(v).text !== '')) continue;
      colOf = new Map();
      const headerRow = row.number;
      const dup: string[] = [];
      values.forEach((v, col) => {
        const c = byHeader.get(normHeader(cellText(v).text));
        if (!c) return;
        if ([...colOf!.values()].includes(c)) dup.push(c.header);
        else colOf!.set(col, c);
      });
      const present = new Set([...colOf.values()].map((c) => c.key));
      const missing = spec.columns.filter((c) => c.required && !present.has(c.key)).map((c) => c.header);
      if (missing.length || dup.length) {
        const parts = [
          missing.length ? `缺少「${missing.join('」「')}」列` : '',
          dup.length ? `「${dup.join('」「')}」列重复` : '',
        ].filter(Boolean);
        return {
          code: 'bad_header',
          issue: {
            sheet: spec.name,
            row: headerRow,
            column: '',
            message: `表头与模板不一致：${parts.join('，')}，请下载最新模板`,
          },
        };
      }
      continue;
    }
    const record: Record<string, string> = {};
    const rowIssues: BatchIssue[] = [];
    let filled = false;
    for (const [col, c] of colOf) {
      const { text, problem } = cellText(values[col]);
      record[c.key] = text;
      if (text !== '') filled = true;
      if (problem) rowIssues.push({ sheet: spec.name, row: row.number, column: c.header, message: problem });
    }
    if (!filled && rowIssues.length === 0) continue;
    if (target.length >= spec.limit) {
      return {
        code: 'too_many',
        issue: {
          sheet: spec.name,
          row: row.number,
          column: '',
          message: `“${spec.name}”超过${spec.limit}${spec.unit}，单次最多${BATCH_LIMITS.invoices}张发票、${BATCH_LIMITS.lines}行商品明细，请拆分文件后再上传`,
        },
      };
    }
    target.push({ row: row.number, values: record });
    issues.push(...rowIssues);
  }
  if (!colOf) return { code: 'empty', issue: fileIssue(`“${spec.name}”表是空的`, spec.name) };
  return null;
}
