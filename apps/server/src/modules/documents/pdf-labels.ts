import { INVOICE_TYPES, TERMS } from '@kaipiao/shared';

/**
 * Every fixed text the invoice prints in 楷体 (spec §三 1.2/1.3: titles, 版面元素名称, the seal). The
 * committed 楷 font is a subset of AR PL UKai made from exactly these characters
 * (`npm run fonts:kai`, scripts/fonts/kai-subset.ts); a test checks that it still covers them all, so a
 * new label fails the tests until the subset is made again.
 */

/** 附件二: the provincial bureaus whose name the seal's lower ring carries, by area code. */
export const TAX_BUREAU_AREAS: Record<string, string> = {
  '11': '北京市',
  '12': '天津市',
  '13': '河北省',
  '14': '山西省',
  '15': '内蒙古自治区',
  '21': '辽宁省',
  '2102': '大连市',
  '22': '吉林省',
  '23': '黑龙江省',
  '31': '上海市',
  '32': '江苏省',
  '33': '浙江省',
  '3302': '宁波市',
  '34': '安徽省',
  '35': '福建省',
  '3502': '厦门市',
  '36': '江西省',
  '37': '山东省',
  '3702': '青岛市',
  '41': '河南省',
  '42': '湖北省',
  '43': '湖南省',
  '44': '广东省',
  '4403': '深圳市',
  '45': '广西壮族自治区',
  '46': '海南省',
  '50': '重庆市',
  '51': '四川省',
  '52': '贵州省',
  '53': '云南省',
  '54': '西藏自治区',
  '61': '陕西省',
  '62': '甘肃省',
  '63': '青海省',
  '64': '宁夏回族自治区',
  '65': '新疆维吾尔自治区',
};

/**
 * The seal's lower ring, "xx省(区、市)税务局" (spec §三 1.1, 附件二), from the seller's tax code: the
 * area code is characters 3-8 of an 18-character 统一社会信用代码 and 1-6 of a 15-character number;
 * the five cities with their own bureau (计划单列市) come before their province.
 */
export function sealBureau(sellerTaxCode: string): string {
  const area = sellerTaxCode.length === 18 ? sellerTaxCode.slice(2, 8) : sellerTaxCode.slice(0, 6);
  const name = TAX_BUREAU_AREAS[area.slice(0, 4)] ?? TAX_BUREAU_AREAS[area.slice(0, 2)];
  return `${name ?? ''}税务局`;
}

/** The label box (标签, spec §三 1.3) of each special business. */
export const SPECIFIC_LABELS: Record<string, string> = {
  '03': '建筑服务',
  '04': '货物运输服务',
  '06': '不动产经营租赁',
  '09': '旅客运输服务',
};

export const SEAL_TOP = '全国统一发票监制章';
export const SEAL_MIDDLE = '国家税务总局';
export const RED_WATERMARK = TERMS.redInvoice;

const COLUMN_TITLES = [
  TERMS.itemName,
  TERMS.spec,
  TERMS.unit,
  TERMS.quantity,
  TERMS.unitPrice,
  TERMS.amount,
  `${TERMS.taxRate}/征收率`,
  TERMS.taxAmount,
  '建筑服务发生地',
  '建筑项目名称',
  '产权证书/不动产权证号',
  '面积单位',
  '运输工具种类',
  '运输工具牌号',
  '起运地',
  '到达地',
  '运输货物名称',
  '出行人',
  '有效身份证件号',
  '出行日期',
  '出发地',
  '等级',
  '交通工具类型',
  '货物或应税劳务、服务名称',
  TERMS.taxRate,
];

const LABELS = [
  `${TERMS.buyer}信息`,
  `${TERMS.seller}信息`,
  '名称：',
  `统一社会信用代码/${TERMS.taxCode}：`,
  `${TERMS.invoiceNo}：`,
  `${TERMS.issueDate}：`,
  `${TERMS.invoiceCode}：`,
  '校验码：',
  '机器编号：',
  '合计',
  '小计',
  TERMS.totalWithTaxCapital,
  '（小写）',
  TERMS.remark,
  `${TERMS.drawer}：`,
  `${TERMS.payee}：`,
  '复核：',
  `${TERMS.seller}：（章）`,
  TERMS.buyer,
  TERMS.seller,
  '密码区',
  `${TERMS.taxCode}：`,
  '地址、电话：',
  '开户行及账号：',
  '共页第',
];

/** Every string drawn in 楷 (the subset's character list). */
export const KAI_TEXTS: string[] = [
  ...Object.values(INVOICE_TYPES),
  ...Object.values(SPECIFIC_LABELS),
  ...Object.values(TAX_BUREAU_AREAS).map((a) => `${a}税务局`),
  SEAL_TOP,
  SEAL_MIDDLE,
  RED_WATERMARK,
  '差额征税',
  ...COLUMN_TITLES,
  ...LABELS,
  '0123456789 ',
];
