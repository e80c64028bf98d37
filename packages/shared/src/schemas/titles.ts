import { z } from 'zod';
import { BUYER_TYPE_LABELS, TERMS } from '../glossary/terms.ts';
import { isValidTaxCode } from '../money/ids.ts';
import { PATTERNS } from '../validation/patterns.ts';
import { text } from '../validation/text.ts';
import { PG_INT_MAX } from './common.ts';
import { pageQuerySchema } from './goods.ts';

/**
 * Buyer titles (购方抬头, spec §2 /device-project/title): saved buyers a clerk picks on the invoice
 * form. title_type (TERMS.buyerType) 1 = 个人/非企业单位, 2 = 企业 (tax code required) (domain.md §1.5).
 */

export const TITLE_TYPES = { 1: BUYER_TYPE_LABELS[1], 2: BUYER_TYPE_LABELS[2] } as const;

export const TITLE_MSG = {
  TYPE_REQUIRED: `请选择${TERMS.buyerType}`,
  NAME_REQUIRED: '请输入抬头名称',
  NAME_MAX: '抬头名称最多100个字符',
  NAME_PERSONAL_MIN: '个人抬头名称至少2个字',
  TAX_CODE_REQUIRED: `企业抬头请填写${TERMS.taxCode}`,
  TAX_CODE_FORMAT: `${TERMS.taxCode}须为15、18或20位数字或大写字母`,
  TAX_CODE_CHECKSUM: '统一社会信用代码校验位不正确，请核对',
  ADDRESS_MAX: '地址最多100个字符',
  PHONE_FORMAT: '请输入正确的电话号码（7-20位数字或“-”）',
  BANK_NAME_MAX: '开户银行最多60个字符',
  BANK_ACCOUNT_FORMAT: '银行账号须为1-30位数字',
  EMAIL_FORMAT: '请输入正确的邮箱地址',
  MOBILE_FORMAT: '请输入正确的手机号',
} as const;

/** Tax-code problem message, or null when fine (spec §5 pattern + USCC checksum for 18 chars). */
export function taxCodeProblem(code: string): string | null {
  if (!PATTERNS.taxCode.test(code)) return TITLE_MSG.TAX_CODE_FORMAT;
  if (!isValidTaxCode(code)) return TITLE_MSG.TAX_CODE_CHECKSUM;
  return null;
}

/**
 * The rules of a buyer title wherever one is entered: the title form, the scan-to-invoice page and
 * the invoice's buyer (invoice/buyer-rules.ts adds the invoice's own). An enterprise (2) names its
 * tax code; a tax code has the spec's shape and, in USCC shape, a valid check character; a natural
 * person's (1) name is longer than one character (domain.md §1.5, §5.1). Values are trimmed here.
 */
export function titleIssues(t: {
  title_type: number;
  name: string;
  tax_code: string;
}): { field: 'tax_code' | 'name'; message: string }[] {
  const issues: { field: 'tax_code' | 'name'; message: string }[] = [];
  const taxCode = t.tax_code.trim();
  if (t.title_type === 2 && !taxCode)
    issues.push({ field: 'tax_code', message: TITLE_MSG.TAX_CODE_REQUIRED });
  else if (taxCode) {
    const problem = taxCodeProblem(taxCode);
    if (problem) issues.push({ field: 'tax_code', message: problem });
  }
  if (t.title_type === 1 && t.name.trim().length === 1)
    issues.push({ field: 'name', message: TITLE_MSG.NAME_PERSONAL_MIN });
  return issues;
}

const optional = (max: number, message: string) => text().trim().max(max, message).default('');
const matching = (pattern: RegExp, message: string) =>
  text()
    .trim()
    .default('')
    .refine((v) => v === '' || pattern.test(v), message);

export const titleBodySchema = z
  .object({
    title_type: z.union([z.literal(1), z.literal(2)], { error: TITLE_MSG.TYPE_REQUIRED }),
    name: text({ label: '抬头名称', error: TITLE_MSG.NAME_REQUIRED })
      .trim()
      .min(1, TITLE_MSG.NAME_REQUIRED)
      .max(100, TITLE_MSG.NAME_MAX),
    tax_code: text()
      .trim()
      .default('')
      .transform((v) => v.toUpperCase()),
    address: optional(100, TITLE_MSG.ADDRESS_MAX),
    phone: matching(PATTERNS.enterprisePhone, TITLE_MSG.PHONE_FORMAT),
    bank_name: optional(60, TITLE_MSG.BANK_NAME_MAX),
    bank_account: matching(PATTERNS.bankAccount, TITLE_MSG.BANK_ACCOUNT_FORMAT),
    email: matching(PATTERNS.email, TITLE_MSG.EMAIL_FORMAT),
    mobile: matching(PATTERNS.mobile, TITLE_MSG.MOBILE_FORMAT),
  })
  .superRefine((v, ctx) => {
    for (const issue of titleIssues(v))
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  });
export type TitleBody = z.input<typeof titleBodySchema>;

export const updateTitleBodySchema = z.intersection(
  titleBodySchema,
  z.object({ id: z.number().int().positive().max(PG_INT_MAX) }),
);

export const listTitlesQuerySchema = pageQuerySchema.extend({
  keyword: text().trim().max(100).default(''),
  title_type: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2)]))
    .optional(),
});

export const searchTitlesQuerySchema = z.object({
  keyword: text().trim().max(100).default(''),
});

export const titleItemSchema = z.object({
  id: z.number(),
  title_type: z.number(),
  name: z.string(),
  tax_code: z.string(),
  address: z.string(),
  phone: z.string(),
  bank_name: z.string(),
  bank_account: z.string(),
  email: z.string(),
  mobile: z.string(),
  use_count: z.number(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TitleItem = z.infer<typeof titleItemSchema>;

export const infoByTaxCodeQuerySchema = z.object({
  tax_code: text()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => PATTERNS.taxCode.test(v), TITLE_MSG.TAX_CODE_FORMAT),
});

/**
 * GET /v3/client/get-info-by-tax-code: the business registered with that tax code (spec §7: id,
 * name, industry — null fields when none is), and this business's saved title for it.
 */
export const infoByTaxCodeSchema = z
  .object({
    id: z.number().nullable(),
    name: z.string(),
    industry: z.string().nullable(),
    tax_code: z.string(),
    title: titleItemSchema.nullable(),
  })
  .nullable();
export type InfoByTaxCode = z.infer<typeof infoByTaxCodeSchema>;
