import {
  allowedRates,
  CATALOG_CODE,
  CODE,
  checkGoodsRate,
  defaultRate,
  fullGoodsName,
  GOODS_MSG,
  type GoodsItem,
  type goodsBodySchema,
  preferentialLabel,
  rateLabel,
  SMALL_SCALE_REDUCED_RATE_END,
  type TaxClassCode,
  type TaxRateResult,
  TERMS,
  toRateOptionItem,
} from '@kaipiao/shared';

import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './repo.ts';

type GoodsInput = z.output<typeof goodsBodySchema>;

export type FieldError = { field: string; message: string };

export const validationError = (errors: FieldError[]) =>
  new AppError(CODE.VALIDATION, errors[0]?.message, { errors });

/** numeric → its shortest text: "100.00000000" → "100", "0.0600" → "0.06". */
export function trimNumeric(v: string): string;
export function trimNumeric(v: string | null): string | null;
export function trimNumeric(v: string | null): string | null {
  if (v === null || !v.includes('.')) return v;
  return v.replace(/0+$/, '').replace(/\.$/, '');
}

export function toTaxClassItem(row: repo.TaxClassRow): TaxClassCode {
  return {
    code: row.code,
    name: row.name,
    short_name: row.shortName,
    rates: row.rates,
    levy_rates: row.levyRates,
    preferential_options: row.preferentialOptions,
    is_summary: row.isSummary,
    special_business: row.specialBusiness,
    keywords: row.keywords,
  };
}

export function toGoodsItem({ goods: g, taxClassName }: repo.GoodsWithClass): GoodsItem {
  const taxRate = trimNumeric(g.taxRate);
  return {
    id: g.id,
    name: g.name,
    tax_class_code: g.taxClassCode,
    tax_class_name: taxClassName ?? '',
    short_name: g.shortName,
    full_name: fullGoodsName(g.shortName, g.name),
    spec: g.spec,
    unit: g.unit,
    price: trimNumeric(g.price),
    price_includes_tax: g.priceIncludesTax,
    tax_rate: taxRate,
    tax_rate_label: rateLabel(taxRate, g.zeroRateFlag, g.preferentialCode),
    preferential_code: g.preferentialCode,
    zero_rate_flag: g.zeroRateFlag,
    is_default: g.isDefault,
    created_at: g.createdAt.toISOString(),
    updated_at: g.updatedAt.toISOString(),
  };
}

/** The rate picker for a business and (optionally) a code: POST /v3/client-project/tax-rate. */
export async function taxRates(db: Db, clientId: number, code: string | undefined): Promise<TaxRateResult> {
  const taxpayerType = await repo.taxpayerTypeOf(db, clientId);
  let taxClass: TaxClassCode | null = null;
  if (code) {
    const row = await repo.findTaxClass(db, code);
    if (!row) throw new AppError(CATALOG_CODE.TAX_CLASS_NOT_FOUND);
    taxClass = toTaxClassItem(row);
  }
  const options = allowedRates({ taxpayerType, taxClass });
  return {
    taxpayer_type: taxpayerType,
    reduced_rate_end: SMALL_SCALE_REDUCED_RATE_END,
    default_rate: defaultRate(options),
    rates: options.map(toRateOptionItem),
    preferential_options: (taxClass?.preferential_options ?? []).map((c) => ({
      code: c,
      label: preferentialLabel(c),
    })),
  };
}

/**
 * A goods body checked against the classification table and the business's rates. `classes`
 * (code → row) lets an import check thousands of rows without a query each.
 */
export function goodsValues(
  clientId: number,
  taxpayerType: 'general' | 'small',
  body: GoodsInput,
  taxClass: repo.TaxClassRow | undefined,
): { values?: repo.GoodsValues; errors: FieldError[] } {
  if (!taxClass) return { errors: [{ field: 'tax_class_code', message: GOODS_MSG.TAX_CLASS_NOT_FOUND }] };
  if (taxClass.isSummary)
    return { errors: [{ field: 'tax_class_code', message: GOODS_MSG.TAX_CLASS_SUMMARY }] };
  const tc = toTaxClassItem(taxClass);
  const check = checkGoodsRate({
    options: allowedRates({ taxpayerType, taxClass: tc }),
    taxClass: tc,
    taxRate: body.tax_rate,
    preferentialCode: body.preferential_code,
    zeroRateFlag: body.zero_rate_flag,
  });
  if (check.problems.length) return { errors: check.problems };
  return {
    errors: [],
    values: {
      clientId,
      name: body.name,
      taxClassCode: taxClass.code,
      shortName: taxClass.shortName,
      spec: body.spec,
      unit: body.unit,
      price: body.price,
      priceIncludesTax: body.price_includes_tax,
      taxRate: body.tax_rate,
      preferentialCode: body.preferential_code,
      zeroRateFlag: check.zeroRateFlag,
      isDefault: body.is_default,
    },
  };
}

function isUniqueViolation(e: unknown, constraint: string): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const c = err.cause ?? err;
  return c.code === '23505' && c.constraint === constraint;
}

const duplicateError = () =>
  new AppError(CATALOG_CODE.GOODS_DUPLICATE, undefined, {
    errors: [{ field: 'name', message: `已存在相同名称和${TERMS.spec}的商品` }],
  });

async function prepare(db: Db, clientId: number, body: GoodsInput) {
  const [taxpayerType, taxClass] = await Promise.all([
    repo.taxpayerTypeOf(db, clientId),
    repo.findTaxClass(db, body.tax_class_code),
  ]);
  const { values, errors } = goodsValues(clientId, taxpayerType, body, taxClass);
  if (!values) throw validationError(errors);
  return values;
}

export async function createGoods(db: Db, clientId: number, body: GoodsInput): Promise<GoodsItem> {
  const values = await prepare(db, clientId, body);
  try {
    const id = await db.transaction(async (tx) => {
      if (values.isDefault) await repo.clearDefault(tx, clientId);
      return (await repo.insertGoods(tx, values)).id;
    });
    return toGoodsItem((await repo.findGoods(db, clientId, id))!);
  } catch (e) {
    if (isUniqueViolation(e, 'goods_name_spec_uq')) throw duplicateError();
    throw e;
  }
}

export async function updateGoods(
  db: Db,
  clientId: number,
  id: number,
  body: GoodsInput,
): Promise<GoodsItem> {
  if (!(await repo.findGoods(db, clientId, id))) throw new AppError(CATALOG_CODE.GOODS_NOT_FOUND);
  const values = await prepare(db, clientId, body);
  try {
    await db.transaction(async (tx) => {
      if (values.isDefault) await repo.clearDefault(tx, clientId, id);
      const row = await repo.updateGoods(tx, clientId, id, values);
      if (!row) throw new AppError(CATALOG_CODE.GOODS_NOT_FOUND);
    });
  } catch (e) {
    if (isUniqueViolation(e, 'goods_name_spec_uq')) throw duplicateError();
    throw e;
  }
  return toGoodsItem((await repo.findGoods(db, clientId, id))!);
}

export async function deleteGoods(db: Db, clientId: number, ids: number[]): Promise<number> {
  const n = await repo.deleteGoods(db, clientId, [...new Set(ids)]);
  if (n === 0) throw new AppError(CATALOG_CODE.GOODS_NOT_FOUND);
  return n;
}

/** Makes one item the default (the invoice form's first line), or clears the default. */
export async function setDefaultGoods(db: Db, clientId: number, id: number, isDefault: boolean) {
  const found = await repo.findGoods(db, clientId, id);
  if (!found) throw new AppError(CATALOG_CODE.GOODS_NOT_FOUND);
  await db.transaction(async (tx) => {
    if (isDefault) await repo.clearDefault(tx, clientId, id);
    await repo.setDefault(tx, clientId, id, isDefault);
  });
}
