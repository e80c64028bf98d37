import { type DecimalInput, fixed } from './decimal.ts';

/** CRC-16/X-25 (poly 0x1021 reflected, init 0xFFFF, xorout 0xFFFF) over the UTF-8 bytes; check value of "123456789" is 0x906E. */
export function crc16x25(text: string): number {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return (crc ^ 0xffff) & 0xffff;
}

/**
 * 票面二维码 "发票类型" (domain.md §1.1): 31 数电专票, 32 数电普票, 33 机动车, 34 二手车; old kinds use the
 * verification-platform codes 01 专票, 04 普票, 08 电子专票, 10 电子普票, 11 卷票, 14 通行费.
 */
export type QrTypeCode = '01' | '04' | '08' | '10' | '11' | '14' | '31' | '32' | '33' | '34';

/** QR type code of an invoice type of this console (INVOICE_TYPES keys), or null. */
export function qrTypeCodeFor(invoiceType: string): QrTypeCode | null {
  const map: Record<string, QrTypeCode> = {
    '81': '31',
    '82': '32',
    '85': '31',
    '86': '32',
    '004': '01',
    '007': '04',
    '025': '11',
    '026': '10',
    '027': '14',
    '028': '08',
    '032': '10',
  };
  return map[invoiceType] ?? null;
}

export interface InvoiceQrInput {
  typeCode: QrTypeCode;
  /** 发票代码: empty for 数电 electronic invoices */
  invoiceCode?: string | null;
  /** 发票号码: 20 digits for 数电, 8 for old kinds */
  invoiceNo: string;
  /** 数电 electronic: 价税合计; 数电 paper and old 专票: 合计金额 (tax-exclusive) */
  amount: DecimalInput;
  /** Date, 'YYYY-MM-DD…' or 'YYYYMMDD' (printed as YYYYMMDD) */
  issueDate: string | Date;
  /** 校验码 (old kinds, 20 digits) or last 6 of the 数电 number (数电 paper); empty for 数电 electronic */
  checkCode?: string | null;
}

function yyyymmdd(date: string | Date): string {
  if (date instanceof Date) {
    // the invoice's calendar day in Beijing
    return new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
  }
  const digits = date.replace(/[^0-9]/g, '').slice(0, 8);
  if (digits.length !== 8) throw new Error('开票日期格式不正确');
  return digits;
}

/**
 * The 票面二维码 text (domain.md §1.2): `01,类型,发票代码,发票号码,金额,开票日期,校验码,CRC`, version 01,
 * amount with 2 decimals, CRC = CRC16/X25 of the first seven fields joined by their commas, as 4
 * uppercase hex digits. E.g. `01,32,,24112000000135114086,106.00,20240801,,XXXX`.
 */
export function buildInvoiceQr(input: InvoiceQrInput): string {
  const head = [
    '01',
    input.typeCode,
    input.invoiceCode ?? '',
    input.invoiceNo,
    fixed(input.amount, 2),
    yyyymmdd(input.issueDate),
    input.checkCode ?? '',
  ].join(',');
  return `${head},${crc16x25(head).toString(16).toUpperCase().padStart(4, '0')}`;
}
