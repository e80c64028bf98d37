import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ratesFor } from '../money/rates.ts';
import {
  allowedRates,
  checkGoodsRate,
  defaultRate,
  fullGoodsName,
  goodsBodySchema,
  normalizeRateText,
  pageOf,
  preferentialLabel,
  toRateOptionItem,
} from './goods.ts';

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

describe('allowedRates: narrowing by the goods code', () => {
  it('without a code offers everything the taxpayer may use', () => {
    expect(allowedRates({ taxpayerType: 'general', date: '2026-06-01' })).toEqual(
      ratesFor({ taxpayerType: 'general', date: '2026-06-01' }),
    );
    expect(allowedRates({ taxpayerType: 'small', taxClass: null, date: '2028-01-01' })).toEqual(
      ratesFor({ taxpayerType: 'small', date: '2028-01-01' }),
    );
  });

  it('篇6 codes (first digit 6) take only 不征税, for general taxpayers too; a 6 elsewhere does not count', () => {
    expect(allowedRates({ taxpayerType: 'general', taxClass: PREPAID, date: '2026-06-01' })).toEqual([
      expect.objectContaining({ value: '0', label: '不征税', zeroRateFlag: '2', preferentialCode: '04' }),
    ]);
    const endsIn6 = { ...SOFTWARE, code: '3040201010000000006' };
    expect(values(allowedRates({ taxpayerType: 'general', taxClass: endsIn6, date: '2026-06-01' }))).toEqual([
      '0.06',
      '0',
    ]);
  });

  it('plain 0% (普通零税率) only when the code lists 0 among its rates', () => {
    const export0 = {
      code: '1090511030000000000',
      rates: ['0.13', '0'],
      levy_rates: [],
      preferential_options: [],
    };
    expect(allowedRates({ taxpayerType: 'general', taxClass: export0, date: '2026-06-01' })).toEqual([
      expect.objectContaining({ value: '0.13', zeroRateFlag: '' }),
      expect.objectContaining({ value: '0', label: '0%', zeroRateFlag: '3', preferentialCode: '' }),
    ]);
  });
});

describe('defaultRate', () => {
  const o = (...vals: string[]) =>
    vals.map((value) => ({ value, label: value, zeroRateFlag: '', preferentialCode: '' }) as const);
  it.each([
    [o('0.03', '0.01', '0.05'), '0.01'],
    [o('0', '0.06'), '0.06'],
    [o('0', '0.13', '0.01'), '0.01'],
    [o('0'), '0'],
    [o(), null],
  ])('%j → %s', (options, expected) => {
    expect(defaultRate(options)).toBe(expected);
  });
});

describe('rate options as the API sends them', () => {
  it('toRateOptionItem: snake_case, needs_reason always a boolean', () => {
    const [one, three] = ratesFor({ taxpayerType: 'small', date: '2026-06-01' });
    expect(toRateOptionItem(one!)).toEqual({
      value: '0.01',
      label: '1%',
      zero_rate_flag: '',
      preferential_code: '',
      needs_reason: false,
    });
    expect(toRateOptionItem(three!)).toEqual({
      value: '0.03',
      label: '3%',
      zero_rate_flag: '',
      preferential_code: '',
      needs_reason: true,
    });
    expect(
      toRateOptionItem({ value: '0', label: '免税', zeroRateFlag: '1', preferentialCode: '03' }),
    ).toEqual({
      value: '0',
      label: '免税',
      zero_rate_flag: '1',
      preferential_code: '03',
      needs_reason: false,
    });
  });

  it('preferentialLabel names known policies and echoes unknown codes', () => {
    expect(preferentialLabel('03')).toBe('免税');
    expect(preferentialLabel('10')).toBe('按5%简易征收减按1.5%计征');
    expect(preferentialLabel('99')).toBe('99');
  });
});

describe('checkGoodsRate: every outcome, whole answers', () => {
  const general =
    (taxClass: typeof SOFTWARE) =>
    (taxRate: string, preferentialCode = '', zeroRateFlag?: string) =>
      checkGoodsRate({
        options: allowedRates({ taxpayerType: 'general', taxClass, date: '2026-06-01' }),
        taxClass,
        taxRate,
        preferentialCode,
        zeroRateFlag,
      });
  const none = { problems: [], zeroRateFlag: '' };
  const rateNotAllowed = {
    problems: [{ field: 'tax_rate', message: '该税收分类编码不支持所选税率' }],
    zeroRateFlag: '',
  };
  const policyRate = {
    problems: [{ field: 'preferential_code', message: '所选优惠政策与税率不匹配' }],
    zeroRateFlag: '',
  };
  const policyNotAllowed = {
    problems: [{ field: 'preferential_code', message: '该税收分类编码不支持所选优惠政策' }],
    zeroRateFlag: '',
  };
  const ZERO_EXPORT = {
    code: '1090511030000000000',
    rates: ['0.13', '0'],
    levy_rates: [],
    preferential_options: ['03'],
  };

  it('rate 0 derives the flag from the policy: 03 → 1, 04 → 2, none → 3', () => {
    expect(general(SOFTWARE)('0', '03')).toEqual({ problems: [], zeroRateFlag: '1' });
    expect(general(PREPAID)('0', '04')).toEqual({ problems: [], zeroRateFlag: '2' });
    expect(general(PREPAID)('0%', '04')).toEqual({ problems: [], zeroRateFlag: '2' });
    expect(general(ZERO_EXPORT)('0', '')).toEqual({ problems: [], zeroRateFlag: '3' });
    expect(general(ZERO_EXPORT)('0.00', '')).toEqual({ problems: [], zeroRateFlag: '3' });
  });

  it('rate 0 with a policy that is not 免税/不征税, or a flag the code does not offer, is refused', () => {
    expect(general(PARKING)('0', '01')).toEqual(rateNotAllowed);
    expect(general(SOFTWARE)('0', '')).toEqual(rateNotAllowed);
    expect(general(SOFTWARE)('0', '04')).toEqual(rateNotAllowed);
    expect(general(SOFTWARE)('0', '03', '2')).toEqual(rateNotAllowed);
  });

  it('rate 0 with a policy other than 03/04 has no zero-rate flag, even where the code offers plain 0%', () => {
    expect(general({ ...ZERO_EXPORT, preferential_options: ['01'] })('0', '01')).toEqual(rateNotAllowed);
  });

  it('rate 0 with a flag whose policy differs from the one chosen is a policy mismatch', () => {
    expect(general(SOFTWARE)('0', '', '1')).toEqual(policyRate);
    expect(general(ZERO_EXPORT)('0', '03', '3')).toEqual(policyRate);
  });

  it('a non-zero rate must be offered', () => {
    expect(general(SOFTWARE)('0.13')).toEqual(rateNotAllowed);
    expect(general(SOFTWARE)('6%')).toEqual(none);
  });

  it('a policy must be admitted by the code and match the rate', () => {
    // 01 简易征收 on a parking code: its levy rate 5%, not the 9% rate
    expect(general(PARKING)('0.05', '01')).toEqual(none);
    expect(general(PARKING)('0.09', '01')).toEqual(policyRate);
    expect(general(PARKING)('0.09', '03')).toEqual(policyRate);
    expect(general(PARKING)('0.09', '08')).toEqual(policyNotAllowed);
    // a policy without a rate table keeps the code's rate
    const withPolicy05 = { ...SOFTWARE, preferential_options: ['05'] };
    expect(general(withPolicy05)('0.06', '05')).toEqual(none);
  });
});

describe('normalizeRateText: only whole percentages and plain decimals are rewritten', () => {
  it.each([
    [' 6% ', '0.06'],
    ['1.25%', '0.0125'],
    ['1.125%', '0.01125'],
    ['99%', '0.99'],
    ['x6%', 'x6%'],
    ['6%x', '6%x'],
    ['100%', '100%'],
    ['1.1234%', '1.1234%'],
    ['0', '0'],
    ['00', '0'],
    ['006', '6'],
    ['10', '10'],
    ['100', '100'],
    ['00.06', '0.06'],
    ['000.5', '0.5'],
    ['0.50', '0.5'],
    ['10.0', '10'],
    ['x1.50', 'x1.50'],
    ['00.06x', '00.06x'],
    ['0.', '0.'],
    ['.5', '.5'],
  ])('%j → %j', (input, out) => {
    expect(normalizeRateText(input)).toBe(out);
  });

  it('property: a percentage with up to 3 decimals equals the decimal it names', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999 }), (thousandths) => {
        const pct = `${Math.floor(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, '0')}%`;
        expect(Number(normalizeRateText(pct))).toBeCloseTo(thousandths / 100_000, 12);
        expect(normalizeRateText(pct)).toMatch(/^(0|0\.\d*[1-9])$/);
      }),
    );
  });
});

describe('goodsBodySchema: price and rate', () => {
  const body = (extra: Record<string, unknown>) => ({
    name: '咨询费',
    tax_class_code: SOFTWARE.code,
    tax_rate: '6%',
    ...extra,
  });
  const message = (extra: Record<string, unknown>) =>
    goodsBodySchema.safeParse(body(extra)).error?.issues[0]?.message;

  it('a price may be left out, or be any positive number with up to 8 decimals', () => {
    expect(goodsBodySchema.parse(body({})).price).toBeNull();
    expect(goodsBodySchema.parse(body({ price: null })).price).toBeNull();
    expect(goodsBodySchema.parse(body({ price: ' 12.5 ' })).price).toBe('12.5');
    expect(goodsBodySchema.parse(body({ price: '0.00000001' })).price).toBe('0.00000001');
    expect(message({ price: '0.000000001' })).toBe('单价须为大于0的数字，最多8位小数');
  });

  it('a rate is 0 or 0.xxxx after normalising, else 税率格式不正确', () => {
    expect(goodsBodySchema.parse(body({ tax_rate: '0' })).tax_rate).toBe('0');
    expect(goodsBodySchema.parse(body({ tax_rate: '0.0125' })).tax_rate).toBe('0.0125');
    expect(goodsBodySchema.parse(body({ tax_rate: '1.5%' })).tax_rate).toBe('0.015');
    for (const bad of ['10', '0.06x', '1.125%', '0.000001', '1', 'abc']) {
      expect(message({ tax_rate: bad }), bad).toBe('税率格式不正确');
    }
    expect(message({ tax_rate: ' ' })).toBe('请选择税率');
  });
});

describe('goods list answers and printed names', () => {
  it('pageOf: a page is { list, total } of the item schema', () => {
    const page = pageOf(z.object({ id: z.number() }));
    expect(page.parse({ list: [{ id: 1 }], total: 31 })).toEqual({ list: [{ id: 1 }], total: 31 });
    expect(page.safeParse({ list: [{ id: 'x' }], total: 31 }).success).toBe(false);
    expect(page.safeParse({ list: [] }).success).toBe(false);
  });

  it('fullGoodsName prints *简称*名称', () => {
    expect(fullGoodsName('信息技术服务', '软件开发费')).toBe('*信息技术服务*软件开发费');
  });
});
