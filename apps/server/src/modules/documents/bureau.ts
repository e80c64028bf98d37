/**
 * The tax bureau that supervises (监制) an invoice, for the XML's `EInvoiceTag`, `TaxBureauCode` and
 * `TaxBureauName` (bureau spec V5.002 §四 items 3, 253, 254; 附件一 and 附件二). It is the seller's
 * provincial bureau, or the bureau of a city with its own (大连, 宁波, 厦门, 青岛, 深圳 — 计划单列市).
 */

import { TERMS } from '@kaipiao/shared';

/** 附件一: xzjg (行政机关, 5 digits) → 区域名称; the 附件二 bureau name is 国家税务总局 + 名称 + 税务局. */
const XZJG: Record<string, string> = {
  '11100': '北京市',
  '11200': '天津市',
  '11300': '河北省',
  '11400': '山西省',
  '11500': '内蒙古自治区',
  '12100': '辽宁省',
  '12102': '大连市',
  '12200': '吉林省',
  '12300': '黑龙江省',
  '13100': '上海市',
  '13200': '江苏省',
  '13300': '浙江省',
  '13302': '宁波市',
  '13400': '安徽省',
  '13500': '福建省',
  '13502': '厦门市',
  '13600': '江西省',
  '13700': '山东省',
  '13702': '青岛市',
  '14100': '河南省',
  '14200': '湖北省',
  '14300': '湖南省',
  '14400': '广东省',
  '14403': '深圳市',
  '14500': '广西壮族自治区',
  '14600': '海南省',
  '15000': '重庆市',
  '15100': '四川省',
  '15200': '贵州省',
  '15300': '云南省',
  '15400': '西藏自治区',
  '16100': '陕西省',
  '16200': '甘肃省',
  '16300': '青海省',
  '16400': '宁夏回族自治区',
  '16500': '新疆维吾尔自治区',
};

/** 计划单列市: administrative division prefix (GB/T 2260, 4 digits) → their own xzjg. */
const CITY_BUREAUS: Record<string, string> = {
  '2102': '12102',
  '3302': '13302',
  '3502': '13502',
  '3702': '13702',
  '4403': '14403',
};

export type SupervisingBureau = {
  /** 附件一 xzjg, e.g. 13300 */
  xzjg: string;
  /** `SWEI` + xzjg digits 2-5, e.g. SWEI3300 */
  tag: string;
  /** xzjg + 000000 (11 digits), e.g. 13300000000 */
  code: string;
  /** 附件二, e.g. 国家税务总局浙江省税务局 */
  name: string;
};

/** The xzjg of a 4-digit division prefix (`3301` → 13300, `3302` → 13302), or null. */
export function xzjgOfDivision(division: string): string | null {
  if (!/^\d{4}$/.test(division)) return null;
  const xzjg = CITY_BUREAUS[division] ?? `1${division.slice(0, 2)}00`;
  return Object.hasOwn(XZJG, xzjg) ? xzjg : null;
}

/**
 * The registering authority's division in a taxpayer ID: characters 3-8 of an 18-character 统一社会信用代码
 * (GB 32100), the first 6 digits of the older 15/17/20-character 纳税人识别号.
 */
function divisionOfTaxCode(taxCode: string): string {
  const id = taxCode.trim().toUpperCase();
  return id.length === 18 ? id.slice(2, 6) : id.slice(0, 4);
}

/** The area in an invoice's own numbers: 数电 number digits 3-4, or the old 发票代码's area digits. */
function divisionOfNumbers(inv: { invoiceCode: string; invoiceNo: string; digital: boolean }): string {
  if (inv.digital) return `${inv.invoiceNo.slice(2, 4)}00`;
  if (inv.invoiceCode.length === 12) return inv.invoiceCode.slice(1, 5);
  return inv.invoiceCode.slice(0, 4);
}

/**
 * The seller's supervising bureau: from the seller's tax ID, else from the invoice's own number (the
 * 数电 number's province digits, the old code's area). Throws when neither names a bureau of 附件一.
 */
export function supervisingBureau(inv: {
  seller: { taxCode: string };
  invoiceCode: string;
  invoiceNo: string;
  digital: boolean;
}): SupervisingBureau {
  const xzjg =
    xzjgOfDivision(divisionOfTaxCode(inv.seller.taxCode)) ?? xzjgOfDivision(divisionOfNumbers(inv));
  if (!xzjg) throw new Error(`无法从${TERMS.seller}${TERMS.taxCode} ${inv.seller.taxCode} 确定监制税务机关`);
  return {
    xzjg,
    tag: `SWEI${xzjg.slice(1)}`,
    code: `${xzjg}000000`,
    name: `国家税务总局${XZJG[xzjg]}税务局`,
  };
}
