import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { bigBatchFile } from '../../../test/fixtures/batches.ts';
import { zipFile } from '../../../test/zip.ts';
import { CELL_MSG, cellText, parseBatchFile, sniffXlsx } from './parse.ts';

const INVOICE_HEAD = ['*流水号', '购买方类型（必填）', '购买方 名称', '备注'];
const LINE_HEAD = ['流水号', '项目名称', '税收分类编码', '金额', '税率'];
const LINE = ['A1', '软件开发服务', '3040201010000000000', '106.00', '6%'];

/** A workbook of the given sheets, each a list of rows (an empty row stays empty). */
async function workbook(sheets: Record<string, ExcelJS.CellValue[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    rows.forEach((r, i) => {
      if (r.length > 0) ws.getRow(i + 1).values = r;
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const ZIP = Buffer.from('504b0304', 'hex');
const OLE = Buffer.from('d0cf11e0a1b11ae1', 'hex');

describe('batch file cells (parse.ts cellText)', () => {
  it.each<[string, ExcelJS.CellValue, { text: string; problem?: string }]>([
    ['empty', null, { text: '' }],
    ['undefined', undefined as unknown as ExcelJS.CellValue, { text: '' }],
    ['text, trimmed', '  杭州云栈 ', { text: '杭州云栈' }],
    ['a decimal', 12.5, { text: '12.5' }],
    ['a 15-digit integer keeps its digits', 999_999_999_999_999, { text: '999999999999999' }],
    [
      '16 digits: Excel has lost the last ones',
      1_000_000_000_000_000,
      { text: '1000000000000000', problem: CELL_MSG.LOST_DIGITS },
    ],
    [
      'negative, 16 digits',
      -1_000_000_000_000_000,
      { text: '-1000000000000000', problem: CELL_MSG.LOST_DIGITS },
    ],
    [
      'a large number with a fraction is read as written',
      1_000_000_000_000_000.5,
      { text: '1000000000000000.5' },
    ],
    ['exponent notation', 1.5e-7, { text: '1.5e-7', problem: CELL_MSG.BAD_NUMBER }],
    ['not a number', Number.NaN, { text: '', problem: CELL_MSG.BAD_NUMBER }],
    ['infinite', Number.POSITIVE_INFINITY, { text: '', problem: CELL_MSG.BAD_NUMBER }],
    ['true', true, { text: '是' }],
    ['false', false, { text: '否' }],
    ['a date', new Date('2026-11-20T00:00:00Z'), { text: '2026-11-20' }],
    [
      'a formula',
      { formula: 'A1+1', result: 2 } as ExcelJS.CellValue,
      { text: '', problem: CELL_MSG.FORMULA },
    ],
    [
      'a shared formula',
      { sharedFormula: 'B2', result: 3 } as ExcelJS.CellValue,
      { text: '', problem: CELL_MSG.FORMULA },
    ],
    ['an error value', { error: '#N/A' } as ExcelJS.CellValue, { text: '', problem: CELL_MSG.CELL_ERROR }],
    [
      'rich text, joined and trimmed',
      { richText: [{ text: ' 杭州' }, { text: '云栈 ' }] },
      { text: '杭州云栈' },
    ],
    ['an e-mail Excel linked', { text: ' a@b.com ', hyperlink: 'mailto:a@b.com' }, { text: 'a@b.com' }],
    [
      'a link over rich text',
      {
        text: { richText: [{ text: '云' }, { text: '栈' }] },
        hyperlink: 'x',
      } as unknown as ExcelJS.CellValue,
      { text: '云栈' },
    ],
  ])('%s', (_, value, expected) => {
    expect(cellText(value)).toEqual(expected);
  });
});

describe('batch file type (parse.ts sniffXlsx)', () => {
  const OLD = '不支持 .xls 旧格式，请在 Excel 中另存为 .xlsx 后再上传';
  const NOT = '请上传由批量开票模板填写的 .xlsx 文件';
  it.each<[string, string, Buffer, string | null]>([
    ['empty', 'a.xlsx', Buffer.alloc(0), '文件是空的，请选择填写好的批量开票模板'],
    ['an old .xls by its bytes', 'a.xlsx', OLE, OLD],
    ['an old .xls by its name', 'a.XLS', ZIP, OLD],
    ['a zip named .csv', 'a.csv', ZIP, NOT],
    ['a zip named .xlsx.csv', 'a.xlsx.csv', ZIP, NOT],
    ['a text file named .xlsx', 'a.xlsx', Buffer.from('流水号,名称'), NOT],
    ['a zip named .xlsx', 'A.XLSX', ZIP, null],
    ['a zip with no name', '', ZIP, null],
  ])('%s', (_, name, bytes, message) => {
    const issue = sniffXlsx(name, bytes);
    expect(issue).toEqual(message === null ? null : { sheet: '', row: 0, column: '', message });
  });
});

describe('batch file sheets (parse.ts parseBatchFile)', () => {
  it('finds the header below blank rows, matches headers marked required, skips blank rows, numbers rows as Excel does', async () => {
    const file = await workbook({
      说明: [['随便写点什么']],
      发票信息: [
        [],
        ['  ', null, ''],
        INVOICE_HEAD,
        ['A1', '企业', ' 杭州云栈 ', ''],
        [],
        ['A2', '个人', '张三', '加急'],
      ],
      商品明细: [LINE_HEAD, LINE],
    });
    const parsed = await parseBatchFile('批量.xlsx', file);
    expect(parsed.fatal).toBeNull();
    expect(parsed.issues).toEqual([]);
    expect(parsed.invoices).toEqual([
      { row: 4, values: { serial: 'A1', buyer_type: '企业', buyer_name: '杭州云栈', remark: '' } },
      { row: 6, values: { serial: 'A2', buyer_type: '个人', buyer_name: '张三', remark: '加急' } },
    ]);
    expect(parsed.lines).toEqual([
      {
        row: 2,
        values: {
          serial: 'A1',
          name: '软件开发服务',
          tax_class_code: '3040201010000000000',
          amount: '106.00',
          rate: '6%',
        },
      },
    ]);
  });

  it('a header row with a blank cell among its headers (a space in a spare column) is still the header', async () => {
    const file = await workbook({
      发票信息: [
        ['*流水号', '  ', '购买方类型（必填）', '购买方名称', '备注'],
        ['A1', '', '企业', '杭州云栈', ''],
      ],
      商品明细: [LINE_HEAD, LINE],
    });
    const parsed = await parseBatchFile('批量.xlsx', file);
    expect(parsed.fatal).toBeNull();
    expect(parsed.invoices).toEqual([
      { row: 2, values: { serial: 'A1', buyer_type: '企业', buyer_name: '杭州云栈', remark: '' } },
    ]);
  });

  it('keeps a row whose only content is unusable, naming the sheet, row and column', async () => {
    const file = await workbook({
      发票信息: [INVOICE_HEAD, ['A1', '企业', '杭州', ''], [null, null, { formula: '1+1', result: 2 }, null]],
      商品明细: [LINE_HEAD, LINE, ['A1', '服务', '3040201010000000000', { error: '#DIV/0!' }, '6%']],
    });
    const parsed = await parseBatchFile('a.xlsx', file);
    expect(parsed.fatal).toBeNull();
    expect(parsed.invoices.map((r) => r.row)).toEqual([2, 3]);
    expect(parsed.issues).toEqual([
      { sheet: '发票信息', row: 3, column: '购买方名称', message: CELL_MSG.FORMULA },
      { sheet: '商品明细', row: 3, column: '金额', message: CELL_MSG.CELL_ERROR },
    ]);
  });

  it.each<
    [string, Record<string, ExcelJS.CellValue[][]>, string, { sheet: string; row: number; message: string }]
  >([
    [
      'a required column missing',
      {
        发票信息: [
          ['流水号', '购买方名称'],
          ['A1', '杭州'],
        ],
        商品明细: [LINE_HEAD, LINE],
      },
      'bad_header',
      { sheet: '发票信息', row: 1, message: '表头与模板不一致：缺少「购买方类型」列，请下载最新模板' },
    ],
    [
      'two missing and one twice',
      { 发票信息: [[], ['流水号', '*流水号', '备注'], ['A1']], 商品明细: [LINE_HEAD, LINE] },
      'bad_header',
      {
        sheet: '发票信息',
        row: 2,
        message: '表头与模板不一致：缺少「购买方类型」「购买方名称」列，「流水号」列重复，请下载最新模板',
      },
    ],
    [
      'a column twice in the second sheet',
      { 发票信息: [INVOICE_HEAD, ['A1', '企业', '杭州']], 商品明细: [[...LINE_HEAD, '金额'], LINE] },
      'bad_header',
      { sheet: '商品明细', row: 1, message: '表头与模板不一致：「金额」列重复，请下载最新模板' },
    ],
    [
      'two columns twice',
      {
        发票信息: [
          [...INVOICE_HEAD, '流水号', '备注'],
          ['A1', '企业', '杭州'],
        ],
        商品明细: [LINE_HEAD, LINE],
      },
      'bad_header',
      { sheet: '发票信息', row: 1, message: '表头与模板不一致：「流水号」「备注」列重复，请下载最新模板' },
    ],
    [
      'a sheet missing',
      { 发票信息: [INVOICE_HEAD, ['A1', '企业', '杭州']], Sheet2: [LINE_HEAD, LINE] },
      'bad_header',
      {
        sheet: '商品明细',
        row: 0,
        message: '找不到工作表「商品明细」，请使用批量开票模板，不要修改工作表名称',
      },
    ],
    [
      'a sheet with nothing in it',
      { 发票信息: [[], []], 商品明细: [LINE_HEAD, LINE] },
      'empty',
      { sheet: '发票信息', row: 0, message: '“发票信息”表是空的' },
    ],
    [
      'invoices with a header only',
      { 发票信息: [INVOICE_HEAD, [], ['', ' ']], 商品明细: [LINE_HEAD, LINE] },
      'empty',
      { sheet: '发票信息', row: 0, message: '“发票信息”表没有数据' },
    ],
    [
      'lines with a header only',
      { 发票信息: [INVOICE_HEAD, ['A1', '企业', '杭州']], 商品明细: [LINE_HEAD] },
      'empty',
      { sheet: '商品明细', row: 0, message: '“商品明细”表没有数据' },
    ],
  ])('refuses %s', async (_, sheets, code, issue) => {
    const parsed = await parseBatchFile('a.xlsx', await workbook(sheets));
    expect(parsed.fatal).toEqual({ code, issue: { ...issue, column: '' } });
  });

  it('refuses what is not a workbook, and a damaged one, as not Excel', async () => {
    const old = await parseBatchFile('a.xls', OLE);
    expect(old.fatal).toEqual({
      code: 'not_excel',
      issue: {
        sheet: '',
        row: 0,
        column: '',
        message: '不支持 .xls 旧格式，请在 Excel 中另存为 .xlsx 后再上传',
      },
    });
    const damaged = await parseBatchFile('a.xlsx', Buffer.concat([ZIP, Buffer.alloc(200, 7)]));
    expect(damaged.fatal).toEqual({
      code: 'not_excel',
      issue: {
        sheet: '',
        row: 0,
        column: '',
        message: '文件已损坏或不是有效的 Excel 文件，请下载模板填写后再上传',
      },
    });
    expect(damaged.invoices).toEqual([]);
  });

  it('refuses a zip of too many parts or parts too large with the reader’s own message', async () => {
    const parts = await parseBatchFile(
      'a.xlsx',
      zipFile(Array.from({ length: 301 }, (_, i) => ({ name: `x${i}.txt`, data: 'x' }))),
    );
    expect(parts.fatal).toEqual({
      code: 'not_excel',
      issue: {
        sheet: '',
        row: 0,
        column: '',
        message: '文件内部结构异常（包含的部件超过300个），请在 Excel 中另存为新的 .xlsx 文件后再上传',
      },
    });
    const big = await parseBatchFile(
      'a.xlsx',
      zipFile([{ name: '[Content_Types].xml', data: '<Types/>', declaredSize: 300 * 1024 * 1024 }]),
    );
    expect(big.fatal?.code).toBe('too_large');
    expect(big.fatal?.issue.message).toMatch(/^文件解压后过大（.+），请检查文件或拆分后再上传$/);
  });

  it('takes 10,000 invoices and refuses the 10,001st with where it stopped', async () => {
    const full = await parseBatchFile('full.xlsx', await bigBatchFile({ invoices: 10_000 }));
    expect(full.fatal).toBeNull();
    expect(full.invoices).toHaveLength(10_000);
    const over = await parseBatchFile('over.xlsx', await bigBatchFile({ invoices: 10_001 }));
    expect(over.fatal).toEqual({
      code: 'too_many',
      issue: {
        sheet: '发票信息',
        row: 10_002,
        column: '',
        message: '“发票信息”超过10000张发票，单次最多10000张发票、100000行商品明细，请拆分文件后再上传',
      },
    });
  }, 60_000);
});
