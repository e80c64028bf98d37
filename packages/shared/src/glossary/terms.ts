/**
 * One wording per term (issue 24 item 4). The console, the buyer's H5 pages, the Excel templates, the
 * PDFs and the messages take these; what they replaced is listed in RETIRED_WORDINGS, and
 * terms.test.ts fails when a retired wording reappears in the product's text. Parsers of what people
 * type or upload still accept the old words (marked `glossary-allow` where they list them).
 */

/** 购买方类型 (buyer_title_type): 2 企业, 1 everyone else — people, government bodies, institutions. */
export const BUYER_TYPE_LABELS = { 2: '企业', 1: '个人/非企业单位' } as const;
export type BuyerType = keyof typeof BUYER_TYPE_LABELS;

/** The buyer-type choice as forms offer it, 企业 first. */
export const BUYER_TYPE_OPTIONS = [
  { value: 2, label: BUYER_TYPE_LABELS[2] },
  { value: 1, label: BUYER_TYPE_LABELS[1] },
] as const;

/**
 * The countdown of every code button (SMS login, two-factor, real-name, password change): the spec's
 * "Ns retry" (§4), with no space before the s.
 */
export const retryIn = (seconds: number) => `${seconds}s后重试`;

/** Wordings the glossary replaced, with the one to use. */
export const RETIRED_WORDINGS: readonly { pattern: RegExp; use: string }[] = [
  { pattern: /个人\/政府事业单位|个人\/事业单位/, use: BUYER_TYPE_LABELS[1] },
  { pattern: /(?<!非)企业单位/, use: BUYER_TYPE_LABELS[2] },
  { pattern: / s后重试|秒后重试/, use: 'retryIn(seconds): “Ns后重试”' },
  {
    pattern: /数电普票|数电专票|电子普票|电子专票|纸质普票|纸质专票|卷式普票/,
    use: 'the kind’s name in INVOICE_TYPES (e.g. 电子发票（普通发票）)',
  },
];
