import { PassThrough } from 'node:stream';
import { BATCH_SHEETS, usccCheckChar } from '@kaipiao/shared';
import ExcelJS from 'exceljs';
import { INVOICE_COLUMNS, LINE_COLUMNS } from './columns.ts';

/** A value per column header (without the required mark). */
export type CellMap = Record<string, string | number | { formula: string } | null>;

export const BUYER_TAX_CODE = `91330100MA2B3C4D5${usccCheckChar('91330100MA2B3C4D5')}`;

/** An invoice row of 发票信息 (enterprise buyer, tax-inclusive prices) with overrides. */
export function invoiceRow(serial: string, over: CellMap = {}): CellMap {
  return {
    流水号: serial,
    发票种类: '数电普票',
    购买方类型: '企业',
    购买方名称: `杭州测试客户${serial}有限公司`,
    购买方纳税人识别号: BUYER_TAX_CODE,
    购买方邮箱: 'finance@example.com',
    单价金额含税: '是',
    备注: '',
    ...over,
  };
}

/** A line row of 商品明细 (software service, 6%) with overrides. */
export function lineRow(serial: string, over: CellMap = {}): CellMap {
  return {
    流水号: serial,
    项目名称: '软件开发服务',
    税收分类编码: '3040201010000000000',
    单位: '项',
    数量: '2',
    单价: '530',
    金额: '1060',
    税率: '6%',
    ...over,
  };
}

function headerIndex(ws: ExcelJS.Worksheet): Map<string, number> {
  const map = new Map<string, number>();
  ws.getRow(1).eachCell((cell, col) => map.set(String(cell.value).replace(/\*$/, ''), col));
  return map;
}

function put(ws: ExcelJS.Worksheet, rows: readonly CellMap[]) {
  const cols = headerIndex(ws);
  rows.forEach((r, i) => {
    const row = ws.getRow(i + 2);
    for (const [h, v] of Object.entries(r)) {
      const col = cols.get(h);
      if (!col) throw new Error(`no column ${h}`);
      row.getCell(col).value = v as ExcelJS.CellValue;
    }
    row.commit();
  });
}

/** Fills the downloaded template the way a clerk would, keeping its sheets, notes and lists. */
export async function fillTemplate(
  template: Buffer,
  invoices: readonly CellMap[],
  lines: readonly CellMap[],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ExcelJS.Buffer);
  put(wb.getWorksheet(BATCH_SHEETS.invoices)!, invoices);
  put(wb.getWorksheet(BATCH_SHEETS.lines)!, lines);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * A large batch file written with the streaming writer (the 10,000-invoice benchmark, the
 * 100,000-row refusal): `invoices` invoices with `linesPer` lines each, plus `extraLines` more.
 */
export async function bigBatchFile(opts: {
  invoices: number;
  linesPer?: number;
  extraLines?: number;
  serialPrefix?: string;
}): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: false,
  });
  const inv = wb.addWorksheet(BATCH_SHEETS.invoices);
  inv.addRow(INVOICE_COLUMNS.map((c) => c.header)).commit();
  const prefix = opts.serialPrefix ?? 'S';
  const invCols = INVOICE_COLUMNS.map((c) => c.header);
  for (let i = 1; i <= opts.invoices; i++) {
    const r = invoiceRow(`${prefix}${i}`);
    inv.addRow(invCols.map((h) => (r[h] ?? null) as ExcelJS.CellValue)).commit();
  }
  inv.commit();
  const ln = wb.addWorksheet(BATCH_SHEETS.lines);
  const lineCols = LINE_COLUMNS.map((c) => c.header);
  ln.addRow(lineCols).commit();
  const per = opts.linesPer ?? 1;
  for (let i = 1; i <= opts.invoices; i++) {
    for (let k = 0; k < per; k++) {
      const r = lineRow(`${prefix}${i}`);
      ln.addRow(lineCols.map((h) => (r[h] ?? null) as ExcelJS.CellValue)).commit();
    }
  }
  for (let k = 0; k < (opts.extraLines ?? 0); k++) {
    const r = lineRow(`${prefix}1`);
    ln.addRow(lineCols.map((h) => (r[h] ?? null) as ExcelJS.CellValue)).commit();
  }
  ln.commit();
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}
