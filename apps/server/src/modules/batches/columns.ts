import { BATCH_KIND_LABELS, PREFERENTIAL_POLICIES, TAX_RATES } from '@kaipiao/shared';

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
    header: '发票种类',
    width: 14,
    list: `${OPTIONS_SHEET}!$A$2:$A$${KIND_OPTIONS.length + 1}`,
    note: `可选：${KIND_OPTIONS.join('、')}；不填则使用页面上选择的发票种类`,
  },
  {
    key: 'buyer_type',
    header: '购买方类型',
    required: true,
    width: 12,
    list: '"企业,个人"',
    note: '企业 或 个人（个人含政府事业单位）',
  },
  { key: 'buyer_name', header: '购买方名称', required: true, width: 32, note: '发票抬头' },
  {
    key: 'buyer_tax_code',
    header: '购买方纳税人识别号',
    width: 24,
    text: true,
    note: '企业必填，专用发票必填；15、18或20位',
  },
  { key: 'buyer_address', header: '购买方地址', width: 28, note: '选填' },
  { key: 'buyer_phone', header: '购买方电话', width: 16, text: true, note: '选填' },
  { key: 'buyer_bank_name', header: '购买方开户银行', width: 24, note: '选填' },
  { key: 'buyer_bank_account', header: '购买方银行账号', width: 24, text: true, note: '选填，1-30位数字' },
  {
    key: 'buyer_email',
    header: '购买方邮箱',
    width: 24,
    note: '选填；勾选“开具后发送邮件”时发票发送到该邮箱',
  },
  { key: 'buyer_mobile', header: '购买方手机号', width: 16, text: true, note: '选填' },
  {
    key: 'price_includes_tax',
    header: '单价金额含税',
    width: 14,
    list: '"是,否"',
    note: '是：商品明细的单价、金额为含税价；否：为不含税价。不填为“是”',
  },
  { key: 'remark', header: '备注', width: 30, note: '选填，最多450个字符' },
  { key: 'drawer', header: '开票人', width: 12, note: '选填' },
  { key: 'payee', header: '收款人', width: 12, note: '选填' },
  { key: 'reviewer', header: '复核人', width: 12, note: '选填' },
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
  { key: 'name', header: '项目名称', required: true, width: 28, note: '商品或服务名称' },
  {
    key: 'tax_class_code',
    header: '税收分类编码',
    required: true,
    width: 24,
    text: true,
    note: '19位数字，请设为文本格式以免 Excel 丢失末尾数字',
  },
  {
    key: 'short_name',
    header: '分类简称',
    width: 16,
    note: '选填；不填则按税收分类编码自动带出（编码库中没有的编码必须填写）',
  },
  { key: 'spec', header: '规格型号', width: 14, note: '选填' },
  { key: 'unit', header: '单位', width: 10, note: '选填' },
  { key: 'quantity', header: '数量', width: 12, note: '选填，最多8位小数' },
  { key: 'price', header: '单价', width: 14, note: '选填，最多8位小数；含税与否见“单价金额含税”' },
  {
    key: 'amount',
    header: '金额',
    width: 14,
    note: '最多2位小数；数量和单价都填写时可不填，填写时须与数量×单价一致',
  },
  {
    key: 'rate',
    header: '税率',
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
    note: '选填，享受优惠政策时选择（数电发票）',
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
  '4. 金额类单元格填写数字，金额最多2位小数，数量、单价最多8位小数。',
  '5. 发票不含税金额超过所选设备的单张开票限额，或商品行数超过该票种的行数上限时，系统会自动拆分为多张发票，拆分结果在开票前的预览中列出。',
  '6. 上传后系统先校验全部数据，有任何错误都不会开具，请按校验报告修改后重新上传。',
  '7. 批量开票暂不支持折扣行和特定业务（建筑服务、货物运输等），请使用单张开票。',
  '',
  '“发票信息”各列：',
  ...INVOICE_COLUMNS.map((c) => `  ${c.header}${c.required ? '（必填）' : ''}：${c.note}`),
  '',
  '“商品明细”各列：',
  ...LINE_COLUMNS.map((c) => `  ${c.header}${c.required ? '（必填）' : ''}：${c.note}`),
];
