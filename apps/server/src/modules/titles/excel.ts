import {
  BUYER_TYPE_LABELS,
  CATALOG_CODE,
  type ImportResult,
  TERMS,
  TITLE_TYPES,
  type TitleItem,
  titleBodySchema,
} from '@kaipiao/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  buildWorkbook,
  type CellRow,
  type RowError,
  readImportSheet,
  type SheetColumn,
} from '../../lib/xlsx.ts';
import * as repo from './repo.ts';
import { titleValues, toTitleItem } from './service.ts';

export const TITLE_COLUMNS: readonly SheetColumn[] = [
  // the header of earlier templates is still read from uploaded files
  { key: 'title_type', header: TERMS.buyerType, aliases: ['抬头类型'], required: true, width: 14 }, // glossary-allow
  { key: 'name', header: '名称', required: true, width: 32 },
  { key: 'tax_code', header: TERMS.taxCode, required: true, text: true, width: 24 },
  { key: 'address', header: '地址', width: 36 },
  { key: 'phone', header: '电话', text: true, width: 16 },
  { key: 'bank_name', header: '开户银行', width: 24 },
  { key: 'bank_account', header: '银行账号', text: true, width: 24 },
  { key: 'email', header: '邮箱', width: 24 },
  { key: 'mobile', header: '手机号', text: true, width: 14 },
];

export const TITLE_TEMPLATE_NOTES = [
  `${TERMS.buyerTitle}导入说明`,
  `1. 第一行为表头，请勿修改；带 * 的列必须保留（个人抬头的${TERMS.taxCode}可留空）。每次最多导入5000行，仅支持 .xlsx 文件。`,
  `2. ${TERMS.buyerType}：填“${BUYER_TYPE_LABELS[2]}”或“${BUYER_TYPE_LABELS[1]}”。`,
  '3. 名称：最多100个字符；与已有抬头同名时会更新该抬头。',
  `4. ${TERMS.taxCode}：企业必填，15、18或20位数字或大写字母；18位统一社会信用代码会校验校验位。请保持该列为文本格式。`,
  '5. 电话：7-20位数字或“-”；银行账号：1-30位数字；手机号：11位数字；邮箱：如 name@example.com。',
  '6. 请勿使用公式，如有公式请先“选择性粘贴为数值”。',
];

const TYPE_BY_LABEL = new Map<string, 1 | 2>([
  ['企业', 2],
  ['2', 2],
  ['个人', 1],
  [BUYER_TYPE_LABELS[1], 1],
  ['非企业单位', 1],
  // what earlier templates and screens said: still read from uploaded files
  ['个人/事业单位', 1], // glossary-allow
  ['事业单位', 1],
  ['政府事业单位', 1],
  ['个人/政府事业单位', 1], // glossary-allow
  ['1', 1],
]);

export function titleExportRow(t: TitleItem): CellRow {
  return {
    title_type: TITLE_TYPES[t.title_type as 1 | 2] ?? String(t.title_type),
    name: t.name,
    tax_code: t.tax_code,
    address: t.address,
    phone: t.phone,
    bank_name: t.bank_name,
    bank_account: t.bank_account,
    email: t.email,
    mobile: t.mobile,
  };
}

export async function exportTitles(db: Db, clientId: number, keyword: string): Promise<Buffer> {
  const rows = await repo.allTitles(db, clientId, keyword);
  return buildWorkbook({
    sheetName: TERMS.buyerTitle,
    columns: TITLE_COLUMNS,
    rows: rows.map((r) => titleExportRow(toTitleItem(r))),
  });
}

export function titleTemplate(): Promise<Buffer> {
  return buildWorkbook({
    sheetName: TERMS.buyerTitle,
    columns: TITLE_COLUMNS,
    rows: [],
    notes: TITLE_TEMPLATE_NOTES,
  });
}

const HEADER = new Map(TITLE_COLUMNS.map((c) => [c.key, c.header]));

/** All-or-nothing, like the goods import: any wrong row → nothing written, row errors back. */
export async function importTitles(
  db: Db,
  clientId: number,
  file: { filename: string; buffer: Buffer },
): Promise<ImportResult> {
  const { rows, errors } = await readImportSheet(file.filename, file.buffer, TITLE_COLUMNS);
  const problems: RowError[] = [...errors];
  const seen = new Map<string, number>();
  const values: repo.TitleValues[] = [];
  for (const { row, values: cells } of rows) {
    const err = (key: string, message: string) =>
      problems.push({ row, column: HEADER.get(key) ?? key, message });
    const type = TYPE_BY_LABEL.get(cells.title_type ?? '');
    if (!type) {
      err('title_type', `${TERMS.buyerType}请填写“${BUYER_TYPE_LABELS[2]}”或“${BUYER_TYPE_LABELS[1]}”`);
      continue;
    }
    const parsed = titleBodySchema.safeParse({ ...cells, title_type: type });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) err(String(issue.path[0] ?? ''), issue.message);
      continue;
    }
    const first = seen.get(parsed.data.name);
    if (first !== undefined) {
      err('name', `与第${first}行的名称重复`);
      continue;
    }
    seen.set(parsed.data.name, row);
    values.push(titleValues(clientId, parsed.data));
  }
  if (problems.length) {
    const order = new Map(TITLE_COLUMNS.map((c, i) => [c.header, i]));
    problems.sort((a, b) => a.row - b.row || (order.get(a.column) ?? 99) - (order.get(b.column) ?? 99));
    throw new AppError(
      CATALOG_CODE.IMPORT_ROWS_INVALID,
      `导入数据有${problems.length}处错误，未导入任何数据，请修改后重新导入`,
      { errors: problems.slice(0, 1000), total_rows: rows.length },
    );
  }
  const counts = await db.transaction((tx) => repo.upsertTitles(tx, values));
  return { total: values.length, ...counts };
}
