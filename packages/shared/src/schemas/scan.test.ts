import { describe, expect, it } from 'vitest';
import { usccCheckChar } from '../money/ids.ts';
import { createOrderBodySchema, publicSubmitBodySchema, SCAN_MSG } from './scan.ts';
import { TITLE_MSG } from './titles.ts';

const code = (first17: string) => `${first17}${usccCheckChar(first17)}`;
const base = {
  token: 'a'.repeat(24),
  title_type: 2 as const,
  name: '杭州西溪数据服务有限公司',
  tax_code: code('91330100MA2B3C4D5'),
  email: 'buyer@example.com',
};
const problem = (extra: Record<string, unknown>) => {
  const r = publicSubmitBodySchema.safeParse({ ...base, ...extra });
  return r.success ? null : r.error.issues[0]?.message;
};

describe('the buyer submit schema (shared by the phone page and the server)', () => {
  it('accepts an enterprise title with a valid USCC and either contact', () => {
    expect(problem({})).toBeNull();
    expect(problem({ email: '', mobile: '13900000001' })).toBeNull();
    // lower case is taken as upper case
    expect(publicSubmitBodySchema.parse({ ...base, tax_code: base.tax_code.toLowerCase() }).tax_code).toBe(
      base.tax_code,
    );
  });

  it('answers with the title rules and its own messages', () => {
    const wrongCheck = `${base.tax_code.slice(0, 17)}${base.tax_code.endsWith('0') ? '1' : '0'}`;
    expect(problem({ tax_code: wrongCheck })).toBe(TITLE_MSG.TAX_CODE_CHECKSUM);
    expect(problem({ tax_code: '' })).toBe(TITLE_MSG.TAX_CODE_REQUIRED);
    expect(problem({ tax_code: 'ABC' })).toBe(TITLE_MSG.TAX_CODE_FORMAT);
    expect(problem({ title_type: 1, tax_code: '', name: '李' })).toBe(TITLE_MSG.NAME_PERSONAL_MIN);
    expect(problem({ email: '', mobile: '' })).toBe(SCAN_MSG.CONTACT_REQUIRED);
    expect(problem({ mobile: '1390000' })).toBe(SCAN_MSG.MOBILE_FORMAT);
    expect(problem({ amount: '0' })).toBe(SCAN_MSG.AMOUNT_FORMAT);
    expect(problem({ title_type: 1, tax_code: '', name: '李雷', amount: '99.5' })).toBeNull();
  });
});

describe('the buyer submit schema: whole issues, amounts at the edges', () => {
  const issues = (extra: Record<string, unknown>) =>
    publicSubmitBodySchema.safeParse({ ...base, ...extra }).error?.issues.map(({ code, path, message }) => ({
      code,
      path,
      message,
    })) ?? [];

  it('each rule names its field', () => {
    expect(issues({ tax_code: '' })).toEqual([
      { code: 'custom', path: ['tax_code'], message: TITLE_MSG.TAX_CODE_REQUIRED },
    ]);
    expect(issues({ tax_code: 'ABC' })).toEqual([
      { code: 'custom', path: ['tax_code'], message: TITLE_MSG.TAX_CODE_FORMAT },
    ]);
    expect(issues({ title_type: 1, tax_code: '', name: '李' })).toEqual([
      { code: 'custom', path: ['name'], message: TITLE_MSG.NAME_PERSONAL_MIN },
    ]);
    expect(issues({ email: '', mobile: '' })).toEqual([
      { code: 'custom', path: ['email'], message: SCAN_MSG.CONTACT_REQUIRED },
    ]);
  });

  it('a one-character name is fine for an enterprise title', () => {
    expect(issues({ name: '李' })).toEqual([]);
  });

  it.each([
    ['99', true],
    ['99.5', true],
    ['99.55', true],
    ['0.01', true],
    ['12345678901234', true],
    ['', true],
    ['99.555', false],
    ['99.', false],
    ['a99', false],
    ['99a', false],
    ['0', false],
    ['0.00', false],
    ['123456789012345', false],
  ])('static-code amount %j accepted: %s', (amount, ok) => {
    expect(issues({ amount })).toEqual(
      ok ? [] : [{ code: 'custom', path: ['amount'], message: SCAN_MSG.AMOUNT_FORMAT }],
    );
  });
});

describe('createOrderBodySchema', () => {
  const item = {
    name: '咨询费',
    tax_class_code: '3040201010000000000',
    short_name: '咨询服务',
    tax_rate: '0.06',
    amount_with_tax: '106.00',
  };
  const messages = (extra: Record<string, unknown>, itemExtra: Record<string, unknown> = {}) =>
    createOrderBodySchema
      .safeParse({ items: [{ ...item, ...itemExtra }], ...extra })
      .error?.issues.map((i) => i.message) ?? [];

  it('an order number is blank or 1–40 letters, digits, _ and -', () => {
    for (const order_no of ['', 'ORD_2026-0001', 'a'.repeat(40), '7'])
      expect(messages({ order_no }), order_no).toEqual([]);
    for (const order_no of ['a'.repeat(41), '订单1', 'ORD 1', 'ORD#1']) {
      expect(messages({ order_no }), order_no).toEqual([SCAN_MSG.ORDER_NO_FORMAT]);
    }
  });

  it('an item amount must be above 0', () => {
    expect(messages({}, { amount_with_tax: '0.01' })).toEqual([]);
    expect(messages({}, { amount_with_tax: '0.00' })).toEqual([SCAN_MSG.AMOUNT_POSITIVE]);
    expect(messages({}, { amount_with_tax: '0' })).toEqual([SCAN_MSG.AMOUNT_POSITIVE]);
  });
});
