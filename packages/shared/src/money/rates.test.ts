import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from './decimal.ts';
import {
  needsSmallScaleReason,
  normalizeRate,
  PREFERENTIAL_POLICIES,
  rateLabel,
  ratesFor,
  SMALL_SCALE_REDUCED_RATE_END,
  smallScaleReductionRuns,
  TAX_RATES,
  ZERO_RATE_FLAGS,
} from './rates.ts';

describe('rates', () => {
  it('TAX_RATES: 13 9 6 5 3 1.5 1 0.5 0 with labels', () => {
    expect(TAX_RATES.map((r) => r.label)).toEqual([
      '13%',
      '9%',
      '6%',
      '5%',
      '3%',
      '1.5%',
      '1%',
      '0.5%',
      '0%',
    ]);
    for (const r of TAX_RATES) expect(rateLabel(r.value)).toBe(r.label);
  });

  it('rateLabel: 免税 / 不征税 / 0% from the zero-rate flag or the 数电 policy code', () => {
    expect(rateLabel('0.06')).toBe('6%');
    expect(rateLabel(0.015)).toBe('1.5%');
    expect(rateLabel('0', '1')).toBe('免税');
    expect(rateLabel('0', '2')).toBe('不征税');
    expect(rateLabel('0', '3')).toBe('0%');
    expect(rateLabel('0', '0')).toBe('0%');
    expect(rateLabel('0.00', '')).toBe('0%');
    expect(rateLabel('0', '', '03')).toBe('免税');
    expect(rateLabel('0', null, '04')).toBe('不征税');
    expect(rateLabel('0.06', '1')).toBe('6%');
  });

  it('normalizeRate', () => {
    expect(normalizeRate('0.130')).toBe('0.13');
    expect(normalizeRate(0.06)).toBe('0.06');
    expect(normalizeRate('0.07')).toBeNull();
    expect(normalizeRate('x')).toBeNull();
  });

  it('small-scale: 1% until 2027-12-31 (3% asks for a reason), then 3%', () => {
    expect(SMALL_SCALE_REDUCED_RATE_END).toBe('2027-12-31');
    const during = ratesFor({ taxpayerType: 'small', date: '2027-12-31' });
    expect(during.map((r) => r.label)).toEqual(['1%', '3%', '5%', '免税', '不征税']);
    expect(during.find((r) => r.value === '0.03')?.needsReason).toBe(true);
    expect(during.find((r) => r.label === '免税')).toMatchObject({
      value: '0',
      zeroRateFlag: '1',
      preferentialCode: '03',
    });
    const after = ratesFor({ taxpayerType: 'small', date: '2028-01-01' });
    expect(after.map((r) => r.label)).toEqual(['3%', '5%', '免税', '不征税']);
    expect(after.some((r) => r.needsReason)).toBe(false);
    // a Date is read in Beijing time: 2027-12-31T16:00Z is already 2028-01-01 there
    expect(ratesFor({ taxpayerType: 'small', date: new Date('2027-12-31T16:00:00Z') })[0].label).toBe('3%');
    expect(ratesFor({ taxpayerType: 'small', date: new Date('2027-12-31T15:59:59Z') })[0].label).toBe('1%');
  });

  it('small-scale 3% asks for a reason (slsm) only while the reduction runs', () => {
    expect(smallScaleReductionRuns('2027-12-31')).toBe(true);
    expect(smallScaleReductionRuns('2028-01-01')).toBe(false);
    expect(smallScaleReductionRuns(new Date('2027-12-31T15:59:59Z'))).toBe(true);
    expect(smallScaleReductionRuns(new Date('2027-12-31T16:00:00Z'))).toBe(false);
    const during = '2026-06-01';
    expect(needsSmallScaleReason({ taxpayerType: 'small', rates: ['0.01', '0.030'], date: during })).toBe(
      true,
    );
    expect(needsSmallScaleReason({ taxpayerType: 'small', rates: ['0.01', '0.05'], date: during })).toBe(
      false,
    );
    expect(needsSmallScaleReason({ taxpayerType: 'general', rates: ['0.03'], date: during })).toBe(false);
    expect(needsSmallScaleReason({ taxpayerType: undefined, rates: ['0.03'], date: during })).toBe(false);
    expect(needsSmallScaleReason({ taxpayerType: 'small', rates: ['0.03'], date: '2028-01-01' })).toBe(false);
    expect(needsSmallScaleReason({ taxpayerType: 'small', rates: ['', 'x', '0.03'], date: during })).toBe(
      true,
    );
  });

  it('general: 13 9 6 5 3 1.5 0.5 and 0% / 免税 / 不征税', () => {
    const rates = ratesFor({ taxpayerType: 'general', date: '2025-06-01' });
    expect(rates.map((r) => r.label)).toEqual([
      '13%',
      '9%',
      '6%',
      '5%',
      '3%',
      '1.5%',
      '0.5%',
      '0%',
      '免税',
      '不征税',
    ]);
    expect(rates.find((r) => r.label === '0%')?.zeroRateFlag).toBe('3');
    expect(rates.find((r) => r.label === '不征税')).toMatchObject({
      zeroRateFlag: '2',
      preferentialCode: '04',
    });
  });

  it('policy and flag tables', () => {
    expect(Object.keys(PREFERENTIAL_POLICIES)).toHaveLength(18);
    expect(PREFERENTIAL_POLICIES['03']).toBe('免税');
    expect(PREFERENTIAL_POLICIES['04']).toBe('不征税');
    expect(PREFERENTIAL_POLICIES['10']).toBe('按5%简易征收减按1.5%计征');
    expect(ZERO_RATE_FLAGS).toEqual({ '0': '出口零税率', '1': '免税', '2': '不征税', '3': '普通零税率' });
  });
});

describe('rates — whole options, instants and errors', () => {
  it('ratesFor gives whole options: no flag or policy on the taxed rates', () => {
    expect(ratesFor({ taxpayerType: 'small', date: '2028-01-01' })).toEqual([
      { value: '0.03', label: '3%', zeroRateFlag: '', preferentialCode: '' },
      { value: '0.05', label: '5%', zeroRateFlag: '', preferentialCode: '' },
      { value: '0', label: '免税', zeroRateFlag: '1', preferentialCode: '03' },
      { value: '0', label: '不征税', zeroRateFlag: '2', preferentialCode: '04' },
    ]);
  });

  it('a date with a time of day counts by its day', () => {
    expect(smallScaleReductionRuns('2027-12-31T23:59:59')).toBe(true);
    expect(smallScaleReductionRuns('2028-01-01T00:00:00')).toBe(false);
    expect(ratesFor({ taxpayerType: 'small', date: '2027-12-31T23:59:59' })[0]?.value).toBe('0.01');
    expect(ratesFor({ taxpayerType: 'small', date: '2028-01-01T00:00:00' })[0]?.value).toBe('0.03');
  });

  it('rateLabel refuses an unreadable rate with a Chinese message', () => {
    expect(() => rateLabel('6%')).toThrow('税率格式不正确');
  });

  it('normalizeRate gives the same answer for a string the second time, and for numbers and decimals', () => {
    for (let i = 0; i < 2; i++) {
      expect(normalizeRate('0.060')).toBe('0.06');
      expect(normalizeRate('0.07')).toBeNull();
      expect(normalizeRate('abc')).toBeNull();
    }
    expect(normalizeRate(0.13)).toBe('0.13');
    expect(normalizeRate(new Dec('0.015'))).toBe('0.015');
  });

  it('property: normalizeRate of any string is what a fresh parse gives, however many strings came before', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...TAX_RATES.map((t) => t.value), '0.130', '.06'), fc.string()), {
          maxLength: 300,
        }),
        (rates) => {
          for (const r of rates) {
            const expected =
              TAX_RATES.find(
                (t) => /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(r.trim()) && new Dec(r.trim()).equals(t.value),
              )?.value ?? null;
            expect(normalizeRate(r)).toBe(expected);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
