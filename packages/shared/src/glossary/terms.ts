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

/**
 * The spec's terms (written in English there) and the one wording the product uses for each. Short
 * forms that a narrow column or a filter label needs (购方, 销方, 购方税号) abbreviate these and are not
 * separate wordings.
 */
export const TERMS = {
  buyer: '购买方',
  seller: '销售方',
  taxCode: '纳税人识别号',
  invoiceNo: '发票号码',
  device: '开票设备',
  digitalAccount: '数电账户',
  redLetter: '红冲',
  redConfirmForm: '红字确认单',
  redInfoSheet: '红字信息表',
  totalWithTax: '价税合计',
  itemName: '项目名称',
  taxClassCode: '税收分类编码',
  goodsCode: '商品编码',
  store: '门店',
  drawer: '开票人',
  payee: '收款人',
  reviewer: '复核人',
  buyerTitle: '购方抬头',
  void: '作废',
} as const;

/** Wordings the glossary replaced, with the one to use. */
export const RETIRED_WORDINGS: readonly { pattern: RegExp; use: string }[] = [
  { pattern: /个人\/政府事业单位|个人\/事业单位/, use: BUYER_TYPE_LABELS[1] },
  { pattern: /(?<!非)企业单位/, use: BUYER_TYPE_LABELS[2] },
  { pattern: / s后重试|秒后重试/, use: 'retryIn(seconds): “Ns后重试”' },
  {
    pattern: /数电普票|数电专票|电子普票|电子专票|纸质普票|纸质专票|卷式普票/,
    use: 'the kind’s name in INVOICE_TYPES (e.g. 电子发票（普通发票）)',
  },
  { pattern: /数电账号/, use: TERMS.digitalAccount },
  { pattern: /冲红/, use: TERMS.redLetter },
  { pattern: /红字信息确认单|红字发票确认单/, use: TERMS.redConfirmForm },
  { pattern: /红字发票信息表/, use: TERMS.redInfoSheet },
  { pattern: /发票号(?!码)/, use: TERMS.invoiceNo },
  { pattern: /税收编码|税务编码/, use: TERMS.taxClassCode },
  { pattern: /商品名称|(?<!运输)货物名称/, use: TERMS.itemName },
  { pattern: /店铺/, use: TERMS.store },
  { pattern: /审核人/, use: TERMS.reviewer },
  { pattern: /开票终端|税控终端/, use: TERMS.device },
];
