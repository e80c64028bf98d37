/**
 * One wording per term (issue 24 item 4). The console, the buyer's H5 pages, the Excel templates and
 * exports, the PDFs and the messages take their terms from here (TERMS, the kinds, the buyer types,
 * the statuses, the countdown); what they replaced is listed in RETIRED_WORDINGS, and
 * apps/server/test/glossary.test.ts fails when a retired wording reappears in the product's source or
 * in a generated template, export or PDF. Parsers of what people type or upload still accept the old
 * words (marked `glossary-allow` where they list them).
 *
 * The spec names these terms in English (spec §3 "Invoice types", "Blue-invoice payload", §4, §7);
 * the wording chosen for each is the one the bureau prints on its invoices where it prints one
 * (《数字化电子发票版式及XML规范》: 购买方, 价税合计, 项目名称…). A few bureau texts that the PDF and XML
 * must reproduce word for word differ from the console's (复核: on the legacy layout, 红字发票信息确认单
 * in a red invoice's 备注); they stay the bureau's and are no console wording.
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
 * The spec's terms (written in English there) and the one wording the product uses for each. The
 * short forms (购方, 销方, 税号, 票种, 专票, 普票) are the abbreviations a narrow column, a filter label
 * or a sentence uses; they abbreviate the full term and are not other wordings of it.
 */
export const TERMS = {
  // the parties
  buyer: '购买方',
  seller: '销售方',
  buyerShort: '购方',
  sellerShort: '销方',
  /** the field of buyer_title_type; its values are BUYER_TYPE_LABELS */
  buyerType: '购买方类型',
  buyerTitle: '购方抬头',
  taxCode: '纳税人识别号',
  taxCodeShort: '税号',
  // the invoice
  invoiceKind: '发票种类',
  invoiceKindShort: '票种',
  invoiceCode: '发票代码',
  invoiceNo: '发票号码',
  /** the day printed on the invoice */
  issueDate: '开票日期',
  /** the moment an invoice was issued, to the second */
  issueTime: '开票时间',
  /** 81/82 as a class */
  digitalInvoice: '数电发票',
  /** 专用发票 kinds (81, 004, 028) as a class */
  specialInvoice: '专票',
  /** 普通发票 kinds as a class */
  ordinaryInvoice: '普票',
  /** 004/007/025 as a class */
  paperInvoice: '纸质发票',
  blueInvoice: '蓝字发票',
  redInvoice: '红字发票',
  /** a tag or column that says which of the two an invoice is */
  blueShort: '蓝字',
  redShort: '红字',
  remark: '备注',
  // lines and amounts
  itemName: '项目名称',
  spec: '规格型号',
  unit: '单位',
  quantity: '数量',
  unitPrice: '单价',
  /** a line's amount without tax */
  amount: '金额',
  taxRate: '税率',
  taxAmount: '税额',
  /** an invoice's amounts: without tax, the tax, and with tax */
  totalAmount: '合计金额',
  totalTax: '合计税额',
  totalWithTax: '价税合计',
  /** 价税合计 in Chinese capital numerals */
  totalWithTaxCapital: '价税合计（大写）',
  taxClassCode: '税收分类编码',
  /** the classification's short name printed as *简称* before the item name */
  shortName: '商品简称',
  goodsCode: '商品编码',
  // red letter and void
  redLetter: '红冲',
  redConfirmForm: '红字确认单',
  redInfoSheet: '红字信息表',
  void: '作废',
  // devices, accounts and people
  /** any device that issues: a 数电账户 or a 税控设备 */
  device: '开票设备',
  /** the older kinds' hardware: 金税盘, 税控盘, 税务UKey */
  taxControlDevice: '税控设备',
  digitalAccount: '数电账户',
  /** the login of a person at the electronic tax bureau */
  taxBureauAccount: '税局账号',
  store: '门店',
  drawer: '开票人',
  payee: '收款人',
  reviewer: '复核人',
} as const;

/** The invoice kinds by their code (spec §3 "Invoice types", plus the 数电 kinds 81/82). */
export const INVOICE_TYPES = {
  '81': '电子发票（增值税专用发票）',
  '82': '电子发票（普通发票）',
  '004': '增值税专用发票',
  '007': '增值税普通发票',
  '025': '增值税普通发票（卷式）',
  '026': '增值税电子普通发票',
  '028': '增值税电子专用发票',
  '032': '区块链电子发票',
} as const;

/** Device kinds (domain.md §7.1 / §7.2). */
export const DEVICE_KINDS = {
  digital: TERMS.digitalAccount,
  ukey: '税务UKey',
  golden_disc: '金税盘',
  tax_disc: '税控盘',
  blockchain: '区块链',
} as const;

/** An invoice's status, wherever it is shown (the library's tags, exports, batch rows, red invoices). */
export const INVOICE_STATUS = {
  issuing: '开具中',
  issued: '已开具',
  failed: '开具失败',
  unknown: '结果待确认',
  voided: '已作废',
} as const;

/** How much of a blue invoice red invoices have reversed. */
export const RED_STATUS = { none: '', partial: '部分红冲', full: '全额红冲' } as const;

/** Wordings the glossary replaced, with the one to use. */
export const RETIRED_WORDINGS: readonly { pattern: RegExp; use: string }[] = [
  { pattern: /个人\/政府事业单位|个人\/事业单位/, use: BUYER_TYPE_LABELS[1] },
  { pattern: /(?<!非)企业单位/, use: BUYER_TYPE_LABELS[2] },
  // the pair offered as 企业 / 个人 (the batch template's list said "企业,个人")
  {
    pattern: /企业[,，、\s"“”或]+个人(?!\/非企业单位)/,
    use: `${BUYER_TYPE_LABELS[2]} / ${BUYER_TYPE_LABELS[1]}`,
  },
  { pattern: /抬头类型/, use: TERMS.buyerType },
  { pattern: / s后重试|秒后重试/, use: 'retryIn(seconds): “Ns后重试”' },
  {
    pattern: /数电普票|数电专票|电子普票|电子专票|纸质普票|纸质专票|卷式普票/,
    use: 'the kind’s name in INVOICE_TYPES (e.g. 电子发票（普通发票）)',
  },
  { pattern: /全电/, use: `${TERMS.digitalInvoice} / ${TERMS.digitalAccount}` },
  // the bureau's 数电纸票 (a 数电 invoice printed on paper) keeps its name
  { pattern: /(?<!数电)纸票/, use: TERMS.paperInvoice },
  { pattern: /蓝票/, use: TERMS.blueInvoice },
  { pattern: /红票/, use: TERMS.redInvoice },
  { pattern: /数电账号|数电设备/, use: TERMS.digitalAccount },
  { pattern: /税务局账号|税局帐号|税务局帐号/, use: TERMS.taxBureauAccount },
  { pattern: /冲红/, use: TERMS.redLetter },
  { pattern: /红字信息确认单|红字发票确认单/, use: TERMS.redConfirmForm },
  { pattern: /红字发票信息表/, use: TERMS.redInfoSheet },
  { pattern: /发票号(?!码)/, use: TERMS.invoiceNo },
  { pattern: /税收编码|税务编码/, use: TERMS.taxClassCode },
  { pattern: /分类简称/, use: TERMS.shortName },
  { pattern: /商品名称|(?<!运输)货物名称/, use: TERMS.itemName },
  { pattern: /不含税金额/, use: `${TERMS.totalAmount} (an invoice) or 金额（不含税） (a line)` },
  { pattern: /(?<!不)含税金额/, use: `金额（含税） (a line) or ${TERMS.totalWithTax} (an invoice)` },
  { pattern: /店铺/, use: TERMS.store },
  { pattern: /审核人/, use: TERMS.reviewer },
  { pattern: /开票终端|税控终端/, use: TERMS.device },
];
