import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BlueInvoiceRequest, blueInvoiceRequestSchema } from './invoice.ts';
import {
  AREA_UNITS,
  checkSpecificBusiness,
  ID_DOCUMENT_TYPES,
  PASSENGER_VEHICLES,
  SPECIFIC_BUSINESS_DEFS,
  SPECIFIC_BUSINESS_TAX_CLASS_PREFIXES,
} from './specific-business.ts';

// 特定业务 rules (domain.md §4) on whole blue-invoice payloads, parsed by the request schema first
// as the server does, so every field carries its default.

const BUILDING = '3050100000000000000';
const TRANSPORT = '3010101020000000000';
const RENT = '3040502020100000000';
const SOFTWARE = '3040201010000000000';

type Line = Record<string, unknown>;
const line = (tax_class_code: string, extra: Line = {}): Line => ({
  tax_class_code,
  short_name: '服务',
  name: '服务费',
  amount: '100.00',
  tax_amount: '9.00',
  amount_with_tax: '109.00',
  tax_rate: '0.09',
  ...extra,
});

const parse = (code: string | null, lines: Line[], blocks: Record<string, unknown>): BlueInvoiceRequest =>
  blueInvoiceRequestSchema.parse({
    serial_no: 'SB-SERIAL-0001',
    device_id: 1,
    invoice_type: '82',
    buyer: { title_type: 2, name: '杭州西溪数据服务有限公司' },
    goods_info: lines,
    invoice_info: {
      total_amount: '100.00',
      total_tax: '9.00',
      total_price_with_tax: '109.00',
      specific_business_code: code,
    },
    ...blocks,
  });

const building = (extra: Record<string, unknown> = {}) => ({
  place: '浙江省-杭州市-西湖区',
  project_name: '西溪园区二期',
  cross_city: 'N',
  ...extra,
});
const transport = (extra: Record<string, unknown> = {}) => ({
  vehicle_type: '公路运输',
  vehicle_no: '浙A12345',
  origin: '杭州',
  destination: '上海',
  goods_name: '电子元件',
  ...extra,
});
const rent = (extra: Record<string, unknown> = {}) => ({
  province: '浙江省',
  city: '杭州市',
  detail_address: '西湖区文三路90号',
  lease_period: '2026-01-01 2026-12-31',
  cross_city: 'N',
  certificate_no: '无',
  area_unit: '平方米',
  ...extra,
});
const rentLine = (extra: Line = {}) => line(RENT, { quantity: '120', unit: '平方米', ...extra });
const traveller = (extra: Record<string, unknown> = {}) => ({
  traveller: '张三',
  id_type: '201',
  id_no: '11010519491231002X',
  travel_date: '2026-03-01',
  origin: '杭州',
  destination: '宁波',
  vehicle_type: '3',
  ...extra,
});

const check = (code: string | null, lines: Line[], blocks: Record<string, unknown> = {}) =>
  checkSpecificBusiness(parse(code, lines, blocks));

describe('checkSpecificBusiness: no 特定业务', () => {
  it('checks nothing without a code, whatever the lines and blocks', () => {
    expect(
      check(null, [line(SOFTWARE), line('1090511030000000000')], { real_static_rent: [rent()] }),
    ).toEqual([]);
  });
});

describe('checkSpecificBusiness: goods codes of the business (domain.md §4)', () => {
  it.each([
    ['03', BUILDING, '建筑服务'],
    ['04', TRANSPORT, '货物运输服务'],
    ['06', RENT, '不动产经营租赁服务'],
    ['09', TRANSPORT, '旅客运输服务'],
  ])('%s admits %s and names its category when a line is outside it', (code, good, name) => {
    const blocks = {
      building_service: building(),
      goods_transport: [transport()],
      real_static_rent: [rent(), rent()],
      passenger_transport: [traveller()],
    };
    const goodLine = code === '06' ? rentLine() : line(good);
    const lines = code === '03' ? [goodLine] : [goodLine, { ...goodLine, tax_class_code: SOFTWARE }];
    const issues = check(code, code === '03' ? [line(SOFTWARE)] : lines, blocks);
    const at = code === '03' ? 0 : 1;
    expect(issues).toContainEqual({
      field: `goods_info.${at}.tax_class_code`,
      message: `第${at + 1}行税收分类编码不属于${name}类别`,
    });
    expect(issues.filter((i) => i.field.endsWith('tax_class_code'))).toHaveLength(1);
  });

  it('the prefixes served match the prefixes checked', () => {
    for (const def of SPECIFIC_BUSINESS_DEFS) {
      expect(def.tax_class_prefixes).toEqual(SPECIFIC_BUSINESS_TAX_CLASS_PREFIXES[def.code]);
    }
  });
});

describe('checkSpecificBusiness 03 建筑服务', () => {
  it('passes one line with a 省-市 place, 跨地 N without a number or Y with one', () => {
    expect(check('03', [line(BUILDING)], { building_service: building() })).toEqual([]);
    expect(check('03', [line(BUILDING)], { building_service: building({ place: '浙江省-杭州市' }) })).toEqual(
      [],
    );
    expect(
      check('03', [line(BUILDING)], {
        building_service: building({ cross_city: 'Y', cross_region_no: 'KQ2026-01' }),
      }),
    ).toEqual([]);
  });

  it.each([
    ['no block', [line(BUILDING)], undefined, [{ field: 'building_service', message: '请填写建筑服务信息' }]],
    [
      'two lines',
      [line(BUILDING), line(BUILDING)],
      building(),
      [{ field: 'goods_info', message: '建筑服务发票只能有一行项目明细，且不能有折扣行' }],
    ],
    [
      'a discounted line',
      [line(BUILDING, { line_kind: 2 })],
      building(),
      [{ field: 'goods_info', message: '建筑服务发票只能有一行项目明细，且不能有折扣行' }],
    ],
    [
      'a place without 市',
      [line(BUILDING)],
      building({ place: '浙江省' }),
      [
        {
          field: 'building_service.place',
          message: '建筑服务发生地须为“省-市-区县”格式，如 浙江省-杭州市-西湖区',
        },
      ],
    ],
    [
      'a place with a blank part',
      [line(BUILDING)],
      building({ place: '浙江省- -' }),
      [
        {
          field: 'building_service.place',
          message: '建筑服务发生地须为“省-市-区县”格式，如 浙江省-杭州市-西湖区',
        },
      ],
    ],
    [
      '跨地 Y without a number',
      [line(BUILDING)],
      building({ cross_city: 'Y' }),
      [
        {
          field: 'building_service.cross_region_no',
          message: '跨地（市）标志为“是”时，请填写跨区域涉税事项报验管理编号',
        },
      ],
    ],
    [
      '跨地 N with a number',
      [line(BUILDING)],
      building({ cross_city: 'N', cross_region_no: 'KQ2026-01' }),
      [
        {
          field: 'building_service.cross_region_no',
          message: '跨地（市）标志为“否”时，跨区域涉税事项报验管理编号须为空',
        },
      ],
    ],
  ])('%s', (_what, lines, block, issues) => {
    expect(check('03', lines, block ? { building_service: block } : {})).toEqual(issues);
  });
});

describe('checkSpecificBusiness 04 货物运输服务', () => {
  it('passes with one or more transport rows of a known vehicle kind', () => {
    expect(check('04', [line(TRANSPORT)], { goods_transport: [transport()] })).toEqual([]);
    expect(
      check('04', [line(TRANSPORT)], {
        goods_transport: [transport(), transport({ vehicle_type: '其他运输工具' })],
      }),
    ).toEqual([]);
  });

  it('needs at least one row, each with a vehicle kind from the list', () => {
    expect(check('04', [line(TRANSPORT)])).toEqual([
      { field: 'goods_transport', message: '请至少填写一条运输明细' },
    ]);
    expect(check('04', [line(TRANSPORT)], { goods_transport: [] })).toEqual([
      { field: 'goods_transport', message: '请至少填写一条运输明细' },
    ]);
    expect(
      check('04', [line(TRANSPORT)], { goods_transport: [transport(), transport({ vehicle_type: '马车' })] }),
    ).toEqual([{ field: 'goods_transport.1.vehicle_type', message: '第2条运输明细的运输工具种类不正确' }]);
  });
});

describe('checkSpecificBusiness 06 不动产经营租赁服务', () => {
  it('passes one rent entry per item line (discount lines excluded), dates or date-times', () => {
    expect(check('06', [rentLine()], { real_static_rent: [rent()] })).toEqual([]);
    expect(
      check(
        '06',
        [
          rentLine({ line_kind: 2 }),
          rentLine({
            line_kind: 1,
            quantity: null,
            amount: '-10.00',
            amount_with_tax: '-10.90',
            tax_amount: '-0.90',
          }),
          rentLine({ unit: '' }),
        ],
        {
          real_static_rent: [
            rent({
              lease_period: '2026-01-01 08:00 2026-01-01 18:30',
              plate_no: '浙A12345,浙B23456，浙C34567',
            }),
            rent({
              province: '浙江省',
              city: '',
              detail_address: '西溪村',
              lease_period: '2026-02-28 2026-02-28',
            }),
          ],
        },
      ),
    ).toEqual([]);
    // 直辖市 and the other province endings; the city endings
    for (const [province, city] of [
      ['上海市', '浦东新区'],
      ['广西壮族自治区', '南宁市'],
      ['香港特别行政区', '九龙城区'],
      ['内蒙古自治区', '锡林郭勒盟'],
      ['吉林省', '延边朝鲜族自治州'],
      ['黑龙江省', '大兴安岭地区'],
      ['浙江省', '淳安县'],
    ]) {
      expect(check('06', [rentLine()], { real_static_rent: [rent({ province, city })] }), province).toEqual(
        [],
      );
    }
  });

  it('counts the entries against the item lines', () => {
    expect(check('06', [rentLine(), rentLine()], { real_static_rent: [rent()] })).toEqual([
      { field: 'real_static_rent', message: '不动产租赁信息须与项目明细逐行对应（2行明细，1条信息）' },
    ]);
    expect(check('06', [rentLine()])).toEqual([
      { field: 'real_static_rent', message: '不动产租赁信息须与项目明细逐行对应（1行明细，0条信息）' },
    ]);
  });

  const one = (entry: Record<string, unknown>, lineExtra: Line = {}) =>
    check('06', [rentLine(lineExtra)], { real_static_rent: [rent(entry)] });

  it.each([
    [{ province: '杭州市' }, 'province', '第1条不动产地址（省）须以省、自治区、特别行政区结尾，或为直辖市'],
    [
      { province: '浙江省杭州' },
      'province',
      '第1条不动产地址（省）须以省、自治区、特别行政区结尾，或为直辖市',
    ],
    [
      { province: '北京市朝阳区' },
      'province',
      '第1条不动产地址（省）须以省、自治区、特别行政区结尾，或为直辖市',
    ],
    [{ city: '西湖' }, 'city', '第1条不动产地址（市）须以市、盟、自治州、地区、区或县结尾'],
    [{ city: '杭州市区北' }, 'city', '第1条不动产地址（市）须以市、盟、自治州、地区、区或县结尾'],
    [
      { detail_address: '西溪园区' },
      'detail_address',
      '第1条详细地址须包含街、路、村、乡、镇、道、巷、号之一',
    ],
    [{ lease_period: '2026-01-01' }, 'lease_period', '第1条租赁期起止格式须为“yyyy-MM-dd yyyy-MM-dd”'],
    [
      { lease_period: '2026-01-01 2026-12-31x' },
      'lease_period',
      '第1条租赁期起止格式须为“yyyy-MM-dd yyyy-MM-dd”',
    ],
    [
      { lease_period: 'x2026-01-01 2026-12-31' },
      'lease_period',
      '第1条租赁期起止格式须为“yyyy-MM-dd yyyy-MM-dd”',
    ],
    [
      { lease_period: '2026-01-01 08:00 2026-12-31' },
      'lease_period',
      '第1条租赁期起止格式须为“yyyy-MM-dd yyyy-MM-dd”',
    ],
    [
      { lease_period: '2026-12-31 2026-01-01' },
      'lease_period',
      '第1条租赁期起止日期不正确，起始日期不能晚于截止日期',
    ],
    [
      { lease_period: '2026-02-30 2026-12-31' },
      'lease_period',
      '第1条租赁期起止日期不正确，起始日期不能晚于截止日期',
    ],
    [
      { lease_period: '2026-01-01 2026-13-01' },
      'lease_period',
      '第1条租赁期起止日期不正确，起始日期不能晚于截止日期',
    ],
    [
      { lease_period: '2026-01-02 08:00 2026-01-01 18:00' },
      'lease_period',
      '第1条租赁期起止日期不正确，起始日期不能晚于截止日期',
    ],
    [
      { lease_period: '2026-02-30 08:00 2026-03-01 18:00' },
      'lease_period',
      '第1条租赁期起止日期不正确，起始日期不能晚于截止日期',
    ],
    [{ area_unit: '平米' }, 'area_unit', `第1条面积单位须为${AREA_UNITS.join('、')}之一`],
    [{ plate_no: '浙A1,浙A2,浙A3,浙A4' }, 'plate_no', '第1条车牌号最多3个，每个不超过20个字符'],
    [{ plate_no: '浙A1，浙A2，浙A3，浙A4' }, 'plate_no', '第1条车牌号最多3个，每个不超过20个字符'],
    [{ plate_no: `浙A1,${'x'.repeat(21)}` }, 'plate_no', '第1条车牌号最多3个，每个不超过20个字符'],
  ])('%j → %s: %s', (entry, field, message) => {
    // the line names no unit here, so only the entry is checked
    expect(one(entry, { unit: '' })).toEqual([{ field: `real_static_rent.0.${field}`, message }]);
  });

  it('a plate list at exactly the limits passes: 3 plates, 20 characters each, blanks ignored', () => {
    expect(one({ plate_no: `${'A'.repeat(20)},${'B'.repeat(20)}, ,${'C'.repeat(20)},` })).toEqual([]);
    expect(one({ plate_no: ` ${'A'.repeat(20)} ` })).toEqual([]);
    // spaces after a comma are not part of the plate
    expect(one({ plate_no: `${'A'.repeat(20)}， ${'B'.repeat(20)}` })).toEqual([]);
  });

  it('the item line carries the area: a quantity, and the area unit when it names one', () => {
    expect(one({}, { quantity: null })).toEqual([
      { field: 'goods_info.0.quantity', message: '第1行数量须填写租赁面积' },
    ]);
    expect(one({}, { unit: '亩' })).toEqual([
      { field: 'goods_info.0.unit', message: '第1行单位须与面积单位（平方米）一致' },
    ]);
    // the line checked is the item line matching the entry, after discount lines are skipped
    const discount = {
      line_kind: 1,
      quantity: null,
      amount: '-10.00',
      amount_with_tax: '-10.90',
      tax_amount: '-0.90',
    };
    expect(
      check(
        '06',
        [rentLine({ line_kind: 2 }), rentLine(discount), rentLine({ unit: '亩', quantity: null })],
        {
          real_static_rent: [rent(), rent()],
        },
      ),
    ).toEqual([
      { field: 'goods_info.2.quantity', message: '第3行数量须填写租赁面积' },
      { field: 'goods_info.2.unit', message: '第3行单位须与面积单位（平方米）一致' },
    ]);
  });

  it('every entry of one invoice lies in the same province, numbered from 1', () => {
    expect(
      check('06', [rentLine(), rentLine(), rentLine()], {
        real_static_rent: [rent(), rent({ province: '江苏省', city: '苏州市' }), rent({ city: '西湖' })],
      }),
    ).toEqual([
      { field: 'real_static_rent.1.province', message: '同一张发票的不动产须位于同一省份' },
      {
        field: 'real_static_rent.2.city',
        message: '第3条不动产地址（市）须以市、盟、自治州、地区、区或县结尾',
      },
    ]);
  });

  it('an entry beyond the item lines is counted, and not matched to a line', () => {
    expect(check('06', [rentLine()], { real_static_rent: [rent(), rent()] })).toEqual([
      { field: 'real_static_rent', message: '不动产租赁信息须与项目明细逐行对应（1行明细，2条信息）' },
    ]);
  });

  it('property: a lease of two real days passes exactly when it does not run backwards', () => {
    const day = fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [from, to] = [a.toISOString().slice(0, 10), b.toISOString().slice(0, 10)];
        const issues = one({ lease_period: `${from} ${to}` });
        expect(issues).toEqual(
          from <= to
            ? []
            : [
                {
                  field: 'real_static_rent.0.lease_period',
                  message: '第1条租赁期起止日期不正确，起始日期不能晚于截止日期',
                },
              ],
        );
      }),
    );
  });
});

describe('checkSpecificBusiness 09 旅客运输服务', () => {
  it('passes travellers with a valid ID card, another document, and a seat class where needed', () => {
    expect(
      check('09', [line(TRANSPORT)], {
        passenger_transport: [
          traveller(),
          traveller({ id_type: '208', id_no: 'E12345678' }),
          traveller({ vehicle_type: '7', seat_class: '二等舱' }),
          traveller({ vehicle_type: '9', seat_class: '' }),
        ],
      }),
    ).toEqual([]);
  });

  it('needs at least one traveller', () => {
    expect(check('09', [line(TRANSPORT)])).toEqual([
      { field: 'passenger_transport', message: '请至少填写一位出行人' },
    ]);
    expect(check('09', [line(TRANSPORT)], { passenger_transport: [] })).toEqual([
      { field: 'passenger_transport', message: '请至少填写一位出行人' },
    ]);
  });

  const second = (t: Record<string, unknown>) =>
    check('09', [line(TRANSPORT)], { passenger_transport: [traveller(), traveller(t)] });

  it.each([
    [{ id_type: '209' }, 'id_type', '第2位出行人的证件类型不正确'],
    [{ id_type: '101' }, 'id_type', '第2位出行人的证件类型不正确'],
    [{ id_no: '110105194912310021' }, 'id_no', '第2位出行人的身份证号码不正确'],
    [{ travel_date: '2026-02-29' }, 'travel_date', '第2位出行人的出行日期不正确'],
    [{ travel_date: '2026-00-10' }, 'travel_date', '第2位出行人的出行日期不正确'],
    [{ vehicle_type: '8' }, 'vehicle_type', '第2位出行人的交通工具类型不正确'],
    [
      { vehicle_type: '1', seat_class: '经济舱' },
      'vehicle_type',
      '飞机、火车出行请使用航空/铁路电子客票，不能开具旅客运输服务发票',
    ],
    [
      { vehicle_type: '2', seat_class: '二等座' },
      'vehicle_type',
      '飞机、火车出行请使用航空/铁路电子客票，不能开具旅客运输服务发票',
    ],
    [{ vehicle_type: '7' }, 'seat_class', '第2位出行人的等级须为一等舱、二等舱、三等舱之一'],
    [
      { vehicle_type: '7', seat_class: '经济舱' },
      'seat_class',
      '第2位出行人的等级须为一等舱、二等舱、三等舱之一',
    ],
  ])('%j → %s: %s', (t, field, message) => {
    expect(second(t)).toEqual([{ field: `passenger_transport.1.${field}`, message }]);
  });

  it('an ID number is checked only for 居民身份证 (201)', () => {
    expect(second({ id_type: '227', id_no: '110105194912310021' })).toEqual([]);
  });

  it('a plane with a wrong class says both', () => {
    expect(second({ vehicle_type: '1', seat_class: '硬座' })).toEqual([
      {
        field: 'passenger_transport.1.vehicle_type',
        message: '飞机、火车出行请使用航空/铁路电子客票，不能开具旅客运输服务发票',
      },
      {
        field: 'passenger_transport.1.seat_class',
        message: '第2位出行人的等级须为公务舱、头等舱、经济舱之一',
      },
    ]);
  });

  it('the served options are the table minus 飞机 and 火车; every document type is served', () => {
    const def = SPECIFIC_BUSINESS_DEFS.find((d) => d.code === '09')!;
    const options = (key: string) => def.fields.find((f) => f.key === key)?.options?.map((o) => o.value);
    expect(options('vehicle_type')).toEqual(
      Object.keys(PASSENGER_VEHICLES).filter((v) => v !== '1' && v !== '2'),
    );
    expect(options('id_type')).toEqual(Object.keys(ID_DOCUMENT_TYPES));
  });
});
