import {
  CATALOG_CODE,
  type GoodsItem,
  goodsBodySchema,
  type ImportResult,
  PREFERENTIAL_POLICIES,
  rateLabel,
  TERMS,
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
import { goodsValues, toGoodsItem } from './service.ts';

/** The goods sheet (export = import template + 简称 and the printed name). */
export const GOODS_COLUMNS: readonly SheetColumn[] = [
  { key: 'name', header: TERMS.itemName, required: true, width: 28 },
  { key: 'tax_class_code', header: TERMS.taxClassCode, required: true, text: true, width: 24 },
  { key: 'short_name', header: TERMS.shortName, exportOnly: true, width: 18 },
  { key: 'full_name', header: '发票显示名称', exportOnly: true, width: 32 },
  { key: 'spec', header: TERMS.spec, text: true },
  { key: 'unit', header: TERMS.unit, width: 10 },
  { key: 'price', header: TERMS.unitPrice, width: 14 },
  { key: 'price_includes_tax', header: `${TERMS.unitPrice}含税`, width: 10 },
  { key: 'tax_rate', header: TERMS.taxRate, required: true, width: 10 },
  { key: 'preferential', header: '优惠政策', width: 22 },
  { key: 'is_default', header: '默认商品', width: 10 },
];

export const GOODS_TEMPLATE_NOTES = [
  `${TERMS.goodsCode}导入说明`,
  '1. 第一行为表头，请勿修改；带 * 的列必填。每次最多导入5000行，仅支持 .xlsx 文件。',
  `2. ${TERMS.itemName}：最多300个字符；同一企业内“${TERMS.itemName}+${TERMS.spec}”相同的商品会被更新，不会重复新增。`,
  `3. ${TERMS.taxClassCode}：19位数字，须为系统编码库中的非汇总项编码（可在“新增商品”中搜索查看）。请保持该列为文本格式。`,
  `4. ${TERMS.unitPrice}：可为空；大于0，最多8位小数。${TERMS.unitPrice}含税：填“是”或“否”，为空视为“是”。`,
  `5. ${TERMS.taxRate}：填写如 6%、13%、1%，或 0.06；0${TERMS.taxRate}请在${TERMS.taxRate}列填“免税”“不征税”或“0%”（普通零税率）。`,
  `6. 优惠政策：可为空，或填写数电优惠政策标识的代码或名称，如 03 或 免税（${Object.values(PREFERENTIAL_POLICIES).slice(0, 4).join('、')}…）。`,
  '7. 默认商品：填“是”的商品为开票页默认带出的商品，整个文件最多一行为“是”。',
  '8. 请勿使用公式，如有公式请先“选择性粘贴为数值”。',
];

export function goodsExportRow(g: GoodsItem): CellRow {
  const zero = g.tax_rate === '0';
  return {
    name: g.name,
    tax_class_code: g.tax_class_code,
    short_name: g.short_name,
    full_name: g.full_name,
    spec: g.spec,
    unit: g.unit,
    price: g.price,
    price_includes_tax: g.price_includes_tax ? '是' : '否',
    tax_rate: zero ? g.tax_rate_label : rateLabel(g.tax_rate),
    preferential:
      g.preferential_code && !zero
        ? `${g.preferential_code} ${PREFERENTIAL_POLICIES[g.preferential_code as keyof typeof PREFERENTIAL_POLICIES] ?? ''}`.trim()
        : '',
    is_default: g.is_default ? '是' : '',
  };
}

export async function exportGoods(db: Db, clientId: number, keyword: string): Promise<Buffer> {
  const rows = await repo.allGoods(db, clientId, keyword);
  return buildWorkbook({
    sheetName: TERMS.goodsCode,
    columns: GOODS_COLUMNS,
    rows: rows.map((r) => goodsExportRow(toGoodsItem(r))),
  });
}

export function goodsTemplate(): Promise<Buffer> {
  return buildWorkbook({
    sheetName: TERMS.goodsCode,
    columns: GOODS_COLUMNS.filter((c) => !c.exportOnly),
    rows: [],
    notes: GOODS_TEMPLATE_NOTES,
  });
}

const YES = new Set(['是', 'Y', 'y', '1', 'TRUE', 'true', '含税']);
const NO = new Set(['否', 'N', 'n', '0', 'FALSE', 'false', '不含税']);
const POLICY_BY_NAME = new Map<string, string>(
  Object.entries(PREFERENTIAL_POLICIES).map(([code, name]) => [name, code]),
);

function parseYesNo(v: string, empty: boolean): boolean | null {
  if (v === '') return empty;
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  return null;
}

/** 税率 as typed: '6%', '0.06', 6 (a whole number = percent), 免税 / 不征税. */
function parseRate(v: string): { rate: string; policy?: string } {
  if (v === '免税') return { rate: '0', policy: '03' };
  if (v === '不征税') return { rate: '0', policy: '04' };
  if (/^\d+(\.\d+)?$/.test(v) && Number(v) >= 1) return { rate: `${v}%` };
  return { rate: v };
}

function parsePolicy(v: string): string | null {
  if (v === '') return '';
  const code = /^(\d{1,2})/.exec(v)?.[1];
  if (code) return code.padStart(2, '0');
  return POLICY_BY_NAME.get(v) ?? null;
}

const HEADER = new Map(GOODS_COLUMNS.map((c) => [c.key, c.header]));
const FIELD_COLUMN: Record<string, string> = {
  name: 'name',
  tax_class_code: 'tax_class_code',
  spec: 'spec',
  unit: 'unit',
  price: 'price',
  price_includes_tax: 'price_includes_tax',
  tax_rate: 'tax_rate',
  preferential_code: 'preferential',
  zero_rate_flag: 'tax_rate',
  is_default: 'is_default',
};
const columnName = (field: string) => HEADER.get(FIELD_COLUMN[field] ?? field) ?? field;

/**
 * All-or-nothing import: every row is checked (format, classification code, rate for this
 * business, duplicates inside the file, one default at most); if any row is wrong nothing is
 * written and the row errors come back (code 14013). Rows whose name + spec already exist update
 * that item, so an exported file imports back unchanged.
 */
export async function importGoods(
  db: Db,
  clientId: number,
  file: { filename: string; buffer: Buffer },
): Promise<ImportResult> {
  const { rows, errors } = await readImportSheet(file.filename, file.buffer, GOODS_COLUMNS);
  const [taxpayerType, classes] = await Promise.all([
    repo.taxpayerTypeOf(db, clientId),
    repo.allTaxClasses(db),
  ]);
  const byCode = new Map(classes.map((c) => [c.code, c]));
  const problems: RowError[] = [...errors];
  const seen = new Map<string, number>();
  const values: repo.GoodsValues[] = [];
  let defaults = 0;

  for (const { row, values: cells } of rows) {
    const err = (column: string, message: string) => problems.push({ row, column, message });
    const includesTax = parseYesNo(cells.price_includes_tax ?? '', true);
    if (includesTax === null) err(columnName('price_includes_tax'), `${TERMS.unitPrice}含税请填写“是”或“否”`);
    const isDefault = parseYesNo(cells.is_default ?? '', false);
    if (isDefault === null) err(columnName('is_default'), '默认商品请填写“是”或留空');
    const rate = parseRate(cells.tax_rate ?? '');
    const policy = parsePolicy(cells.preferential ?? '');
    if (policy === null) err(columnName('preferential_code'), '优惠政策请填写代码（如03）或名称（如免税）');
    const parsed = goodsBodySchema.safeParse({
      name: cells.name ?? '',
      tax_class_code: cells.tax_class_code ?? '',
      spec: cells.spec ?? '',
      unit: cells.unit ?? '',
      price: cells.price ?? '',
      price_includes_tax: includesTax ?? true,
      tax_rate: rate.rate,
      preferential_code: rate.policy ?? policy ?? '',
      is_default: isDefault ?? false,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) err(columnName(String(issue.path[0] ?? '')), issue.message);
      continue;
    }
    const body = parsed.data;
    const key = `${body.name}\u0000${body.spec}`;
    const first = seen.get(key);
    if (first !== undefined) {
      err(columnName('name'), `与第${first}行的${TERMS.itemName}和${TERMS.spec}重复`);
      continue;
    }
    seen.set(key, row);
    const checked = goodsValues(clientId, taxpayerType, body, byCode.get(body.tax_class_code));
    for (const e of checked.errors) err(columnName(e.field), e.message);
    if (!checked.values) continue;
    if (checked.values.isDefault && ++defaults > 1) {
      err(columnName('is_default'), '整个文件最多一行为默认商品');
      continue;
    }
    values.push(checked.values);
  }

  if (problems.length) {
    const order = new Map(GOODS_COLUMNS.map((c, i) => [c.header, i]));
    problems.sort((a, b) => a.row - b.row || (order.get(a.column) ?? 99) - (order.get(b.column) ?? 99));
    throw new AppError(
      CATALOG_CODE.IMPORT_ROWS_INVALID,
      `导入数据有${problems.length}处错误，未导入任何数据，请修改后重新导入`,
      { errors: problems.slice(0, 1000), total_rows: rows.length },
    );
  }
  const counts = await db.transaction(async (tx) => {
    if (defaults > 0) await repo.clearDefault(tx, clientId);
    return repo.upsertGoods(tx, values);
  });
  return { total: values.length, ...counts };
}
