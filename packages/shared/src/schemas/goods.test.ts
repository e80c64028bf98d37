import { describe, expect, it } from 'vitest';
import { allowedRates, checkGoodsRate, defaultRate, goodsBodySchema, normalizeRateText } from './goods.ts';

const SOFTWARE = {
  code: '3040201010000000000',
  rates: ['0.06'],
  levy_rates: ['0.03'],
  preferential_options: ['03'],
};
const PARKING = {
  code: '3040502020200000000',
  rates: ['0.09'],
  levy_rates: ['0.05'],
  preferential_options: ['01', '03'],
};
const PREPAID = {
  code: '6010000000000000000',
  rates: ['0'],
  levy_rates: ['0'],
  preferential_options: ['04'],
};
const values = (o: { value: string }[]) => o.map((x) => x.value);

describe('allowedRates', () => {
  it('gives a general taxpayer the code rate plus 免税 when the code admits 03', () => {
    const o = allowedRates({ taxpayerType: 'general', taxClass: SOFTWARE, date: '2026-06-01' });
    expect(o.map((x) => x.label)).toEqual(['6%', '免税']);
  });

  it('adds the levy rates for a general taxpayer when the code admits 01 简易征收', () => {
    expect(values(allowedRates({ taxpayerType: 'general', taxClass: PARKING, date: '2026-06-01' }))).toEqual([
      '0.09',
      '0.05',
      '0',
    ]);
  });

  it('gives small-scale 1% and 3% until 2027-12-31 and only 3% afterwards', () => {
    expect(values(allowedRates({ taxpayerType: 'small', taxClass: SOFTWARE, date: '2027-12-31' }))).toEqual([
      '0.01',
      '0.03',
      '0',
    ]);
    expect(values(allowedRates({ taxpayerType: 'small', taxClass: SOFTWARE, date: '2028-01-01' }))).toEqual([
      '0.03',
      '0',
    ]);
    expect(values(allowedRates({ taxpayerType: 'small', taxClass: PARKING, date: '2026-06-01' }))).toEqual([
      '0.05',
      '0',
    ]);
  });

  it('allows only 不征税 for 篇6 codes', () => {
    const o = allowedRates({ taxpayerType: 'small', taxClass: PREPAID, date: '2026-06-01' });
    expect(o).toEqual([expect.objectContaining({ value: '0', label: '不征税', preferentialCode: '04' })]);
  });

  it('defaults to 1% when offered, else the first non-zero rate', () => {
    expect(defaultRate(allowedRates({ taxpayerType: 'small', taxClass: SOFTWARE, date: '2026-01-01' }))).toBe(
      '0.01',
    );
    expect(defaultRate(allowedRates({ taxpayerType: 'general', taxClass: SOFTWARE }))).toBe('0.06');
    expect(defaultRate(allowedRates({ taxpayerType: 'general', taxClass: PREPAID }))).toBe('0');
  });
});

describe('checkGoodsRate', () => {
  const options = allowedRates({ taxpayerType: 'general', taxClass: SOFTWARE });
  const check = (taxRate: string, preferentialCode = '', zeroRateFlag?: string) =>
    checkGoodsRate({ options, taxClass: SOFTWARE, taxRate, preferentialCode, zeroRateFlag });

  it('accepts an allowed rate and derives the zero-rate flag for 免税', () => {
    expect(check('0.06')).toEqual({ problems: [], zeroRateFlag: '' });
    expect(check('0', '03')).toEqual({ problems: [], zeroRateFlag: '1' });
  });

  it('names the field that is wrong', () => {
    expect(check('0.13').problems).toEqual([{ field: 'tax_rate', message: '该税收分类编码不支持所选税率' }]);
    expect(check('0').problems[0]!.field).toBe('tax_rate'); // plain 0% not among the code's rates
    expect(check('0.06', '10').problems).toEqual([
      { field: 'preferential_code', message: '该税收分类编码不支持所选优惠政策' },
    ]);
    expect(check('0', '03', '2').problems[0]!.field).toBe('tax_rate');
  });
});

describe('normalizeRateText', () => {
  it.each([
    ['6%', '0.06'],
    ['13%', '0.13'],
    ['1.5%', '0.015'],
    ['0.5%', '0.005'],
    ['0%', '0'],
    ['0.0600', '0.06'],
    ['0.00', '0'],
    ['abc', 'abc'],
  ])('%s → %s', (input, out) => {
    expect(normalizeRateText(input)).toBe(out);
  });
});

describe('goodsBodySchema', () => {
  it('trims, normalises the rate and turns an empty price into null', () => {
    const r = goodsBodySchema.parse({
      name: ' 咨询费 ',
      tax_class_code: SOFTWARE.code,
      tax_rate: '6%',
      price: '',
    });
    expect(r).toMatchObject({
      name: '咨询费',
      tax_rate: '0.06',
      price: null,
      price_includes_tax: true,
      spec: '',
    });
  });

  it('refuses a zero or malformed price', () => {
    for (const price of ['0', '0.00', '-1', '1.123456789', 'abc']) {
      const r = goodsBodySchema.safeParse({
        name: 'x',
        tax_class_code: SOFTWARE.code,
        tax_rate: '0.06',
        price,
      });
      expect(r.success, price).toBe(false);
    }
  });
});
