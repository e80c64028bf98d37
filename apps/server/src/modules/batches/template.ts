import { BATCH_LIMITS, BATCH_SHEETS, TERMS } from '@kaipiao/shared';
import type ExcelJS from 'exceljs';
import { loadExcelJS } from '../../lib/heavy-modules.ts';
import {
  type BatchColumn,
  HELP_LINES,
  INVOICE_COLUMNS,
  KIND_OPTIONS,
  LINE_COLUMNS,
  OPTIONS_SHEET,
  POLICY_OPTIONS,
  RATE_OPTIONS,
} from './columns.ts';

const HEAD_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F5E9' } };
const REQUIRED_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFC62828' } };

function dataSheet(wb: ExcelJS.Workbook, name: string, columns: readonly BatchColumn[], rows: number) {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({
    key: c.key,
    header: c.required ? `${c.header}*` : c.header,
    width: c.width,
    style: c.text ? { numFmt: '@' } : {},
  }));
  const head = ws.getRow(1);
  head.height = 20;
  columns.forEach((c, i) => {
    const cell = head.getCell(i + 1);
    cell.fill = HEAD_FILL;
    cell.font = c.required ? REQUIRED_FONT : { bold: true };
    cell.alignment = { vertical: 'middle' };
    cell.note = c.note;
    if (c.list) {
      const col = ws.getColumn(i + 1).letter;
      // exceljs keeps range validations (not in its typings): one sqref for the whole column
      (
        ws as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }
      ).dataValidations.add(`${col}2:${col}${rows + 1}`, {
        type: 'list',
        allowBlank: !c.required,
        formulae: [c.list],
        showErrorMessage: true,
        errorStyle: 'error',
        errorTitle: '输入值无效',
        error: `请从下拉列表中选择${c.header}`,
      });
    }
  });
  return ws;
}

/**
 * The batch template (GET /v3/batch-invoice/template): 发票信息 and 商品明细 with their headers, notes
 * and drop-down lists, a help sheet, and the (hidden) sheet the longer lists come from.
 */
export async function batchTemplate(): Promise<Buffer> {
  const { Workbook } = await loadExcelJS();
  const wb = new Workbook();
  wb.creator = '开票台';
  wb.created = new Date(0);
  dataSheet(wb, BATCH_SHEETS.invoices, INVOICE_COLUMNS, BATCH_LIMITS.invoices);
  dataSheet(wb, BATCH_SHEETS.lines, LINE_COLUMNS, BATCH_LIMITS.lines);

  const help = wb.addWorksheet(BATCH_SHEETS.help);
  help.getColumn(1).width = 120;
  for (const line of HELP_LINES) help.addRow([line]);
  help.getRow(1).font = { bold: true, size: 14 };

  const options = wb.addWorksheet(OPTIONS_SHEET, { state: 'hidden' });
  options.addRow([TERMS.invoiceKind, TERMS.taxRate, '优惠政策标识']);
  const n = Math.max(KIND_OPTIONS.length, RATE_OPTIONS.length, POLICY_OPTIONS.length);
  for (let i = 0; i < n; i++)
    options.addRow([KIND_OPTIONS[i] ?? null, RATE_OPTIONS[i] ?? null, POLICY_OPTIONS[i] ?? null]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
