import {
  BATCH_KIND_LABELS,
  BUYER_TYPE_LABELS,
  PREFERENTIAL_POLICIES,
  TAX_RATES,
  TERMS,
} from '@kaipiao/shared';

/**
 * The batch template's columns (domain.md §9 item 5): sheet 发票信息 one row per invoice keyed by
 * 流水号, sheet 商品明细 the item lines keyed by the same 流水号. The template writer and the upload
 * reader both use these, so the two cannot disagree.
 */
export type BatchColumn = {
  key: string;
  header: string;
  required?: boolean;
  width: number;
  /** formatted as text so long digit strings keep every digit */
  text?: boolean;
  /** data-validation list: inline `"a,b"` or a range on the options sheet */
  list?: string;
  /** shown as the header cell's note and on the help sheet */
  note: string;
  /** what earlier templates called the column: still read from uploaded files */
  aliases?: readonly string[];
};

export const OPTIONS_SHEET = '选项';

export const KIND_OPTIONS = Object.values(BATCH_KIND_LABELS);
export const RATE_OPTIONS = [...TAX_RATES.map((r) => r.label), '免税', '不征税'];
export const POLICY_OPTIONS = Object.entries(PREFERENTIAL_POLICIES).map(([code, name]) => `${code}-${name}`);

export const INVOICE_COLUMNS: readonly BatchColumn[] = [
  {
    key: 'serial',
    header: '流水号',
    required: true,
    width: 20,
    text: true,
    note: '每张发票一个流水号，文件内不能重复；商品明细按流水号对应到发票（1-40个字符）',
  },
  {
    key: 'kind',
    header: TERMS.invoiceKind,
    width: 14,
    list: `${OPTIONS_SHEET}!$A$2:$A$${KIND_OPTIONS.length + 1}`,
    note: `可选：${KIND_OPTIONS.join('、')}；不填则使用页面上选择的${TERMS.invoiceKind}`,
  },
  {
    key: 'buyer_type',
    header: TERMS.buyerType,
    required: true,
    width: 12,
    list: `"${BUYER_TYPE_LABELS[2]},${BUYER_TYPE_LABELS[1]}"`,
    note: `${BUYER_TYPE_LABELS[2]} 或 ${BUYER_TYPE_LABELS[1]}（个人、政府机关、事业单位等）`,
  },
  { key: 'buyer_name', header: `${TERMS.buyer}名称`, required: true, width: 32, note: '发票抬头' },
  {
    key: 'buyer_tax_code',
    header: `${TERMS.buyer}${TERMS.taxCode}`,
    width: 24,
    text: true,
    note: '企业必填，专用发票必填；15、18或20位',
  },
  { key: 'buyer_address', header: `${TERMS.buyer}地址`, width: 28, note: '选填' },
  { key: 'buyer_phone', header: `${TERMS.buyer}电话`, width: 16, text: true, note: '选填' },
  { key: 'buyer_bank_name', header: `${TERMS.buyer}开户银行`, width: 24, note: '选填' },
  {
    key: 'buyer_bank_account',
    header: `${TERMS.buyer}银行账号`,
    width: 24,
    text: true,
    note: '选填，1-30位数字',
  },
  {
    key: 'buyer_email',
    header: `${TERMS.buyer}邮箱`,
    width: 24,
    note: '选填；勾选“开具后发送邮件”时发票发送到该邮箱',
  },
  { key: 'buyer_mobile', header: `${TERMS.buyer}手机号`, width: 16, text: true, note: '选填' },
  {
    key: 'price_includes_tax',
    header: `${TERMS.unitPrice}${TERMS.amount}含税`,
    width: 14,
    list: '"是,否"',
    note: `是：商品明细的${TERMS.unitPrice}、${TERMS.amount}为含税价；否：为不含税价。不填为“是”`,
  },
  { key: 'remark', header: TERMS.remark, width: 30, note: '选填，最多450个字符' },
  { key: 'drawer', header: TERMS.drawer, width: 12, note: '选填' },
  { key: 'payee', header: TERMS.payee, width: 12, note: '选填' },
  { key: 'reviewer', header: TERMS.reviewer, width: 12, note: '选填' },
];

export const LINE_COLUMNS: readonly BatchColumn[] = [
  {
    key: 'serial',
    header: '流水号',
    required: true,
    width: 20,
    text: true,
    note: '该行所属发票的流水号（与“发票信息”表一致）',
  },
  { key: 'name', header: TERMS.itemName, required: true, width: 28, note: '商品或服务名称' },
  {
    key: 'tax_class_code',
    header: TERMS.taxClassCode,
    required: true,
    width: 24,
    text: true,
    note: '19位数字，请设为文本格式以免 Excel 丢失末尾数字',
  },
  {
    key: 'short_name',
    header: TERMS.shortName,
    aliases: ['分类简称'], // glossary-allow: the header of earlier templates
    width: 16,
    note: `选填；不填则按${TERMS.taxClassCode}自动带出（编码库中没有的编码必须填写）`,
  },
  { key: 'spec', header: TERMS.spec, width: 14, note: '选填' },
  { key: 'unit', header: TERMS.unit, width: 10, note: '选填' },
  { key: 'quantity', header: TERMS.quantity, width: 12, note: '选填，最多8位小数' },
  {
    key: 'price',
    header: TERMS.unitPrice,
    width: 14,
    note: `选填，最多8位小数；含税与否见“${TERMS.unitPrice}${TERMS.amount}含税”`,
  },
  {
    key: 'amount',
    header: TERMS.amount,
    width: 14,
    note: `最多2位小数；${TERMS.quantity}和${TERMS.unitPrice}都填写时可不填，填写时须与${TERMS.quantity}×${TERMS.unitPrice}一致`,
  },
  {
    key: 'rate',
    header: TERMS.taxRate,
    required: true,
    width: 10,
    list: `${OPTIONS_SHEET}!$B$2:$B$${RATE_OPTIONS.length + 1}`,
    note: `可选：${RATE_OPTIONS.join('、')}`,
  },
  {
    key: 'policy',
    header: '优惠政策标识',
    width: 22,
    list: `${OPTIONS_SHEET}!$C$2:$C$${POLICY_OPTIONS.length + 1}`,
    note: `选填，享受优惠政策时选择（${TERMS.digitalInvoice}）`,
  },
];

/** Header text without the required mark and spaces, for matching uploaded headers. */
export const normHeader = (h: string) => h.replace(/[*＊\s]|（必填）|\(必填\)/g, '');

export const HELP_LINES: readonly string[] = [
  '批量开票模板填写说明',
  '',
  '1. “发票信息”表每行一张发票，“商品明细”表每行一个商品，两表通过“流水号”对应；一张发票可以有多行商品。',
  '2. 带 * 的列必须填写；请不要修改表头、表名，也不要使用公式（请“选择性粘贴为数值”）。',
  '3. 单次最多10000张发票、100000行商品明细。',
  `4. ${TERMS.amount}类单元格填写数字，${TERMS.amount}最多2位小数，${TERMS.quantity}、${TERMS.unitPrice}最多8位小数。`,
  `5. 发票${TERMS.totalAmount}超过所选设备的单张开票限额，或商品行数超过该${TERMS.invoiceKindShort}的行数上限时，系统会自动拆分为多张发票，拆分结果在开票前的预览中列出。`,
  '6. 上传后系统先校验全部数据，有任何错误都不会开具，请按校验报告修改后重新上传。',
  '7. 批量开票暂不支持折扣行和特定业务（建筑服务、货物运输等），请使用单张开票。',
  '',
  '“发票信息”各列：',
  ...INVOICE_COLUMNS.map((c) => `  ${c.header}${c.required ? '（必填）' : ''}：${c.note}`),
  '',
  '“商品明细”各列：',
  ...LINE_COLUMNS.map((c) => `  ${c.header}${c.required ? '（必填）' : ''}：${c.note}`),
];
