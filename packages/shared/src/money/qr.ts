import { TERMS } from '../glossary/terms.ts';
import { beijingCompactDay } from '../time/beijing.ts';
import { type DecimalInput, fixed } from './decimal.ts';

/**
 * The check code (last field) of the 票面二维码, bureau spec V5.002 §六: polynomial 0x8005, initial value
 * 0x0000, not reflected, xorout 0x0000 — the catalogue's CRC-16/UMTS (alias BUYPASS), check value of
 * "123456789" 0xFEE8. The spec calls it "CRC16_X25", but it is not the catalogue's CRC-16/X-25 (0x1021
 * reflected, init and xorout 0xFFFF); real bureau codes check out with this one (domain.md §1.2).
 * Runs over the UTF-8 bytes (the QR text is ASCII).
 */
export function qrCrc16(text: string): number {
  let crc = 0;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** 4 upper-case hex digits, as printed in the QR text. */
export const qrCrcHex = (text: string): string => qrCrc16(text).toString(16).toUpperCase().padStart(4, '0');

/**
 * 票面二维码 "发票类型" (domain.md §1.1): 31 电子发票（增值税专用发票）, 32 电子发票（普通发票）, 33 机动车,
 * 34 二手车; old kinds use the verification-platform codes 01 专票, 04 普票, 08 增值税电子专用发票,
 * 10 增值税电子普通发票, 11 卷票, 14 通行费.
 */
export type QrTypeCode = '01' | '04' | '08' | '10' | '11' | '14' | '31' | '32' | '33' | '34';

/**
 * Which of the three QR layouts a kind uses (§六 and the old rule it keeps):
 * - `digital` 数电电票: no code, 20-digit number, 价税合计, no check code;
 * - `digital-paper` 数电纸票: 10/12-digit code, 8-digit paper number, 合计金额 (tax-exclusive), check
 *   code = last 6 digits of the 数电 number;
 * - `tax-control` old tax-control kinds (原规范): code, 8-digit number, 合计金额, 20-digit 校验码 (empty on
 *   专票), and a comma after the CRC as real old codes end (`01,04,4200161350,00015045,165106.00,
 *   20160501,48114255542168294433,DBFE,` checks out with the same CRC).
 */
export type QrForm = 'digital' | 'digital-paper' | 'tax-control';
export type QrRule = { typeCode: QrTypeCode; form: QrForm };

const QR_RULES: Record<string, QrRule> = {
  '81': { typeCode: '31', form: 'digital' },
  '82': { typeCode: '32', form: 'digital' },
  '85': { typeCode: '31', form: 'digital-paper' },
  '86': { typeCode: '32', form: 'digital-paper' },
  '004': { typeCode: '01', form: 'tax-control' },
  '007': { typeCode: '04', form: 'tax-control' },
  '025': { typeCode: '11', form: 'tax-control' },
  '026': { typeCode: '10', form: 'tax-control' },
  '027': { typeCode: '14', form: 'tax-control' },
  '028': { typeCode: '08', form: 'tax-control' },
  '032': { typeCode: '10', form: 'tax-control' },
};

/** The QR rule of an invoice type (INVOICE_TYPES keys, and 数电纸票 85/86), or null for an unknown kind. */
export function qrRuleFor(invoiceType: string): QrRule | null {
  return Object.hasOwn(QR_RULES, invoiceType) ? QR_RULES[invoiceType]! : null;
}

/** What the QR of an issued invoice is made of; each kind takes the fields its rule names. */
export interface InvoiceQrFacts {
  /** this console's invoice type: 81, 82, 85, 86, 004, 007, 025, 026, 027, 028, 032 */
  invoiceType: string;
  /** 发票代码 (old kinds and 数电纸票: 10 or 12 digits) */
  invoiceCode?: string | null;
  /** 发票号码: 20 digits for 数电电票, 8 for 数电纸票 and old kinds */
  invoiceNo: string;
  /** 数电纸票: the 20-digit 数电 number, whose last 6 digits are the QR's check code */
  digitalNo?: string | null;
  /** old kinds: the 20-digit 校验码 ('' on 专票) */
  checkCode?: string | null;
  /** 合计金额 (tax-exclusive) */
  totalAmount: DecimalInput;
  /** 价税合计 */
  totalWithTax: DecimalInput;
  /** the issue moment (Beijing calendar day), or 'YYYY-MM-DD…' / 'YYYYMMDD' */
  issueDate: string | Date;
}

function yyyymmdd(date: string | Date): string {
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new Error(`${TERMS.issueDate}格式不正确`);
    // the invoice's calendar day in Beijing
    return beijingCompactDay(date);
  }
  const digits = date.replace(/[^0-9]/g, '').slice(0, 8);
  if (digits.length !== 8) throw new Error(`${TERMS.issueDate}格式不正确`);
  return digits;
}

function digits(value: string | null | undefined, lengths: number[], what: string): string {
  const v = value ?? '';
  if (!/^\d*$/.test(v) || !lengths.includes(v.length)) {
    throw new Error(`${what}应为${lengths.map((n) => (n === 0 ? '空' : `${n}位数字`)).join('或')}`);
  }
  return v;
}

/**
 * The 票面二维码 text of an invoice (bureau spec §六, domain.md §1.2), the one rule every caller uses
 * (the issuing SQL mirrors it through `qrRuleFor`, see apps/server/src/modules/invoices/issue-repo.ts):
 * `01,类型,发票代码,发票号码,金额,开票日期YYYYMMDD,校验码,CRC`, amount with two decimals, CRC =
 * `qrCrcHex` of the first seven fields **with the comma after the seventh**; old tax-control kinds end
 * with one more comma. E.g. `01,32,,20882408051806541460,0.01,20240805,,649C`.
 * Throws (Chinese message) for a kind without a QR rule or numbers of the wrong shape.
 */
export function invoiceQrText(f: InvoiceQrFacts): string {
  const rule = qrRuleFor(f.invoiceType);
  if (!rule) throw new Error(`发票类型 ${f.invoiceType} 没有票面二维码规则`);
  let code = '';
  let check = '';
  let amount: DecimalInput;
  if (rule.form === 'digital') {
    digits(f.invoiceNo, [20], `${TERMS.digitalInvoice}号码`);
    amount = f.totalWithTax;
  } else {
    code = digits(f.invoiceCode, [10, 12], TERMS.invoiceCode);
    digits(f.invoiceNo, [8], TERMS.invoiceNo);
    amount = f.totalAmount;
    check =
      rule.form === 'digital-paper'
        ? digits(f.digitalNo, [20], `数电${TERMS.paperInvoice}的${TERMS.digitalInvoice}号码`).slice(-6)
        : digits(f.checkCode, [0, 20], '校验码');
  }
  const head = `${['01', rule.typeCode, code, f.invoiceNo, fixed(amount, 2), yyyymmdd(f.issueDate), check].join(',')},`;
  return `${head}${qrCrcHex(head)}${rule.form === 'tax-control' ? ',' : ''}`;
}
