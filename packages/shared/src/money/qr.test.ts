import { describe, expect, it } from 'vitest';
import { buildInvoiceQr, crc16x25, qrTypeCodeFor } from './qr.ts';

/** Independent table-driven CRC-16/X-25 to cross-check the bitwise one. */
const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
  return c;
});
function referenceCrc(text: string): string {
  let crc = 0xffff;
  for (const b of new TextEncoder().encode(text)) crc = (crc >>> 8) ^ TABLE[(crc ^ b) & 0xff];
  return ((crc ^ 0xffff) & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}

describe('crc16x25', () => {
  it('catalogue check value: "123456789" → 0x906E', () => {
    expect(crc16x25('123456789')).toBe(0x906e);
    expect(crc16x25('')).toBe(0x0000);
  });

  it('agrees with a table-driven implementation', () => {
    for (const s of ['01,31,,22344000000000012345,358.95,20230609,', 'abc', '发票']) {
      expect(crc16x25(s).toString(16).toUpperCase().padStart(4, '0')).toBe(referenceCrc(s));
    }
  });
});

describe('buildInvoiceQr — domain.md §1.2', () => {
  it('数电 electronic: empty code and check code, 20-digit number, 价税合计, YYYYMMDD', () => {
    const qr = buildInvoiceQr({
      typeCode: '31',
      invoiceNo: '22344000000000012345',
      amount: '358.95',
      issueDate: '2023-06-09',
    });
    const head = '01,31,,22344000000000012345,358.95,20230609,';
    expect(qr).toBe(`${head},${referenceCrc(head)}`);
    expect(qr.split(',')).toHaveLength(8);
  });

  it('old kinds: code, 8-digit number, 校验码; amounts printed with 2 decimals; Date in Beijing time', () => {
    const qr = buildInvoiceQr({
      typeCode: '10',
      invoiceCode: '044031900111',
      invoiceNo: '12345678',
      amount: 100,
      issueDate: new Date('2023-12-31T16:30:00Z'), // 2024-01-01 00:30 in Beijing
      checkCode: '12345678901234567890',
    });
    expect(qr).toMatch(/^01,10,044031900111,12345678,100\.00,20240101,12345678901234567890,[0-9A-F]{4}$/);
    expect(buildInvoiceQr({ typeCode: '32', invoiceNo: '1', amount: '1', issueDate: '20240102' })).toMatch(
      /^01,32,,1,1\.00,20240102,,[0-9A-F]{4}$/,
    );
    expect(() =>
      buildInvoiceQr({ typeCode: '32', invoiceNo: '1', amount: '1', issueDate: '2024-1-2' }),
    ).toThrow('开票日期格式不正确');
  });

  it('maps this console’s invoice types to QR type codes', () => {
    expect(qrTypeCodeFor('81')).toBe('31');
    expect(qrTypeCodeFor('82')).toBe('32');
    expect(qrTypeCodeFor('004')).toBe('01');
    expect(qrTypeCodeFor('007')).toBe('04');
    expect(qrTypeCodeFor('026')).toBe('10');
    expect(qrTypeCodeFor('028')).toBe('08');
    expect(qrTypeCodeFor('999')).toBeNull();
  });
});
