import { BATCH_LIMITS, BATCH_SHEETS, type BatchIssue } from '@kaipiao/shared';
import type ExcelJS from 'exceljs';
import { openXlsx, UPLOAD_LIMITS, XlsxRefused } from '../../lib/xlsx-reader.ts';
import { type BatchColumn, INVOICE_COLUMNS, LINE_COLUMNS, normHeader } from './columns.ts';

/** A data row of one sheet: its Excel row number and the cell texts by column key. */
export type SheetRow = { row: number; values: Record<string, string> };

export type ParsedFile = {
  invoices: SheetRow[];
  lines: SheetRow[];
  /** cell and structure problems (formulas, error values, lost digits, missing columns …) */
  issues: BatchIssue[];
  /** a problem that stops reading (not an Excel file, limits exceeded): nothing else is reported */
  fatal: {
    code: 'not_excel' | 'empty' | 'bad_header' | 'too_many' | 'too_large';
    issue: BatchIssue;
  } | null;
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
  // Stryker disable next-line ConditionalExpression,StringLiteral: a string left to the last line is trimmed the same way
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
  // Stryker disable next-line ConditionalExpression: every value left here is an object
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
    // Stryker disable next-line ConditionalExpression: exceljs has no other kind of cell object
    if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
  }
  // Stryker disable next-line ObjectLiteral,MethodExpression: not reached (every cell value is one of the kinds above)
  return { text: String(v).trim() };
}

type SheetSpec = { name: string; columns: readonly BatchColumn[]; limit: number; unit: string };

const SPECS: readonly SheetSpec[] = [
  {
    name: BATCH_SHEETS.invoices,
    columns: INVOICE_COLUMNS,
    limit: UPLOAD_LIMITS.batch.invoices,
    unit: '张发票',
  },
  { name: BATCH_SHEETS.lines, columns: LINE_COLUMNS, limit: UPLOAD_LIMITS.batch.lines, unit: '行商品明细' },
];

/**
 * Reads the uploaded workbook through the bounded reader (zip limits, uncompressed sizes and row
 * counts checked before anything is parsed; see UPLOAD_LIMITS.batch), streaming row by row (the file
 * is never held as a workbook model): maps headers to columns, reads cells as text, and stops early
 * once a sheet passes its limit. Only the sheets 发票信息 and 商品明细 are read.
 */
export async function parseBatchFile(filename: string, buffer: Buffer): Promise<ParsedFile> {
  const out: ParsedFile = { invoices: [], lines: [], issues: [], fatal: null };
  const sniffed = sniffXlsx(filename, buffer);
  if (sniffed) return { ...out, fatal: { code: 'not_excel', issue: sniffed } };

  const seen = new Set<string>();
  try {
    const book = await openXlsx(buffer, UPLOAD_LIMITS.batch, '上传');
    for (const spec of SPECS) {
      const sheet = book.sheets.find((s) => s.name === spec.name);
      if (!sheet) continue;
      seen.add(spec.name);
      const target = spec.name === BATCH_SHEETS.invoices ? out.invoices : out.lines;
      const fatal = await readSheet(book.rows(sheet), spec, target, out.issues);
      if (fatal) {
        out.fatal = fatal;
        return out;
      }
    }
  } catch (err) {
    const refused = err instanceof XlsxRefused && err.kind !== 'corrupt' ? err : null;
    const code = { too_large: 'too_large', too_many_rows: 'too_many' } as const;
    return {
      ...out,
      fatal: {
        code: (refused && code[refused.kind as keyof typeof code]) || 'not_excel',
        issue: fileIssue(refused?.message ?? '文件已损坏或不是有效的 Excel 文件，请下载模板填写后再上传'),
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
  const byHeader = new Map(
    spec.columns.flatMap((c) => [c.header, ...(c.aliases ?? [])].map((h) => [normHeader(h), c] as const)),
  );
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
