import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, dec, fixed, isDecimal, round2, trimmed } from './decimal.ts';

describe('dec: the one parser of money input', () => {
  it('returns a Decimal as it is, even one too small to print as a plain number', () => {
    const tiny = new Dec('1e-31');
    expect(dec(tiny)).toBe(tiny);
  });

  it('reads numbers and decimal strings (commas and spaces dropped)', () => {
    expect(dec(0.1).toFixed()).toBe('0.1');
    expect(dec(' 1,234.50 ').toFixed()).toBe('1234.5');
    expect(dec('.5').toFixed()).toBe('0.5');
    expect(dec('-3.').toFixed()).toBe('-3');
  });

  it('refuses what is not a plain number, naming the field', () => {
    expect(() => dec(Number.NaN)).toThrow('金额格式不正确');
    expect(() => dec(Number.POSITIVE_INFINITY, '单价')).toThrow('单价格式不正确');
    expect(() => dec('1e3', '数量')).toThrow('数量格式不正确');
    expect(() => dec('')).toThrow('金额格式不正确');
    expect(() => dec(null as unknown as string)).toThrow('金额格式不正确');
  });
});

describe('isDecimal', () => {
  it.each([
    ['12.50', true],
    [' 12.50 ', true],
    ['-0.5', true],
    ['.5', true],
    [12.5, true],
    [0, true],
    ['1e3', false],
    ['', false],
    ['12,5', false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [null, false],
    [undefined, false],
    [{}, false],
    [['1'], false],
  ])('%j → %s', (value, ok) => {
    expect(isDecimal(value)).toBe(ok);
  });

  it('property: without thousands separators, dec reads exactly what isDecimal accepts', () => {
    // dec also drops commas ('1,234'); isDecimal does not
    const noComma = fc
      .string({ unit: fc.constantFrom(...'0123456789.+-e ,x'.split('')) })
      .filter((s) => !s.includes(','));
    fc.assert(
      fc.property(
        fc.oneof(noComma, fc.string(), fc.double(), fc.integer()).filter((v) => !String(v).includes(',')),
        (v) => {
          if (isDecimal(v)) expect(() => dec(v as string | number)).not.toThrow();
          else expect(() => dec(v as string | number)).toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rounding: half-up, away from zero', () => {
  it('round2, fixed and trimmed', () => {
    expect(round2('1.005').toFixed()).toBe('1.01');
    expect(round2('-1.005').toFixed()).toBe('-1.01');
    expect(round2(2.675).toFixed()).toBe('2.68');
    expect(fixed('-0.001')).toBe('0.00');
    expect(trimmed('31.443333333')).toBe('31.44333333');
  });
});
