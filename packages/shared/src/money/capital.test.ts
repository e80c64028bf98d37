import fc from 'fast-check';
import Nzh from 'nzh';
import nzhcn from 'nzh/cn';
import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatMoney,
  formatQuantity,
  formatUnitPrice,
  toChineseCapital,
  toChineseNumeral,
} from './capital.ts';
import { Dec } from './decimal.ts';

// domain.md §5.4 vectors (nzh@1.0.14 output with 元); invoices print 圆.
const VECTORS: [string, string][] = [
  ['0', '零元整'],
  ['0.05', '伍分'],
  ['0.5', '伍角'],
  ['1', '壹元整'],
  ['10', '壹拾元整'],
  ['10.01', '壹拾元零壹分'],
  ['10.50', '壹拾元伍角'],
  ['101', '壹佰零壹元整'],
  ['100.05', '壹佰元零伍分'],
  ['113', '壹佰壹拾叁元整'],
  ['1001.05', '壹仟零壹元零伍分'],
  ['1010', '壹仟零壹拾元整'],
  ['1409.50', '壹仟肆佰零玖元伍角'],
  ['1680.32', '壹仟陆佰捌拾元叁角贰分'],
  ['6007.14', '陆仟零柒元壹角肆分'],
  ['10600', '壹万零陆佰元整'],
  ['100010', '壹拾万零壹拾元整'],
  ['107000.53', '壹拾万柒仟元伍角叁分'],
  ['100111.11', '壹拾万零壹佰壹拾壹元壹角壹分'],
  ['1000000.01', '壹佰万元零壹分'],
  ['3456789', '叁佰肆拾伍万陆仟柒佰捌拾玖元整'],
  ['1001000021', '壹拾亿零壹佰万零贰拾壹元整'],
  ['123456789.12', '壹亿贰仟叁佰肆拾伍万陆仟柒佰捌拾玖元壹角贰分'],
  ['99999.99', '玖万玖仟玖佰玖拾玖元玖角玖分'],
];

/** nzh as oracle, per the domain.md §5.4 pitfalls: round to 2 dp first, append 整 ourselves. */
function nzhMoney(value: string): string {
  const rounded = new Dec(value).toDecimalPlaces(2);
  const text = nzhcn.toMoney(rounded.abs().toFixed(), { outSymbol: false });
  const whole = /[角分]$/.test(text) ? text : text.endsWith('整') ? text : `${text}整`;
  return whole;
}

describe('toChineseCapital — domain.md §5.4 vectors, with 圆', () => {
  it.each(VECTORS)('%s → %s', (amount, expected) => {
    const invoice = expected.replace('元', '圆');
    expect(toChineseCapital(amount)).toBe(invoice);
    expect(toChineseCapital(Number(amount))).toBe(invoice);
    expect(toChineseNumeral(amount)).toBe(expected);
  });

  it('invoice samples: 壹佰圆整, 壹仟贰佰柒拾贰圆整, （负数）伍佰圆整', () => {
    expect(toChineseCapital('100.00')).toBe('壹佰圆整');
    expect(toChineseCapital('1272')).toBe('壹仟贰佰柒拾贰圆整');
    expect(toChineseCapital('-500.00')).toBe('（负数）伍佰圆整');
    expect(toChineseCapital('-0.004')).toBe('零圆整');
  });

  it('"20.00" keeps 整 (the nzh pitfall) and the 3rd decimal rounds half-up instead of truncating', () => {
    expect(toChineseCapital('20.00')).toBe('贰拾圆整');
    expect(toChineseCapital('10.015')).toBe('壹拾圆零贰分');
    expect(toChineseCapital('10.012')).toBe('壹拾圆零壹分');
    expect(toChineseCapital('0.995')).toBe('壹圆整');
  });

  it('large amounts: 亿, 万亿, and the 1e15 limit with a Chinese error', () => {
    expect(toChineseCapital('100000000')).toBe('壹亿圆整');
    expect(toChineseCapital('1000000000000')).toBe('壹万亿圆整');
    expect(toChineseCapital('1000100000000')).toBe('壹万零壹亿圆整');
    expect(toChineseCapital('999999999999999.99')).toBe(
      '玖佰玖拾玖万玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖圆玖角玖分',
    );
    expect(() => toChineseCapital('1000000000000000')).toThrow('金额超出转换范围，须小于1000万亿（1e15）');
    expect(() => toChineseCapital('-1e15')).toThrow('金额格式不正确');
    expect(() => toChineseCapital(1e15)).toThrow('金额超出转换范围');
    expect(() => toChineseCapital(1e21)).toThrow('金额超出转换范围');
    expect(toChineseCapital(1e-7)).toBe('零圆整');
    expect(() => toChineseCapital('999999999999999.995')).toThrow('金额超出转换范围'); // rounds to 1e15
    expect(() => toChineseCapital('abc')).toThrow('金额格式不正确');
  });

  it('property: equals nzh (rounded to 2 dp, 元→圆, 整 appended) for random amounts below 1e15', () => {
    const digits = fc
      .array(fc.oneof(fc.constant('0'), fc.constantFrom(...'0123456789')), { minLength: 1, maxLength: 15 })
      .map((d) => d.join('').replace(/^0+(?=\d)/, ''));
    const fraction = fc.option(
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 4 }),
    );
    const amountArb = fc
      .tuple(fc.boolean(), digits, fraction)
      .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}`)
      .filter((v) => !v.endsWith('.'));
    fc.assert(
      fc.property(amountArb, (amount) => {
        const rounded = new Dec(amount).toDecimalPlaces(2);
        fc.pre(rounded.abs().lessThan('1e15'));
        const expected = nzhMoney(amount).replace('元', '圆');
        const prefix = rounded.isNegative() && !rounded.isZero() ? '（负数）' : '';
        expect(toChineseCapital(amount)).toBe(prefix + expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('toChineseNumeral — up to 4 decimals (角分厘毫), spec §5', () => {
  const nzh4 = new Nzh({ ...Nzh.langs.b, m_u: '元角分厘毫' });

  it.each([
    ['1.0001', '壹元零壹毫'],
    ['0.1001', '壹角零壹毫'],
    ['10.0101', '壹拾元零壹分零壹毫'],
    ['123.4567', '壹佰贰拾叁元肆角伍分陆厘柒毫'],
    ['0.0005', '伍毫'],
    ['100.1', '壹佰元壹角'],
    ['5.00005', '伍元零壹毫'],
    ['-12.5', '负壹拾贰元伍角'],
  ])('%s → %s', (v, expected) => {
    expect(toChineseNumeral(v, { fractionDigits: 4 })).toBe(expected);
  });

  it('options: unit, negative prefix, fewer digits; bad fractionDigits refused', () => {
    expect(toChineseNumeral('12.345', { fractionDigits: 0 })).toBe('壹拾贰元整');
    expect(toChineseNumeral('12.35', { fractionDigits: 1, unit: '圆' })).toBe('壹拾贰圆肆角');
    expect(toChineseNumeral('-3', { negativePrefix: '（负数）' })).toBe('（负数）叁元整');
    expect(() => toChineseNumeral('1', { fractionDigits: 5 as 4 })).toThrow('小数位数须为0到4位');
    expect(() => toChineseNumeral('1e15'.replace('e15', '000000000000000'), { fractionDigits: 4 })).toThrow(
      '金额超出转换范围',
    );
  });

  it('property: equals nzh with a 厘毫 unit table for values below 1e15 with 4 decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 19n - 1n }), (n) => {
        const v = new Dec(n.toString()).div(10_000).toFixed();
        let expected = nzh4.toMoney(v, { outSymbol: false });
        if (!/[角分厘毫整]$/.test(expected)) expected += '整';
        expect(toChineseNumeral(v, { fractionDigits: 4 })).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('formatAmount / formatMoney', () => {
  it('formatAmount: two decimals, half-up, no grouping', () => {
    expect(formatAmount('1234.5')).toBe('1234.50');
    expect(formatAmount(1234.505)).toBe('1234.51');
    expect(formatAmount('0.005')).toBe('0.01');
    expect(formatAmount('-0.005')).toBe('-0.01');
    expect(formatAmount('-0.001')).toBe('0.00');
    expect(formatAmount(0.1 + 0.2)).toBe('0.30');
    expect(formatAmount('1,234')).toBe('1234.00');
    expect(formatAmount(null)).toBe('');
    expect(formatAmount('')).toBe('');
    expect(formatAmount('abc')).toBe('');
  });

  it('formatMoney: thousands separators, optional ¥', () => {
    expect(formatMoney('1234567.891')).toBe('1,234,567.89');
    expect(formatMoney('999')).toBe('999.00');
    expect(formatMoney('-1234.5', { symbol: true })).toBe('-¥1,234.50');
    expect(formatMoney(100, { symbol: true })).toBe('¥100.00');
    expect(formatMoney('12345.6789', { fractionDigits: 4 })).toBe('12,345.6789');
    expect(formatMoney('123456789012345.67')).toBe('123,456,789,012,345.67');
    expect(formatMoney(undefined)).toBe('');
  });
});

describe('toChineseNumeral / formatMoney — edges', () => {
  it('fractionDigits outside 0–4 or not whole is refused with the Chinese message', () => {
    for (const fd of [-1, 1.5, 5]) {
      expect(() => toChineseNumeral('1', { fractionDigits: fd as 2 }), String(fd)).toThrow(
        '小数位数须为0到4位',
      );
    }
  });

  it('formatAmount and formatMoney give "" for missing or unreadable input', () => {
    for (const v of [null, undefined, '', 'abc', '1e3']) {
      expect(formatAmount(v), String(v)).toBe('');
      expect(formatMoney(v, { symbol: true }), String(v)).toBe('');
    }
  });

  it('formatMoney with no decimals prints no point', () => {
    expect(formatMoney('1234567.5', { fractionDigits: 0 })).toBe('1,234,568');
    expect(formatMoney(-999.4, { fractionDigits: 0, symbol: true })).toBe('-¥999');
  });
});

describe('formatQuantity / formatUnitPrice: up to 8 decimals, trailing zeros trimmed', () => {
  it.each([
    // what the detail drawer showed raw (issue 24)
    ['2.00000000', '2'],
    ['4716.98000000', '4716.98'],
    ['9433.96226415', '9433.96226415'],
    ['0.50000000', '0.5'],
    ['100', '100'],
    ['1000000', '1000000'],
    ['12.5', '12.5'],
    // more than 8 decimals round half-up at the 8th
    ['1.123456785', '1.12345679'],
    ['1.123456784', '1.12345678'],
    ['0.000000004', '0'],
    ['-3.00000000', '-3'],
    ['-0.000000001', '0'],
    [2, '2'],
    [0.1 + 0.2, '0.3'],
    ['1,234.50', '1234.5'],
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['abc', ''],
    ['1e3', ''],
  ])('%j → %j', (value, shown) => {
    expect(formatQuantity(value as string | number | null | undefined)).toBe(shown);
    expect(formatUnitPrice(value as string | number | null | undefined)).toBe(shown);
  });

  it('amounts keep their 2 decimals beside it: the same figure differs only by the trailing zeros', () => {
    expect(formatMoney('4716.98000000')).toBe('4,716.98');
    expect(formatMoney('2.00000000')).toBe('2.00');
    expect(formatQuantity('2.00000000')).toBe('2');
  });
});
