import { TERMS } from '../glossary/terms.ts';
import { SPECIAL_INVOICE_TYPES } from '../schemas/invoice.ts';
import { TITLE_MSG, titleIssues } from '../schemas/titles.ts';
import { PATTERNS } from '../validation/patterns.ts';

/**
 * The buyer (购买方) of an invoice, checked the same way by the issue form (validateDraft) and the
 * server (validateBlue, which batch rows go through too), with the same words. The title rules are
 * the buyer-title ones (`titleIssues`, TITLE_MSG: the title form and the scan page say the same);
 * an invoice adds its kind (专票 need the tax code), the seller (never the buyer) and the formats of
 * the contact fields its zod schema only bounds in length (domain.md §1.5, spec §5 patterns).
 */

/** The invoice's own buyer messages; the others are TITLE_MSG's. */
export const BUYER_MSG = {
  SPECIAL_TAX_CODE_REQUIRED: `开具专用发票须填写${TERMS.buyer}${TERMS.taxCode}`,
  SAME_AS_SELLER: `${TERMS.buyer}与${TERMS.seller}不能为同一纳税人`,
  /** warning only: the bureau asks the same and lets the clerk go on (domain.md §1.5) */
  NAME_SHORT: '名称较短，是否开票给自然人？',
  TAX_CODE_REQUIRED: TITLE_MSG.TAX_CODE_REQUIRED,
  TAX_CODE_FORMAT: TITLE_MSG.TAX_CODE_FORMAT,
  TAX_CODE_CHECKSUM: TITLE_MSG.TAX_CODE_CHECKSUM,
  NAME_PERSONAL_MIN: TITLE_MSG.NAME_PERSONAL_MIN,
  EMAIL_FORMAT: TITLE_MSG.EMAIL_FORMAT,
  MOBILE_FORMAT: TITLE_MSG.MOBILE_FORMAT,
  PHONE_FORMAT: TITLE_MSG.PHONE_FORMAT,
  BANK_ACCOUNT_FORMAT: TITLE_MSG.BANK_ACCOUNT_FORMAT,
} as const;

/** The buyer fields the rules read (the request's `buyer`, or the form's as typed). */
export type BuyerFacts = {
  /** 1 个人/非企业单位, 2 企业 (glossary/terms.ts) */
  title_type: number;
  name: string;
  tax_code: string;
  email: string;
  mobile: string;
  phone: string;
  bank_account: string;
};

/** One buyer problem; `field` is the request path (`buyer.tax_code`), as 10001 answers carry it. */
export type BuyerIssue = { field: `buyer.${string}`; message: string };

/**
 * The buyer's errors (block issuing) and warnings (shown, do not block: the short company name).
 * One message per field, tax code first; values are trimmed here, so the form can pass them as typed.
 * `invoiceType` null = not chosen yet; `sellerTaxCode` empty or absent = not known (no clash checked).
 */
export function checkBuyer(
  buyer: BuyerFacts,
  ctx: { invoiceType?: string | null; sellerTaxCode?: string | null },
): { errors: BuyerIssue[]; warnings: BuyerIssue[] } {
  const errors: BuyerIssue[] = [];
  const warnings: BuyerIssue[] = [];
  const taxCode = buyer.tax_code.trim();
  const title = titleIssues(buyer);
  const special = !!ctx.invoiceType && (SPECIAL_INVOICE_TYPES as readonly string[]).includes(ctx.invoiceType);

  const taxCodeMessage =
    special && !taxCode
      ? BUYER_MSG.SPECIAL_TAX_CODE_REQUIRED
      : (title.find((i) => i.field === 'tax_code')?.message ??
        (taxCode && taxCode === ctx.sellerTaxCode?.trim() ? BUYER_MSG.SAME_AS_SELLER : null));
  if (taxCodeMessage) errors.push({ field: 'buyer.tax_code', message: taxCodeMessage });

  const formats: [keyof BuyerFacts, RegExp, string][] = [
    ['email', PATTERNS.email, BUYER_MSG.EMAIL_FORMAT],
    ['mobile', PATTERNS.mobile, BUYER_MSG.MOBILE_FORMAT],
    ['phone', PATTERNS.enterprisePhone, BUYER_MSG.PHONE_FORMAT],
    ['bank_account', PATTERNS.bankAccount, BUYER_MSG.BANK_ACCOUNT_FORMAT],
  ];
  for (const [field, pattern, message] of formats) {
    const value = String(buyer[field]).trim();
    if (value && !pattern.test(value)) errors.push({ field: `buyer.${field}`, message });
  }

  const nameIssue = title.find((i) => i.field === 'name');
  if (nameIssue) errors.push({ field: 'buyer.name', message: nameIssue.message });
  const name = buyer.name.trim();
  if (buyer.title_type === 2 && name && name.length <= 4) {
    warnings.push({ field: 'buyer.name', message: BUYER_MSG.NAME_SHORT });
  }
  return { errors, warnings };
}
