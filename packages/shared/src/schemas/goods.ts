import { z } from 'zod';
import { PAGE_SIZES } from '../constants/menu.ts';
import { TERMS } from '../glossary/terms.ts';
import { PREFERENTIAL_POLICIES, PREFERENTIAL_RATES, type RateOption, ratesFor } from '../money/rates.ts';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';

/**
 * Goods codes (商品编码, spec §2 /device-project/project, §7 client-project calls) and the
 * classification-code table (税收分类编码, domain.md §6). Wire names are snake_case.
 */

export const GOODS_MSG = {
  NAME_REQUIRED: `请输入${TERMS.itemName}`,
  NAME_MAX: `${TERMS.itemName}最多300个字符`,
  TAX_CLASS_REQUIRED: `请选择${TERMS.taxClassCode}`,
  TAX_CLASS_FORMAT: `${TERMS.taxClassCode}须为19位数字`,
  SPEC_MAX: `${TERMS.spec}最多150个字符`,
  UNIT_MAX: '单位最多20个字符',
  PRICE_FORMAT: `${TERMS.unitPrice}须为大于0的数字，最多8位小数`,
  RATE_REQUIRED: `请选择${TERMS.taxRate}`,
  RATE_FORMAT: `${TERMS.taxRate}格式不正确`,
  RATE_NOT_ALLOWED: `该${TERMS.taxClassCode}不支持所选${TERMS.taxRate}`,
  PREFERENTIAL_NOT_ALLOWED: `该${TERMS.taxClassCode}不支持所选优惠政策`,
  PREFERENTIAL_RATE: `所选优惠政策与${TERMS.taxRate}不匹配`,
  ZERO_RATE_NEEDS_POLICY: `0${TERMS.taxRate}请选择免税、不征税或普通零${TERMS.taxRate}`,
  TAX_CLASS_NOT_FOUND: `${TERMS.taxClassCode}不存在，请从列表中选择`,
  TAX_CLASS_SUMMARY: '汇总项编码不能用于开票，请选择其下级编码',
} as const;

/** spec §9: page sizes 10 / 20 / 30, default 10. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是10、20或30')
    .default(10),
});

/** A paged answer: `{ list, total }`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number() });

// ---------------------------------------------------------------- classification codes

export const SPECIFIC_BUSINESS_TAGS = ['03', '04', '06', '09'] as const;

export const taxClassCodeSchema = z.object({
  code: z.string(),
  name: z.string(),
  short_name: z.string(),
  /** 税率 under the general method, e.g. ["0.06"] */
  rates: z.array(z.string()),
  /** 征收率 for the simplified method / small-scale taxpayers, e.g. ["0.03"] */
  levy_rates: z.array(z.string()),
  /** 数电 优惠政策标识 the code admits, e.g. ["03"] */
  preferential_options: z.array(z.string()),
  is_summary: z.boolean(),
  /** 特定业务 tag: '03' 建筑服务, '04' 货物运输, '06' 不动产经营租赁, '09' 旅客运输, or null */
  special_business: z.string().nullable(),
  keywords: z.string(),
});
export type TaxClassCode = z.infer<typeof taxClassCodeSchema>;

export const searchTaxClassQuerySchema = z.object({
  keyword: text().trim().max(50).default(''),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

// ---------------------------------------------------------------- rates

export const rateOptionSchema = z.object({
  value: z.string(),
  label: z.string(),
  zero_rate_flag: z.string(),
  preferential_code: z.string(),
  /** small-scale 3% while the 1% reduction runs: the form must ask why (domain.md §2.6) */
  needs_reason: z.boolean(),
});
export type RateOptionItem = z.infer<typeof rateOptionSchema>;

export const taxRateBodySchema = z.object({
  tax_class_code: text()
    .trim()
    .regex(/^(\d{19})?$/, GOODS_MSG.TAX_CLASS_FORMAT)
    .optional(),
});

export const taxRateResultSchema = z.object({
  taxpayer_type: z.enum(['general', 'small']),
  /** last day of the small-scale 1% rate */
  reduced_rate_end: z.string(),
  /** what the form preselects: the code's normal rate, 1% for small-scale while it runs */
  default_rate: z.string().nullable(),
  rates: z.array(rateOptionSchema),
  preferential_options: z.array(z.object({ code: z.string(), label: z.string() })),
});
export type TaxRateResult = z.infer<typeof taxRateResultSchema>;

type RateClass = Pick<TaxClassCode, 'code' | 'rates' | 'levy_rates' | 'preferential_options'>;

/**
 * The rates a business may use for a classification code (domain.md §2.5, §2.6): the taxpayer's
 * rates (`ratesFor`), narrowed by the code. General taxpayers get the code's 税率 plus its 征收率
 * when it admits 01 简易征收; small-scale taxpayers get its 征收率, 3% also as 1% while the
 * reduction runs. 免税 / 不征税 need the code's 03 / 04; plain 0% needs 0 among its 税率. Codes of
 * 篇 6 (未发生销售行为) only ever take 不征税.
 */
export function allowedRates(opts: {
  taxpayerType: 'general' | 'small';
  taxClass?: RateClass | null;
  date?: string | Date;
}): RateOption[] {
  const base = ratesFor({ taxpayerType: opts.taxpayerType, date: opts.date });
  const tc = opts.taxClass;
  if (!tc) return base;
  if (tc.code.startsWith('6')) return base.filter((o) => o.preferentialCode === '04');
  const positive = new Set(
    opts.taxpayerType === 'general'
      ? // Stryker disable next-line ArrayDeclaration: a stand-in string in the set of allowed rates matches no option of ratesFor()
        [...tc.rates, ...(tc.preferential_options.includes('01') ? tc.levy_rates : [])]
      : tc.levy_rates,
  );
  // Stryker disable next-line ConditionalExpression: ratesFor() never offers 0.01 to a general taxpayer, so adding it for one changes nothing
  if (opts.taxpayerType === 'small' && positive.has('0.03')) positive.add('0.01');
  return base.filter((o) => {
    if (o.value !== '0') return positive.has(o.value);
    if (o.preferentialCode) return tc.preferential_options.includes(o.preferentialCode);
    return tc.rates.includes('0');
  });
}

/** The rate the form preselects: 1% for small-scale while it runs, else the first non-zero one. */
export function defaultRate(options: readonly RateOption[]): string | null {
  return (
    options.find((o) => o.value === '0.01')?.value ??
    options.find((o) => o.value !== '0')?.value ??
    options[0]?.value ??
    null
  );
}

export function toRateOptionItem(o: RateOption): RateOptionItem {
  return {
    value: o.value,
    label: o.label,
    zero_rate_flag: o.zeroRateFlag,
    preferential_code: o.preferentialCode,
    needs_reason: Boolean(o.needsReason),
  };
}

export function preferentialLabel(code: string): string {
  return PREFERENTIAL_POLICIES[code as keyof typeof PREFERENTIAL_POLICIES] ?? code;
}

/**
 * Checks rate + policy of a goods item against what the business may use for its code. Returns
 * `{ field, message }` problems (empty = fine) and the zero-rate flag the rate implies.
 */
export function checkGoodsRate(input: {
  options: readonly RateOption[];
  taxClass: RateClass;
  taxRate: string;
  preferentialCode: string;
  zeroRateFlag?: string;
}): { problems: { field: string; message: string }[]; zeroRateFlag: string } {
  const rate = normalizeRateText(input.taxRate);
  const pref = input.preferentialCode;
  if (rate === '0') {
    // Stryker disable next-line StringLiteral: a flag other than '' that no option carries matches no option, as '' does not
    const flag = input.zeroRateFlag || (pref === '03' ? '1' : pref === '04' ? '2' : pref === '' ? '3' : '');
    const match = input.options.find((o) => o.value === '0' && o.zeroRateFlag === flag);
    if (!match)
      return { problems: [{ field: 'tax_rate', message: GOODS_MSG.RATE_NOT_ALLOWED }], zeroRateFlag: '' };
    if (match.preferentialCode !== pref) {
      return {
        problems: [{ field: 'preferential_code', message: GOODS_MSG.PREFERENTIAL_RATE }],
        zeroRateFlag: '',
      };
    }
    return { problems: [], zeroRateFlag: flag };
  }
  if (!input.options.some((o) => o.value === rate)) {
    return { problems: [{ field: 'tax_rate', message: GOODS_MSG.RATE_NOT_ALLOWED }], zeroRateFlag: '' };
  }
  if (pref) {
    if (!input.taxClass.preferential_options.includes(pref)) {
      return {
        problems: [{ field: 'preferential_code', message: GOODS_MSG.PREFERENTIAL_NOT_ALLOWED }],
        zeroRateFlag: '',
      };
    }
    const admits = PREFERENTIAL_RATES[pref as keyof typeof PREFERENTIAL_RATES];
    if (admits && !admits.includes(rate)) {
      return {
        problems: [{ field: 'preferential_code', message: GOODS_MSG.PREFERENTIAL_RATE }],
        zeroRateFlag: '',
      };
    }
  }
  return { problems: [], zeroRateFlag: '' };
}

/** "0.0600" → "0.06", "6%" → "0.06", "0.06" stays; anything else comes back unchanged. */
export function normalizeRateText(value: string): string {
  const v = value.trim();
  const pct = /^(\d{1,2}(\.\d{1,3})?)%$/.exec(v);
  if (pct) return stripZeros(shiftLeft2(pct[1]!));
  if (/^\d+(\.\d+)?$/.test(v)) return stripZeros(v);
  return v;
}

function shiftLeft2(digits: string): string {
  // Stryker disable next-line StringLiteral: split() always yields a first element, so the default of int is never used
  const [int = '0', frac = ''] = digits.split('.');
  const padded = int.padStart(3, '0');
  // Stryker disable next-line Regex,StringLiteral: the part before the shifted point is always the one character '0' (≤ 2 digits padded to 3): nothing to strip
  return `${padded.slice(0, -2).replace(/^0+(?=\d)/, '')}.${padded.slice(-2)}${frac}`;
}

function stripZeros(v: string): string {
  if (!v.includes('.')) return v.replace(/^0+(?=\d)/, '');
  const out = v
    .replace(/0+$/, '')
    .replace(/\.$/, '')
    .replace(/^0+(?=\d)/, '');
  // Stryker disable next-line ConditionalExpression,StringLiteral: a value that passed /^\d+(\.\d+)?$/ keeps a digit after stripping, so out is never ''
  return out === '' ? '0' : out;
}

// ---------------------------------------------------------------- goods

const PRICE = /^\d{1,16}(\.\d{1,8})?$/;

export const goodsBodySchema = z.object({
  name: text(TERMS.itemName).trim().min(1, GOODS_MSG.NAME_REQUIRED).max(300, GOODS_MSG.NAME_MAX),
  tax_class_code: text({ error: GOODS_MSG.TAX_CLASS_REQUIRED })
    .trim()
    .min(1, GOODS_MSG.TAX_CLASS_REQUIRED)
    .regex(/^\d{19}$/, GOODS_MSG.TAX_CLASS_FORMAT),
  spec: text().trim().max(150, GOODS_MSG.SPEC_MAX).default(''),
  unit: text().trim().max(20, GOODS_MSG.UNIT_MAX).default(''),
  /** unit price as entered (incl. tax when price_includes_tax); null = priced on the invoice */
  price: text()
    .trim()
    .nullable()
    .default(null)
    .transform((v) => (v === '' ? null : v))
    .refine((v) => v === null || (PRICE.test(v) && /[1-9]/.test(v)), GOODS_MSG.PRICE_FORMAT),
  price_includes_tax: z.boolean().default(true),
  tax_rate: text({ error: GOODS_MSG.RATE_REQUIRED })
    .trim()
    .min(1, GOODS_MSG.RATE_REQUIRED)
    .transform(normalizeRateText)
    .refine((v) => /^0(\.\d{1,4})?$/.test(v), GOODS_MSG.RATE_FORMAT),
  /** 数电 优惠政策标识 '01'…'18' or '' */
  preferential_code: text()
    .regex(/^(|0[1-9]|1[0-8])$/, GOODS_MSG.PREFERENTIAL_NOT_ALLOWED)
    .default(''),
  /** 零税率标识; derived from rate and policy when omitted ('' for non-zero rates) */
  zero_rate_flag: z.enum(['', '1', '2', '3']).optional(),
  is_default: z.boolean().default(false),
});
export type GoodsBody = z.input<typeof goodsBodySchema>;

export const updateGoodsBodySchema = goodsBodySchema.extend({
  id: z.number().int().positive().max(PG_INT_MAX),
});
export const idsBodySchema = z.object({
  ids: z.array(z.number().int().positive()).min(1, '请选择要删除的数据').max(500),
});
export const idBodySchema = z.object({ id: z.number().int().positive().max(PG_INT_MAX) });

export const listGoodsQuerySchema = pageQuerySchema.extend({
  /** matches name or 简称 (contains) and classification code (prefix) */
  keyword: text().trim().max(100).default(''),
});

export const goodsItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  tax_class_code: z.string(),
  tax_class_name: z.string(),
  short_name: z.string(),
  /** what prints on the invoice: `*简称*名称` */
  full_name: z.string(),
  spec: z.string(),
  unit: z.string(),
  price: z.string().nullable(),
  price_includes_tax: z.boolean(),
  tax_rate: z.string(),
  /** '6%' | '免税' | '不征税' | '0%' */
  tax_rate_label: z.string(),
  preferential_code: z.string(),
  zero_rate_flag: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GoodsItem = z.infer<typeof goodsItemSchema>;

export const fullGoodsName = (shortName: string, name: string) => `*${shortName}*${name}`;

/**
 * Excel imports of goods codes and buyer titles: at most `rows` data rows in a file of at most
 * `fileMb` MB. The server's reader (lib/xlsx-reader.ts) enforces them, the import dialog checks the
 * size before uploading and says both.
 */
export const IMPORT_LIMITS = { rows: 5000, fileMb: 5 } as const;

/** Import result (all rows valid → written). */
export const importResultSchema = z.object({
  total: z.number(),
  created: z.number(),
  updated: z.number(),
});
export type ImportResult = z.infer<typeof importResultSchema>;
/** One problem of one row of an import file (row numbers as Excel shows them). */
export type ImportRowError = { row: number; column: string; message: string };
