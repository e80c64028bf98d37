import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceQrText, qrCrc16, qrCrcHex, qrRuleFor } from './qr.ts';

/**
 * Independent reference: the CRC as the remainder of M(x)·x^16 divided by x^16 + x^15 + x^2 + 1
 * (0x18005) over GF(2) — textbook long division of the message bit by bit, followed by 16 zero bits
 * (the "augmented message"), instead of the implementation's xor-the-byte-in shift register.
 */
function referenceCrc(text: string): string {
  const bits: number[] = [];
  for (const b of new TextEncoder().encode(text)) for (let i = 7; i >= 0; i--) bits.push((b >> i) & 1);
  bits.push(...new Array(16).fill(0));
  let r = 0;
  for (const bit of bits) {
    r = (r << 1) | bit;
    if (r & 0x10000) r ^= 0x18005;
  }
  return r.toString(16).toUpperCase().padStart(4, '0');
}

/** Real 票面二维码 texts: three 数电 codes (domain.md §1.2) and two published old-form codes (原规范). */
const REAL_CODES = [
  '01,32,,20882408051806541460,0.01,20240805,,649C',
  '01,31,,26442000004359167806,1705400.00,20260421,,8EEF',
  '01,32,,26447000001243494438,285.92,20260619,,300A',
  '01,04,4200161350,00015045,165106.00,20160501,48114255542168294433,DBFE,',
  '01,01,1200154130,03630024,94339.62,20160621,,9335,',
];

describe('qrCrc16 — bureau spec §六: poly 0x8005, init 0, not reflected, xorout 0, over the 7 fields and the comma after them', () => {
  it('catalogue check value (CRC-16/UMTS): "123456789" → 0xFEE8; empty → 0', () => {
    expect(qrCrc16('123456789')).toBe(0xfee8);
    expect(qrCrc16('')).toBe(0);
    expect(qrCrcHex('123456789')).toBe('FEE8');
    // four hex digits even when the value is small
    expect(qrCrcHex('\u0000')).toBe('0000');
  });

  it.each(REAL_CODES)('real code %s checks out', (code) => {
    const fields = code.split(',');
    const head = `${fields.slice(0, 7).join(',')},`;
    expect(qrCrcHex(head)).toBe(fields[7]);
    expect(referenceCrc(head)).toBe(fields[7]);
    // not over the seven fields without the trailing comma (the old, wrong rule)
    expect(qrCrcHex(head.slice(0, -1))).not.toBe(fields[7]);
  });

  it('agrees with the polynomial-division reference on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789,.-ABCDEF发票\u0000'), maxLength: 80 }),
        (s) => {
          expect(qrCrcHex(s)).toBe(referenceCrc(s));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('invoiceQrText — §六 for every kind', () => {
  it('rebuilds the real codes from their invoices', () => {
    expect(
      invoiceQrText({
        invoiceType: '82',
        invoiceNo: '20882408051806541460',
        totalAmount: '0.01',
        totalWithTax: '0.01',
        issueDate: '2024-08-05',
      }),
    ).toBe(REAL_CODES[0]);
    expect(
      invoiceQrText({
        invoiceType: '81',
        invoiceNo: '26442000004359167806',
        totalAmount: '1509203.54',
        totalWithTax: '1705400',
        issueDate: new Date('2026-04-20T16:00:00Z'), // 2026-04-21 00:00 in Beijing
      }),
    ).toBe(REAL_CODES[1]);
    expect(
      invoiceQrText({
        invoiceType: '82',
        invoiceNo: '26447000001243494438',
        totalAmount: '269.74',
        totalWithTax: '285.92',
        issueDate: '20260619',
      }),
    ).toBe(REAL_CODES[2]);
    expect(
      invoiceQrText({
        invoiceType: '007',
        invoiceCode: '4200161350',
        invoiceNo: '00015045',
        checkCode: '48114255542168294433',
        totalAmount: '165106',
        totalWithTax: '193174.02',
        issueDate: '2016-05-01',
      }),
    ).toBe(REAL_CODES[3]);
    expect(
      invoiceQrText({
        invoiceType: '004',
        invoiceCode: '1200154130',
        invoiceNo: '03630024',
        checkCode: '',
        totalAmount: '94339.62',
        totalWithTax: '110377.36',
        issueDate: '2016-06-21',
      }),
    ).toBe(REAL_CODES[4]);
  });

  it('数电电票 (81/82): type 31/32, empty code and check code, 20-digit number, 价税合计, 8 fields', () => {
    for (const [type, code] of [
      ['81', '31'],
      ['82', '32'],
    ] as const) {
      const qr = invoiceQrText({
        invoiceType: type,
        invoiceCode: '033001900111', // ignored: 数电电票 have no code
        checkCode: '12345678901234567890', // ignored
        invoiceNo: '22344000000000012345',
        totalAmount: '338.63',
        totalWithTax: '358.95',
        issueDate: '2023-06-09',
      });
      const head = `01,${code},,22344000000000012345,358.95,20230609,,`;
      expect(qr).toBe(`${head}${referenceCrc(head)}`);
      expect(qr.split(',')).toHaveLength(8);
    }
  });

  it('数电纸票 (85/86): code, 8-digit number, 合计金额, check code = last 6 of the 数电 number', () => {
    const qr = invoiceQrText({
      invoiceType: '85',
      invoiceCode: '3300231130',
      invoiceNo: '00001234',
      digitalNo: '23332000000000654321',
      totalAmount: '100',
      totalWithTax: '113',
      issueDate: '2023-12-01',
    });
    const head = '01,31,3300231130,00001234,100.00,20231201,654321,';
    expect(qr).toBe(`${head}${referenceCrc(head)}`);
    expect(
      invoiceQrText({
        invoiceType: '86',
        invoiceCode: '033002300104',
        invoiceNo: '00000001',
        digitalNo: '23332000000000000009',
        totalAmount: '1',
        totalWithTax: '1.01',
        issueDate: '20231201',
      }),
    ).toMatch(/^01,32,033002300104,00000001,1\.00,20231201,000009,[0-9A-F]{4}$/);
  });

  it('old kinds 004 / 007 / 026 (and 025, 027, 028): code, 8-digit number, 合计金额, 校验码, a comma after the CRC', () => {
    const cases = [
      ['004', '01', '3300231130', ''],
      ['007', '04', '033002300104', '12345678901234567890'],
      ['025', '11', '033002300106', '12345678901234567890'],
      ['026', '10', '033002300111', '12345678901234567890'],
      ['027', '14', '033002300112', '12345678901234567890'],
      ['028', '08', '033002300113', ''],
    ] as const;
    for (const [type, typeCode, code, check] of cases) {
      const qr = invoiceQrText({
        invoiceType: type,
        invoiceCode: code,
        invoiceNo: '01234567',
        checkCode: check,
        totalAmount: '-100.5',
        totalWithTax: '-113.57',
        issueDate: new Date('2023-12-31T16:30:00Z'), // 2024-01-01 00:30 in Beijing
      });
      const head = `01,${typeCode},${code},01234567,-100.50,20240101,${check},`;
      expect(qr).toBe(`${head}${referenceCrc(head)},`);
      expect(qr.split(',')).toHaveLength(9);
    }
  });

  it('one rule for an unknown kind or a malformed number: a Chinese error, never a made-up QR', () => {
    const base = {
      invoiceNo: '22344000000000012345',
      totalAmount: '1',
      totalWithTax: '1',
      issueDate: '20240102',
    };
    expect(qrRuleFor('999')).toBeNull();
    expect(qrRuleFor('toString')).toBeNull();
    expect(() => invoiceQrText({ ...base, invoiceType: '999' })).toThrow('发票类型 999 没有票面二维码规则');
    expect(() => invoiceQrText({ ...base, invoiceType: '82', invoiceNo: '1' })).toThrow(
      '数电发票号码应为20位数字',
    );
    expect(() => invoiceQrText({ ...base, invoiceType: '82', issueDate: '2024-1-2' })).toThrow(
      '开票日期格式不正确',
    );
    expect(() => invoiceQrText({ ...base, invoiceType: '82', issueDate: new Date(Number.NaN) })).toThrow(
      '开票日期格式不正确',
    );
    expect(() =>
      invoiceQrText({ ...base, invoiceType: '026', invoiceCode: '123', invoiceNo: '01234567' }),
    ).toThrow('发票代码应为10位数字或12位数字');
    expect(() =>
      invoiceQrText({ ...base, invoiceType: '026', invoiceCode: '033002300111', invoiceNo: '1234567' }),
    ).toThrow('发票号码应为8位数字');
    expect(() =>
      invoiceQrText({
        ...base,
        invoiceType: '026',
        invoiceCode: '033002300111',
        invoiceNo: '01234567',
        checkCode: '123',
      }),
    ).toThrow('校验码应为空或20位数字');
    expect(() =>
      invoiceQrText({ ...base, invoiceType: '85', invoiceCode: '3300231130', invoiceNo: '00001234' }),
    ).toThrow('数电纸质发票的数电发票号码应为20位数字');
  });

  it('numbers must be digits (not just the right length); a missing check code is an empty one; a date text keeps its day', () => {
    const base = { totalAmount: '1', totalWithTax: '1', issueDate: '20240102' };
    expect(() => invoiceQrText({ ...base, invoiceType: '82', invoiceNo: 'A2344000000000012345' })).toThrow(
      '数电发票号码应为20位数字',
    );
    expect(() => invoiceQrText({ ...base, invoiceType: '82', invoiceNo: '2234400000000001234A' })).toThrow(
      '数电发票号码应为20位数字',
    );
    const old = { ...base, invoiceType: '004', invoiceCode: '3300231130', invoiceNo: '01234567' };
    expect(invoiceQrText({ ...old, checkCode: null })).toBe(invoiceQrText({ ...old, checkCode: '' }));
    expect(invoiceQrText({ ...old, checkCode: undefined }).split(',')[6]).toBe('');
    // a PostgreSQL timestamp text: its first eight digits are the day
    expect(
      invoiceQrText({
        ...base,
        invoiceType: '82',
        invoiceNo: '22344000000000012345',
        issueDate: '2024-01-02 10:30:00',
      }).split(',')[5],
    ).toBe('20240102');
  });

  it('maps every kind of this console to its QR type and layout', () => {
    expect(qrRuleFor('81')).toEqual({ typeCode: '31', form: 'digital' });
    expect(qrRuleFor('82')).toEqual({ typeCode: '32', form: 'digital' });
    expect(qrRuleFor('85')).toEqual({ typeCode: '31', form: 'digital-paper' });
    expect(qrRuleFor('86')).toEqual({ typeCode: '32', form: 'digital-paper' });
    expect(qrRuleFor('004')).toEqual({ typeCode: '01', form: 'tax-control' });
    expect(qrRuleFor('007')).toEqual({ typeCode: '04', form: 'tax-control' });
    expect(qrRuleFor('025')).toEqual({ typeCode: '11', form: 'tax-control' });
    expect(qrRuleFor('026')).toEqual({ typeCode: '10', form: 'tax-control' });
    expect(qrRuleFor('027')).toEqual({ typeCode: '14', form: 'tax-control' });
    expect(qrRuleFor('028')).toEqual({ typeCode: '08', form: 'tax-control' });
  });
});
