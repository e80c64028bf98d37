import {
  BATCH_KIND_ALIASES,
  type BatchIssue,
  type BlueInvoiceRequest,
  INVOICE_TYPES,
  PREFERENTIAL_POLICIES,
  usccCheckChar,
} from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import {
  type BuildContext,
  buildBatch,
  PLACEHOLDER_SERIAL,
  parseBuyerType,
  parseKind,
  parsePolicy,
  parseRate,
  parseYesNo,
} from './build.ts';
import type { SheetRow } from './parse.ts';

/** A valid 统一社会信用代码 of the buyer (check character N). */
const BUYER = '91330100MA2B3C4D5N';
const SELLER = `91110108MA01B2C3D${usccCheckChar('91110108MA01B2C3D')}`;
/** In the code library: 信息技术服务. */
const CODE = '3040201010000000000';
/** In the code library as a summary code. */
const SUMMARY = '3040200000000000000';
/** Not in the code library. */
const UNKNOWN_CODE = '1090511030000000000';

function context(over: Partial<BuildContext> = {}): BuildContext {
  return {
    deviceInvoiceTypes: ['82', '81', '026', '007'],
    perInvoiceLimit: '100000',
    defaultType: '82',
    seller: { taxCode: SELLER, taxpayerType: 'general' },
    taxClasses: new Map([
      [CODE, { shortName: '信息技术服务', isSummary: false }],
      [SUMMARY, { shortName: '信息技术', isSummary: true }],
    ]),
    sendEmail: false,
    now: new Date('2025-06-01T04:00:00Z'),
    ...over,
  };
}

/** Cell texts by column key; `undefined` leaves the column out of the row. */
type Cells = Record<string, string | undefined>;
const row = (n: number, values: Cells): SheetRow => ({
  row: n,
  values: Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined)),
});

/** A row of 发票信息: serial A1, enterprise buyer with a tax code, everything else left out. */
const invoice = (over: Cells = {}, n = 2): SheetRow =>
  row(n, {
    serial: 'A1',
    buyer_type: '企业',
    buyer_name: '杭州测试客户有限公司',
    buyer_tax_code: BUYER,
    ...over,
  });
/** A row of 商品明细 of A1: a library code, 106.00 at 6%. */
const item = (over: Cells = {}, n = 7): SheetRow =>
  row(n, { serial: 'A1', name: '软件开发服务', tax_class_code: CODE, amount: '106', rate: '6%', ...over });

const invIssue = (n: number, column: string, message: string): BatchIssue => ({
  sheet: '发票信息',
  row: n,
  column,
  message,
});
const lineIssue = (n: number, column: string, message: string): BatchIssue => ({
  sheet: '商品明细',
  row: n,
  column,
  message,
});

const build = (invoices: SheetRow[], lines: SheetRow[], over: Partial<BuildContext> = {}) =>
  buildBatch({ invoices, lines }, context(over));
const issuesOf = (invoices: SheetRow[], lines: SheetRow[], over: Partial<BuildContext> = {}) =>
  build(invoices, lines, over).issues;
/** The only request of the only invoice built (fails the test when there is not exactly one). */
function onlyRequest(invoices: SheetRow[], lines: SheetRow[], over: Partial<BuildContext> = {}) {
  const r = build(invoices, lines, over);
  expect(r.issues).toEqual([]);
  expect(r.invoices).toHaveLength(1);
  expect(r.invoices[0]!.parts).toHaveLength(1);
  return r.invoices[0]!.parts[0]!;
}

const EMPTY_SELLER = { name: '', tax_code: '', address: '', phone: '', bank_name: '', bank_account: '' };

describe('parseKind', () => {
  it.each([
    ['82', '82'],
    ['81', '81'],
    ['026', '026'],
    ['028', '028'],
    ['007', '007'],
    ['004', '004'],
    ['025', '025'],
    ['032', '032'],
  ])('reads the code %s', (text, code) => {
    expect(parseKind(text)).toBe(code);
  });

  // the short names earlier templates listed (issue 24 item 4: no longer offered, still read)
  it.each(Object.entries(BATCH_KIND_ALIASES))('reads the earlier template label %s', (text, code) => {
    expect(parseKind(text)).toBe(code);
  });

  it.each([
    ['电子发票（增值税专用发票）', '81'],
    ['电子发票（普通发票）', '82'],
    ['增值税专用发票', '004'],
    ['增值税普通发票', '007'],
    ['增值税普通发票（卷式）', '025'],
    ['增值税电子普通发票', '026'],
    ['增值税电子专用发票', '028'],
    ['区块链电子发票', '032'],
  ])('reads the full name %s', (text, code) => {
    expect(parseKind(text)).toBe(code);
  });

  it.each([
    [' 增值税 普通发票 ', '007'],
    ['电子发票 （普通发票）', '82'],
    ['\t026\n', '026'],
  ])('ignores whitespace in %j', (text, code) => {
    expect(parseKind(text)).toBe(code);
  });

  it.each([
    ['电子发票（普通发票）(82)', '82'],
    ['电子发票（增值税专用发票）（81）', '81'],
    ['x(82)y', '82'],
    ['x（026）y', '026'],
    ['x(028）y', '028'],
    ['x（004)y', '004'],
    ['82-电子发票（普通发票）', '82'],
    ['(007-增值税普通发票', '007'],
    ['增值税专用发票(004', '004'],
    ['（025', '025'],
    ['82)', '82'],
    ['032-', '032'],
  ])('finds the code inside %j', (text, code) => {
    expect(parseKind(text)).toBe(code);
  });

  it.each([
    [''],
    ['发票'],
    ['普票'],
    ['8'],
    ['99'],
    ['(99)'],
    ['820'],
    ['0082'],
    ['(0820)'],
    ['82增值税普通发票'],
    ['a82'],
    ['增值税普通发票 82'],
    ['(82x'],
    ['x82)'],
    ['８２'],
    ['(8)'],
  ])('refuses %j', (text) => {
    expect(parseKind(text)).toBeNull();
  });
});

describe('parseBuyerType', () => {
  it.each([
    ['企业', 2],
    ['2', 2],
    ['企业单位', 2], // glossary-allow: an earlier wording, still read
    ['单位', 2],
    [' 企 业 ', 2],
    ['个人', 1],
    ['1', 1],
    ['个人/政府事业单位', 1], // glossary-allow: an earlier wording, still read
    ['政府事业单位', 1],
    ['非企业', 1],
    ['\t个人\n', 1],
  ])('reads %j as %i', (text, type) => {
    expect(parseBuyerType(text)).toBe(type);
  });

  it.each([[''], ['3'], ['0'], ['公司'], ['个体'], ['企业/个人'], ['company'], ['２']])(
    'refuses %j',
    (text) => {
      expect(parseBuyerType(text)).toBeNull();
    },
  );
});

describe('parseYesNo', () => {
  it.each([
    [''],
    ['  '],
    ['是'],
    [' 是 '],
    ['y'],
    ['Y'],
    ['yes'],
    ['YES'],
    ['Yes'],
    ['1'],
    ['true'],
    ['TRUE'],
    ['True'],
    ['含税'],
    ['含 税'],
  ])('reads %j as yes', (text) => {
    expect(parseYesNo(text)).toBe(true);
  });

  it.each([
    ['否'],
    [' 否 '],
    ['n'],
    ['N'],
    ['no'],
    ['NO'],
    ['No'],
    ['0'],
    ['false'],
    ['FALSE'],
    ['不含税'],
    ['不 含税'],
  ])('reads %j as no', (text) => {
    expect(parseYesNo(text)).toBe(false);
  });

  it.each([['maybe'], ['2'], ['是否'], ['含'], ['不'], ['ok'], ['yes!'], ['１']])('refuses %j', (text) => {
    expect(parseYesNo(text)).toBeNull();
  });
});

describe('parseRate', () => {
  const rate = (r: string, zeroRateFlag: '' | '3' = '') => ({ rate: r, zeroRateFlag, preferentialCode: '' });

  it.each([
    ['13%', '0.13'],
    ['9%', '0.09'],
    ['6%', '0.06'],
    ['5%', '0.05'],
    ['3%', '0.03'],
    ['1.5%', '0.015'],
    ['1%', '0.01'],
    ['0.5%', '0.005'],
    ['13.0%', '0.13'],
    ['06%', '0.06'],
  ])('reads the percentage %s', (text, value) => {
    expect(parseRate(text)).toEqual(rate(value));
  });

  it.each([
    ['0.13', '0.13'],
    ['0.09', '0.09'],
    ['0.06', '0.06'],
    ['0.05', '0.05'],
    ['0.03', '0.03'],
    ['0.015', '0.015'],
    ['0.01', '0.01'],
    ['0.005', '0.005'],
    ['0.130', '0.13'],
  ])('reads the fraction %s', (text, value) => {
    expect(parseRate(text)).toEqual(rate(value));
  });

  it.each([
    ['13', '0.13'],
    ['9', '0.09'],
    ['6', '0.06'],
    ['5', '0.05'],
    ['3', '0.03'],
    ['1.5', '0.015'],
    ['1', '0.01'],
    ['1.0', '0.01'],
  ])('reads the number %s (1 or more) as a percentage', (text, value) => {
    expect(parseRate(text)).toEqual(rate(value));
  });

  it.each([['0%'], ['0'], ['0.00'], ['0.0%'], [' 0 % ']])('reads %j as the ordinary zero rate', (text) => {
    expect(parseRate(text)).toEqual(rate('0', '3'));
  });

  it.each([
    [' 13 % ', '0.13'],
    ['\t6%\n', '0.06'],
  ])('ignores whitespace in %j', (text, value) => {
    expect(parseRate(text)).toEqual(rate(value));
  });

  it.each([['免税'], [' 免 税 ']])('reads %j as exempt', (text) => {
    expect(parseRate(text)).toEqual({ rate: '0', zeroRateFlag: '1', preferentialCode: '03' });
  });

  it.each([['不征税'], ['不 征税']])('reads %j as not taxable', (text) => {
    expect(parseRate(text)).toEqual({ rate: '0', zeroRateFlag: '2', preferentialCode: '04' });
  });

  it.each([
    [''],
    ['7%'],
    ['7'],
    ['2'],
    ['0.5'],
    ['0.07'],
    ['0.13%'],
    ['100'],
    ['100%'],
    ['13%%'],
    ['-13%'],
    ['-0.13'],
    ['.13'],
    ['13.'],
    ['13％'],
    ['１３%'],
    ['%'],
    ['abc'],
    ['免税%'],
    ['0%免税'],
    ['13%税率'],
  ])('refuses %j', (text) => {
    expect(parseRate(text)).toBeNull();
  });
});

describe('parsePolicy', () => {
  it.each([[''], [' '], ['\t']])('reads %j as no policy', (text) => {
    expect(parsePolicy(text)).toBe('');
  });

  it.each([
    ['01', '01'],
    ['1', '01'],
    ['9', '09'],
    ['09', '09'],
    ['10', '10'],
    ['18', '18'],
    ['01-简易征收', '01'],
    ['1-简易征收', '01'],
    ['03-免税', '03'],
    ['3-', '03'],
    ['10-按5%简易征收减按1.5%计征', '10'],
    ['18-超税负6%即征即退', '18'],
    [' 04 - 不征税 ', '04'],
    ['07-任何文字', '07'],
  ])('reads the code in %j', (text, code) => {
    expect(parsePolicy(text)).toBe(code);
  });

  it.each(Object.entries(PREFERENTIAL_POLICIES).map(([code, name]) => [name, code] as [string, string]))(
    'reads the name %s',
    (text, code) => {
      expect(parsePolicy(text)).toBe(code);
    },
  );

  it.each([
    ['100%先征后退', '06'],
    ['50%先征后退', '07'],
    ['简易 征收', '01'],
    [' 免税 ', '03'],
  ])('reads the name %j (digits that are no code)', (text, code) => {
    expect(parsePolicy(text)).toBe(code);
  });

  it.each([
    ['0'],
    ['00'],
    ['19'],
    ['99'],
    ['100'],
    ['001'],
    ['01简易征收'],
    ['-01'],
    ['简易'],
    ['免税政策'],
    ['abc'],
    ['０１'],
  ])('refuses %j', (text) => {
    expect(parsePolicy(text)).toBeNull();
  });
});

describe('buildBatch: requests built', () => {
  it('builds an enterprise invoice with the page kind, tax-inclusive prices and the library short name', () => {
    const result = build([invoice({}, 5)], [item({ quantity: '2', price: '530', amount: undefined }, 9)]);
    expect(result).toEqual({
      issues: [],
      invoices: [
        {
          sourceSerial: 'A1',
          sourceRow: 5,
          reasons: [],
          totalAmount: '1000.00',
          parts: [
            {
              serial_no: PLACEHOLDER_SERIAL,
              device_id: 1,
              invoice_type: '82',
              buyer: {
                title_type: 2,
                name: '杭州测试客户有限公司',
                tax_code: BUYER,
                email: '',
                mobile: '',
                address: '',
                phone: '',
                bank_name: '',
                bank_account: '',
              },
              seller: EMPTY_SELLER,
              goods_info: [
                {
                  line_kind: 0,
                  goods_id: null,
                  tax_class_code: CODE,
                  short_name: '信息技术服务',
                  name: '软件开发服务',
                  spec: '',
                  unit: '',
                  quantity: '2',
                  price: '530',
                  amount: '1000.00',
                  tax_amount: '60.00',
                  amount_with_tax: '1060.00',
                  tax_rate: '0.06',
                  preferential_code: '',
                  zero_rate_flag: '',
                },
              ],
              invoice_info: {
                price_includes_tax: true,
                total_amount: '1000.00',
                total_tax: '60.00',
                total_price_with_tax: '1060.00',
                remark: '',
                specific_business_code: null,
                drawer: '',
                payee: '',
                reviewer: '',
              },
              send_email: false,
            },
          ],
        },
      ],
    });
  });

  it('builds every invoice field of the row: kind, buyer details, tax-exclusive prices, remark and people', () => {
    const request = onlyRequest(
      [
        invoice(
          {
            serial: 'INV-001',
            kind: INVOICE_TYPES['026'],
            buyer_tax_code: BUYER.toLowerCase(),
            buyer_address: '杭州市西湖区文三路1号',
            buyer_phone: '0571-88888888',
            buyer_bank_name: '招商银行杭州分行',
            buyer_bank_account: '571900000000001',
            buyer_email: 'finance@example.com',
            buyer_mobile: '13800138000',
            price_includes_tax: '否',
            remark: '合同号 HT-2025-01',
            drawer: '张三',
            payee: '李四',
            reviewer: '王五',
          },
          3,
        ),
      ],
      [
        item(
          { serial: 'INV-001', spec: 'V2', unit: '项', quantity: '3', price: '100', amount: undefined },
          4,
        ),
        item(
          {
            serial: 'INV-001',
            name: '技术咨询',
            tax_class_code: UNKNOWN_CODE,
            short_name: '咨询服务',
            amount: '50',
            rate: '免税',
          },
          5,
        ),
        item(
          {
            serial: 'INV-001',
            name: '服务器',
            short_name: '计算机',
            quantity: '2',
            amount: '226',
            rate: '13%',
          },
          6,
        ),
      ],
      { sendEmail: true },
    );
    expect(request).toEqual({
      serial_no: PLACEHOLDER_SERIAL,
      device_id: 1,
      invoice_type: '026',
      buyer: {
        title_type: 2,
        name: '杭州测试客户有限公司',
        tax_code: BUYER,
        email: 'finance@example.com',
        mobile: '13800138000',
        address: '杭州市西湖区文三路1号',
        phone: '0571-88888888',
        bank_name: '招商银行杭州分行',
        bank_account: '571900000000001',
      },
      seller: EMPTY_SELLER,
      goods_info: [
        {
          line_kind: 0,
          goods_id: null,
          tax_class_code: CODE,
          short_name: '信息技术服务',
          name: '软件开发服务',
          spec: 'V2',
          unit: '项',
          quantity: '3',
          price: '100',
          amount: '300.00',
          tax_amount: '18.00',
          amount_with_tax: '318.00',
          tax_rate: '0.06',
          preferential_code: '',
          zero_rate_flag: '',
        },
        {
          line_kind: 0,
          goods_id: null,
          tax_class_code: UNKNOWN_CODE,
          short_name: '咨询服务',
          name: '技术咨询',
          spec: '',
          unit: '',
          quantity: null,
          price: null,
          amount: '50.00',
          tax_amount: '0.00',
          amount_with_tax: '50.00',
          tax_rate: '0',
          preferential_code: '03',
          zero_rate_flag: '1',
        },
        {
          line_kind: 0,
          goods_id: null,
          tax_class_code: CODE,
          short_name: '计算机',
          name: '服务器',
          spec: '',
          unit: '',
          quantity: '2',
          price: '113',
          amount: '226.00',
          tax_amount: '29.38',
          amount_with_tax: '255.38',
          tax_rate: '0.13',
          preferential_code: '',
          zero_rate_flag: '',
        },
      ],
      invoice_info: {
        price_includes_tax: false,
        total_amount: '576.00',
        total_tax: '47.38',
        total_price_with_tax: '623.38',
        remark: '合同号 HT-2025-01',
        specific_business_code: null,
        drawer: '张三',
        payee: '李四',
        reviewer: '王五',
      },
      send_email: true,
    });
  });

  it('builds a personal buyer without a tax code', () => {
    const request = onlyRequest(
      [invoice({ buyer_type: '个人', buyer_name: '张三', buyer_tax_code: undefined })],
      [item()],
    );
    expect(request.buyer).toEqual({
      title_type: 1,
      name: '张三',
      tax_code: '',
      email: '',
      mobile: '',
      address: '',
      phone: '',
      bank_name: '',
      bank_account: '',
    });
  });

  it.each([
    ['left out', undefined, '026', '026'],
    ['empty', '', '007', '007'],
    ['a name', INVOICE_TYPES['007'], '026', '007'],
    ['a code', '82', '026', '82'],
    ['a full name', '增值税电子普通发票', '82', '026'],
  ])('takes the kind from the row or the page default (kind %s)', (_, kind, defaultType, expected) => {
    expect(onlyRequest([invoice({ kind })], [item()], { defaultType }).invoice_type).toBe(expected);
  });

  it.each([
    ['left out', undefined, true],
    ['empty', '', true],
    ['是', '是', true],
    ['否', '否', false],
    ['N', 'N', false],
  ])('reads 单价金额含税 %s', (_, text, includes) => {
    expect(
      onlyRequest([invoice({ price_includes_tax: text })], [item()]).invoice_info.price_includes_tax,
    ).toBe(includes);
  });

  it.each<[string, string, Cells, Partial<BlueInvoiceRequest['goods_info'][number]>]>([
    [
      'an amount alone, tax-inclusive',
      '是',
      { amount: '106' },
      { quantity: null, price: null, amount: '100.00', tax_amount: '6.00', amount_with_tax: '106.00' },
    ],
    [
      'an amount alone, tax-exclusive',
      '否',
      { amount: '106' },
      { quantity: null, price: null, amount: '106.00', tax_amount: '6.36', amount_with_tax: '112.36' },
    ],
    [
      'quantity and amount, tax-inclusive: the price includes tax',
      '是',
      { quantity: '4', amount: '106' },
      { quantity: '4', price: '26.5', amount: '100.00', tax_amount: '6.00', amount_with_tax: '106.00' },
    ],
    [
      'quantity and amount, tax-exclusive: the price excludes tax',
      '否',
      { quantity: '4', amount: '106' },
      { quantity: '4', price: '26.5', amount: '106.00', tax_amount: '6.36', amount_with_tax: '112.36' },
    ],
    [
      'price and amount: the quantity is derived',
      '是',
      { price: '26.5', amount: '106' },
      { quantity: '4', price: '26.5', amount: '100.00', tax_amount: '6.00', amount_with_tax: '106.00' },
    ],
    [
      'quantity and price: the amount is derived',
      '否',
      { quantity: '3', price: '100', amount: undefined },
      { quantity: '3', price: '100', amount: '300.00', tax_amount: '18.00', amount_with_tax: '318.00' },
    ],
    [
      'quantity, price and an amount 0.01 above: quantity × price wins',
      '是',
      { quantity: '2', price: '530', amount: '1060.01' },
      { quantity: '2', price: '530', amount: '1000.00', tax_amount: '60.00', amount_with_tax: '1060.00' },
    ],
    [
      'quantity, price and an amount 0.01 below',
      '是',
      { quantity: '2', price: '530', amount: '1059.99' },
      { quantity: '2', price: '530', amount: '1000.00', amount_with_tax: '1060.00' },
    ],
    [
      'quantity, price and an amount 0.01 above, tax-exclusive',
      '否',
      { quantity: '2', price: '100', amount: '200.01' },
      { quantity: '2', price: '100', amount: '200.00', tax_amount: '12.00', amount_with_tax: '212.00' },
    ],
    [
      'thousands separators',
      '是',
      { quantity: '1,000', price: '1.06', amount: '1,060.00' },
      { quantity: '1000', price: '1.06', amount: '1000.00', amount_with_tax: '1060.00' },
    ],
    [
      'a quantity with 8 decimals',
      '是',
      { quantity: '1.12345678', price: '100', amount: undefined },
      {
        quantity: '1.12345678',
        price: '100',
        amount: '105.99',
        tax_amount: '6.36',
        amount_with_tax: '112.35',
      },
    ],
    [
      'a price with 8 decimals',
      '是',
      { quantity: '1000', price: '0.12345678', amount: undefined },
      {
        quantity: '1000',
        price: '0.12345678',
        amount: '116.47',
        tax_amount: '6.99',
        amount_with_tax: '123.46',
      },
    ],
    [
      'an amount of one cent',
      '是',
      { amount: '0.01' },
      { amount: '0.01', tax_amount: '0.00', amount_with_tax: '0.01' },
    ],
    ['spec and unit', '是', { spec: 'X-1', unit: '套' }, { spec: 'X-1', unit: '套' }],
    [
      'a short name of its own over the library one',
      '是',
      { short_name: '软件服务' },
      { tax_class_code: CODE, short_name: '软件服务' },
    ],
    [
      'a code outside the library with its short name',
      '是',
      { tax_class_code: UNKNOWN_CODE, short_name: '计算机' },
      { tax_class_code: UNKNOWN_CODE, short_name: '计算机' },
    ],
    [
      'a name of 600 characters and a short name of 120',
      '是',
      { name: '名'.repeat(600), short_name: '简'.repeat(120) },
      { name: '名'.repeat(600), short_name: '简'.repeat(120) },
    ],
    [
      'exempt',
      '是',
      { rate: '免税' },
      {
        tax_rate: '0',
        zero_rate_flag: '1',
        preferential_code: '03',
        amount: '106.00',
        tax_amount: '0.00',
        amount_with_tax: '106.00',
      },
    ],
    [
      'not taxable',
      '是',
      { rate: '不征税' },
      { tax_rate: '0', zero_rate_flag: '2', preferential_code: '04', tax_amount: '0.00' },
    ],
    [
      'not taxable on a 6… code',
      '是',
      { tax_class_code: '6000000000000000000', short_name: '预付卡销售', rate: '不征税' },
      { tax_class_code: '6000000000000000000', tax_rate: '0', zero_rate_flag: '2', preferential_code: '04' },
    ],
    [
      'the ordinary zero rate',
      '是',
      { rate: '0%' },
      { tax_rate: '0', zero_rate_flag: '3', preferential_code: '', tax_amount: '0.00' },
    ],
    [
      'exempt with the exempt policy chosen',
      '是',
      { rate: '免税', policy: '03-免税' },
      { tax_rate: '0', zero_rate_flag: '1', preferential_code: '03' },
    ],
    [
      'a policy by code and name',
      '是',
      { rate: '3%', policy: '01-简易征收', amount: '103' },
      { tax_rate: '0.03', preferential_code: '01', zero_rate_flag: '', amount: '100.00', tax_amount: '3.00' },
    ],
    [
      'a policy by name',
      '是',
      { rate: '5%', policy: '按5%简易征收' },
      { tax_rate: '0.05', preferential_code: '09', zero_rate_flag: '' },
    ],
    [
      'an empty policy',
      '是',
      { policy: '' },
      { tax_rate: '0.06', preferential_code: '', zero_rate_flag: '' },
    ],
    ['a rate as a fraction', '是', { rate: '0.09', amount: '109' }, { tax_rate: '0.09', tax_amount: '9.00' }],
  ])('computes a line from %s', (_, includes, cells, expected) => {
    const request = onlyRequest([invoice({ price_includes_tax: includes })], [item(cells)]);
    expect(request.goods_info).toHaveLength(1);
    expect(request.goods_info[0]).toMatchObject(expected);
  });

  it('adds the lines up into the totals', () => {
    const request = onlyRequest(
      [invoice()],
      [
        item({ amount: '106' }, 3),
        item({ amount: '113', rate: '13%' }, 4),
        item({ amount: '10.9', rate: '9%' }, 5),
      ],
    );
    expect(request.goods_info.map((g) => [g.amount, g.tax_amount, g.amount_with_tax])).toEqual([
      ['100.00', '6.00', '106.00'],
      ['100.00', '13.00', '113.00'],
      ['10.00', '0.90', '10.90'],
    ]);
    expect(request.invoice_info).toMatchObject({
      total_amount: '210.00',
      total_tax: '19.90',
      total_price_with_tax: '229.90',
    });
  });

  it('keeps the file order of the lines of each invoice, whatever their position on the sheet', () => {
    const result = build(
      [invoice({ serial: 'A1' }, 2), invoice({ serial: 'B2', buyer_name: '宁波测试客户有限公司' }, 3)],
      [
        item({ serial: 'B2', name: 'B-1' }, 2),
        item({ serial: 'A1', name: 'A-1' }, 3),
        item({ serial: 'B2', name: 'B-2' }, 4),
        item({ serial: 'A1', name: 'A-2' }, 5),
      ],
    );
    expect(result.issues).toEqual([]);
    expect(
      result.invoices.map((i) => [
        i.sourceSerial,
        i.sourceRow,
        i.parts[0]!.buyer.name,
        i.parts[0]!.goods_info.map((g) => g.name),
      ]),
    ).toEqual([
      ['A1', 2, '杭州测试客户有限公司', ['A-1', 'A-2']],
      ['B2', 3, '宁波测试客户有限公司', ['B-1', 'B-2']],
    ]);
  });

  it('accepts a serial of 40 characters', () => {
    const serial = 'S'.repeat(40);
    const result = build([invoice({ serial })], [item({ serial })]);
    expect(result.issues).toEqual([]);
    expect(result.invoices.map((i) => i.sourceSerial)).toEqual([serial]);
  });

  it('accepts every invoice text at its longest', () => {
    const request = onlyRequest(
      [
        invoice({
          buyer_name: '名'.repeat(300),
          remark: '备'.repeat(450),
          drawer: '开'.repeat(300),
          payee: '收'.repeat(150),
          reviewer: '复'.repeat(75),
        }),
      ],
      [item({ spec: '规'.repeat(150), unit: '单'.repeat(300) })],
    );
    expect(request.invoice_info).toMatchObject({
      remark: '备'.repeat(450),
      drawer: '开'.repeat(300),
      payee: '收'.repeat(150),
      reviewer: '复'.repeat(75),
    });
  });

  it('builds the good invoices of a file and leaves out the bad ones', () => {
    const result = build(
      [invoice({ serial: 'BAD', buyer_email: 'bad' }, 2), invoice({ serial: 'OK' }, 3)],
      [item({ serial: 'BAD' }, 2), item({ serial: 'OK' }, 3)],
    );
    expect(result.issues).toEqual([invIssue(2, '购买方邮箱', '请输入正确的邮箱地址')]);
    expect(result.invoices.map((i) => i.sourceSerial)).toEqual(['OK']);
  });

  it('builds the good invoice after a bad one whose problem is on a line', () => {
    const result = build(
      [invoice({ serial: 'BAD' }, 2), invoice({ serial: 'OK' }, 3)],
      [item({ serial: 'BAD', rate: '7%' }, 2), item({ serial: 'OK' }, 3)],
    );
    expect(result.issues).toEqual([lineIssue(2, '税率', '税率“7%”不正确，请从下拉列表中选择')]);
    expect(result.invoices.map((i) => i.sourceSerial)).toEqual(['OK']);
  });
});

describe('buildBatch: splitting by the device limit and the line limit', () => {
  it('splits a line over the per-invoice limit by whole quantities', () => {
    const result = build([invoice()], [item({ quantity: '5', price: '500', amount: undefined }, 4)], {
      perInvoiceLimit: '1000',
    });
    expect(result.issues).toEqual([]);
    expect(result.invoices).toHaveLength(1);
    const built = result.invoices[0]!;
    expect({ ...built, parts: built.parts.length }).toEqual({
      sourceSerial: 'A1',
      sourceRow: 2,
      reasons: ['amount'],
      totalAmount: '2358.49',
      parts: 3,
    });
    expect(
      built.parts.map((p) => [
        p.serial_no,
        p.invoice_type,
        p.buyer.name,
        p.goods_info.map((g) => [g.quantity, g.price, g.amount, g.tax_amount, g.amount_with_tax]),
        [p.invoice_info.total_amount, p.invoice_info.total_tax, p.invoice_info.total_price_with_tax],
      ]),
    ).toEqual([
      [
        PLACEHOLDER_SERIAL,
        '82',
        '杭州测试客户有限公司',
        [['2', '500', '943.40', '56.60', '1000.00']],
        ['943.40', '56.60', '1000.00'],
      ],
      [
        PLACEHOLDER_SERIAL,
        '82',
        '杭州测试客户有限公司',
        [['2', '500', '943.40', '56.60', '1000.00']],
        ['943.40', '56.60', '1000.00'],
      ],
      [
        PLACEHOLDER_SERIAL,
        '82',
        '杭州测试客户有限公司',
        [['1', '500', '471.70', '28.30', '500.00']],
        ['471.70', '28.30', '500.00'],
      ],
    ]);
  });

  it('does not split an invoice whose tax-exclusive total equals the limit', () => {
    const result = build([invoice({ price_includes_tax: '否' })], [item({ amount: '1000' })], {
      perInvoiceLimit: '1000',
    });
    expect(result.issues).toEqual([]);
    expect(result.invoices.map((i) => [i.reasons, i.parts.length, i.totalAmount])).toEqual([
      [[], 1, '1000.00'],
    ]);
  });

  it('splits a paper invoice of 9 lines into 8 + 1 without reporting the 8-line rule', () => {
    const lines = Array.from({ length: 9 }, (_, i) => item({ name: `项目${i + 1}`, amount: '10' }, i + 2));
    const result = build([invoice({ kind: INVOICE_TYPES['007'] })], lines);
    expect(result.issues).toEqual([]);
    expect(
      result.invoices.map((i) => ({
        reasons: i.reasons,
        totalAmount: i.totalAmount,
        parts: i.parts.map((p) => [
          p.invoice_type,
          p.goods_info.map((g) => g.name),
          p.invoice_info.total_amount,
          p.invoice_info.total_tax,
          p.invoice_info.total_price_with_tax,
        ]),
      })),
    ).toEqual([
      {
        reasons: ['lines'],
        totalAmount: '84.87',
        parts: [
          [
            '007',
            ['项目1', '项目2', '项目3', '项目4', '项目5', '项目6', '项目7', '项目8'],
            '75.44',
            '4.56',
            '80.00',
          ],
          ['007', ['项目9'], '9.43', '0.57', '10.00'],
        ],
      },
    ]);
  });

  it('keeps a paper invoice of 8 lines whole', () => {
    const lines = Array.from({ length: 8 }, (_, i) => item({ amount: '10' }, i + 2));
    const result = build([invoice({ kind: INVOICE_TYPES['007'] })], lines);
    expect(result.issues).toEqual([]);
    expect(result.invoices.map((i) => [i.reasons, i.parts.map((p) => p.goods_info.length)])).toEqual([
      [[], [8]],
    ]);
  });

  it('a problem of a cut line is reported once, on the row the line came from, not on the part’s first row', () => {
    // row 7 is cut by amount into five pieces whose shared quantity no longer matches their amounts
    const result = build(
      [invoice()],
      [item({}, 2), item({}, 3), item({ quantity: '9807629.53', amount: '1934295.87', rate: '3%' }, 7)],
      { perInvoiceLimit: '387900.83' },
    );
    expect(result).toEqual({
      issues: [lineIssue(7, '金额', '单价×数量与金额的误差超过0.01')],
      invoices: [],
    });
  });

  it('reports the same problem of two cut lines on each line’s own row', () => {
    // rows 7 and 9 are both cut by amount into pieces whose shared quantity no longer matches their amounts
    const cut = { quantity: '9807629.53', amount: '1934295.87', rate: '3%' };
    const result = build([invoice()], [item(cut, 7), item({}, 8), item(cut, 9)], {
      perInvoiceLimit: '387900.83',
    });
    expect(result).toEqual({
      issues: [
        lineIssue(7, '金额', '单价×数量与金额的误差超过0.01'),
        lineIssue(9, '金额', '单价×数量与金额的误差超过0.01'),
      ],
      invoices: [],
    });
  });

  it('reports the 1.27 tax error of two parts once, on the invoice row without a column', () => {
    // 0.99 at 0.5% rounds its tax down by 0.00495, 1.01 rounds it up as much: the whole invoice is
    // within 1.27, but the first part (300 down, 2 up) and the second (298 up) are not
    const down = Array.from({ length: 300 }, (_, i) => item({ amount: '0.99', rate: '0.5%' }, i + 2));
    const up = Array.from({ length: 300 }, (_, i) => item({ amount: '1.01', rate: '0.5%' }, i + 302));
    const whole = build([invoice({ price_includes_tax: '否' }, 4)], [...down, ...up]);
    expect(whole.issues).toEqual([]);
    expect(whole.invoices.map((i) => i.parts.length)).toEqual([1]);
    expect(
      build([invoice({ price_includes_tax: '否' }, 4)], [...down, ...up], { perInvoiceLimit: '300' }),
    ).toEqual({
      issues: [invIssue(4, '', '税额累计误差超过1.27，请合并相同项目或按合计金额计算税额')],
      invoices: [],
    });
  });

  it('reports a line too large to split on its amount cell', () => {
    const result = build([invoice()], [item({ amount: '100000' }, 6)], { perInvoiceLimit: '1' });
    expect(result).toEqual({
      issues: [lineIssue(6, '金额', '金额超过单张限额（1元）的1000倍，无法自动拆分，请核对金额')],
      invoices: [],
    });
  });
});

describe('buildBatch: problems of 发票信息 rows', () => {
  it.each<[string, SheetRow[], SheetRow[], Partial<BuildContext>, BatchIssue[]]>([
    ['no serial', [invoice({ serial: undefined })], [], {}, [invIssue(2, '流水号', '请填写流水号')]],
    ['an empty serial', [invoice({ serial: '' }, 4)], [], {}, [invIssue(4, '流水号', '请填写流水号')]],
    [
      'a serial of 41 characters',
      [invoice({ serial: 'S'.repeat(41) }, 3)],
      [],
      {},
      [invIssue(3, '流水号', '流水号最多40个字符')],
    ],
    [
      'a serial of 41 characters with its lines: told once, on the invoice',
      [invoice({ serial: 'S'.repeat(41) }, 3)],
      [item({ serial: 'S'.repeat(41) }, 4), item({ serial: 'T1' }, 5)],
      {},
      [
        invIssue(3, '流水号', '流水号最多40个字符'),
        lineIssue(5, '流水号', '“发票信息”表中没有流水号为“T1”的发票'),
      ],
    ],
    [
      'no lines',
      [invoice({}, 6)],
      [item({ serial: 'B1' }, 3)],
      {},
      [
        lineIssue(3, '流水号', '“发票信息”表中没有流水号为“B1”的发票'),
        invIssue(6, '流水号', '该发票在“商品明细”表中没有商品行'),
      ],
    ],
    [
      'an unknown kind',
      [invoice({ kind: '发票' })],
      [item()],
      {},
      [invIssue(2, '发票种类', '发票种类“发票”不正确，请从下拉列表中选择')],
    ],
    [
      'a kind the device cannot issue',
      [invoice({ kind: INVOICE_TYPES['81'] })],
      [item()],
      { deviceInvoiceTypes: ['82'] },
      [invIssue(2, '发票种类', '所选开票设备不能开具电子发票（增值税专用发票）')],
    ],
    [
      'a page default the device cannot issue, named by its code when it has no label',
      [invoice()],
      [item()],
      { deviceInvoiceTypes: ['82'], defaultType: 'X9' },
      [invIssue(2, '发票种类', '所选开票设备不能开具X9')],
    ],
    [
      'a kind the request contract does not know',
      [invoice()],
      [item()],
      { deviceInvoiceTypes: ['999'], defaultType: '999' },
      [invIssue(2, '', '票种的取值无效')],
    ],
    [
      'an unknown buyer type',
      [invoice({ buyer_type: '公司' })],
      [item()],
      {},
      [invIssue(2, '购买方类型', '购买方类型须为“企业”或“个人/非企业单位”')],
    ],
    [
      'no buyer type',
      [invoice({ buyer_type: undefined })],
      [item()],
      {},
      [invIssue(2, '购买方类型', '购买方类型须为“企业”或“个人/非企业单位”')],
    ],
    [
      'an unknown 单价金额含税',
      [invoice({ price_includes_tax: '可能' })],
      [item()],
      {},
      [invIssue(2, '单价金额含税', '单价金额含税须填“是”或“否”')],
    ],
    [
      'every header problem at once, in column order',
      [invoice({ kind: '发票', buyer_type: '公司', price_includes_tax: '可能' }, 8)],
      [],
      {},
      [
        invIssue(8, '发票种类', '发票种类“发票”不正确，请从下拉列表中选择'),
        invIssue(8, '购买方类型', '购买方类型须为“企业”或“个人/非企业单位”'),
        invIssue(8, '单价金额含税', '单价金额含税须填“是”或“否”'),
        invIssue(8, '流水号', '该发票在“商品明细”表中没有商品行'),
      ],
    ],
    [
      'an unknown kind and a bad buyer: the buyer is not checked',
      [invoice({ kind: '发票', buyer_email: 'bad' })],
      [item()],
      {},
      [invIssue(2, '发票种类', '发票种类“发票”不正确，请从下拉列表中选择')],
    ],
    [
      'an unknown kind and a buyer name too long: the buyer is not checked',
      [invoice({ kind: '发票', buyer_name: '名'.repeat(301) })],
      [item()],
      {},
      [invIssue(2, '发票种类', '发票种类“发票”不正确，请从下拉列表中选择')],
    ],
    [
      'an unknown buyer type and a buyer name too long: the buyer is not checked',
      [invoice({ buyer_type: '公司', buyer_name: '名'.repeat(301) })],
      [item()],
      {},
      [invIssue(2, '购买方类型', '购买方类型须为“企业”或“个人/非企业单位”')],
    ],
    [
      'an unknown 单价金额含税 and a buyer name too long: the buyer is not checked',
      [invoice({ price_includes_tax: '可能', buyer_name: '名'.repeat(301) })],
      [item()],
      {},
      [invIssue(2, '单价金额含税', '单价金额含税须填“是”或“否”')],
    ],
    [
      'an unknown buyer type and a bad line: the line is still checked',
      [invoice({ buyer_type: '公司' })],
      [item({ name: '' })],
      {},
      [
        invIssue(2, '购买方类型', '购买方类型须为“企业”或“个人/非企业单位”'),
        lineIssue(7, '项目名称', '请填写项目名称'),
      ],
    ],
    [
      'an unknown 单价金额含税 and a bad email: the buyer is not checked',
      [invoice({ price_includes_tax: '可能', buyer_email: 'bad' })],
      [item()],
      {},
      [invIssue(2, '单价金额含税', '单价金额含税须填“是”或“否”')],
    ],
    [
      'a kind the device cannot issue and a bad buyer: both reported',
      [invoice({ kind: INVOICE_TYPES['81'], buyer_email: 'bad' })],
      [item()],
      { deviceInvoiceTypes: ['82'] },
      [
        invIssue(2, '发票种类', '所选开票设备不能开具电子发票（增值税专用发票）'),
        invIssue(2, '购买方邮箱', '请输入正确的邮箱地址'),
      ],
    ],
  ])('reports %s', (_, invoices, lines, over, expected) => {
    expect(build(invoices, lines, over)).toEqual({ issues: expected, invoices: [] });
  });

  it('reports a repeated serial on the later row and builds the first', () => {
    const result = build(
      [invoice({ buyer_name: '第一家公司' }, 2), invoice({ buyer_name: '第二家公司' }, 5)],
      [item({}, 3)],
    );
    expect(result.issues).toEqual([invIssue(5, '流水号', '流水号与第2行重复')]);
    expect(result.invoices.map((i) => [i.sourceRow, i.parts[0]!.buyer.name])).toEqual([[2, '第一家公司']]);
  });

  it('names the first row of a serial repeated twice', () => {
    const result = build([invoice({}, 4), invoice({}, 6), invoice({}, 9)], [item()]);
    expect(result.issues).toEqual([
      invIssue(6, '流水号', '流水号与第4行重复'),
      invIssue(9, '流水号', '流水号与第4行重复'),
    ]);
  });

  it.each<[string, Cells, Partial<BuildContext>, BatchIssue]>([
    [
      'an enterprise buyer without a tax code',
      { buyer_tax_code: undefined },
      {},
      invIssue(2, '购买方纳税人识别号', '企业抬头请填写纳税人识别号'),
    ],
    [
      'a special invoice without a buyer tax code',
      { kind: INVOICE_TYPES['81'], buyer_type: '个人', buyer_tax_code: '' },
      {},
      invIssue(2, '购买方纳税人识别号', '开具专用发票须填写购买方纳税人识别号'),
    ],
    [
      'a tax code of the wrong length',
      { buyer_tax_code: '9133010012345' },
      {},
      invIssue(2, '购买方纳税人识别号', '纳税人识别号须为15、18或20位数字或大写字母'),
    ],
    [
      'a tax code with a wrong check character',
      { buyer_tax_code: '91330100MA2B3C4D5M' },
      {},
      invIssue(2, '购买方纳税人识别号', '统一社会信用代码校验位不正确，请核对'),
    ],
    [
      'the seller as the buyer',
      { buyer_tax_code: SELLER },
      {},
      invIssue(2, '购买方纳税人识别号', '购买方与销售方不能为同一纳税人'),
    ],
    [
      'the seller as the buyer in lower case',
      { buyer_tax_code: SELLER.toLowerCase() },
      {},
      invIssue(2, '购买方纳税人识别号', '购买方与销售方不能为同一纳税人'),
    ],
    ['a bad email', { buyer_email: 'finance@' }, {}, invIssue(2, '购买方邮箱', '请输入正确的邮箱地址')],
    ['a bad mobile', { buyer_mobile: '1380013800' }, {}, invIssue(2, '购买方手机号', '请输入正确的手机号')],
    [
      'a bad bank account',
      { buyer_bank_account: '6222-0202' },
      {},
      invIssue(2, '购买方银行账号', '银行账号须为1-30位数字'),
    ],
    [
      'a personal buyer named by one character',
      { buyer_type: '个人', buyer_name: '张', buyer_tax_code: undefined },
      {},
      invIssue(2, '购买方名称', '个人抬头名称至少2个字'),
    ],
    ['no buyer name', { buyer_name: undefined }, {}, invIssue(2, '购买方名称', '请输入购买方名称')],
    [
      'a buyer name of 301 characters',
      { buyer_name: '名'.repeat(301) },
      {},
      invIssue(2, '购买方名称', '购方名称最多300个字'),
    ],
    [
      'a buyer name with an invisible character',
      { buyer_name: '杭州\u200b公司' },
      {},
      invIssue(2, '购买方名称', '购方名称含有不可见或控制字符，请删除后重新输入'),
    ],
    [
      'a buyer tax code of 21 characters',
      { buyer_tax_code: '1'.repeat(21) },
      {},
      invIssue(2, '购买方纳税人识别号', '购方纳税人识别号最多20个字'),
    ],
    [
      'a buyer email of 101 characters',
      { buyer_email: 'e'.repeat(101) },
      {},
      invIssue(2, '购买方邮箱', '购方邮箱最多100个字'),
    ],
    [
      'a buyer mobile of 21 characters',
      { buyer_mobile: '1'.repeat(21) },
      {},
      invIssue(2, '购买方手机号', '购方手机号最多20个字'),
    ],
    [
      'a buyer address of 301 characters',
      { buyer_address: '址'.repeat(301) },
      {},
      invIssue(2, '购买方地址', '购方地址最多300个字'),
    ],
    [
      'a buyer phone of 61 characters',
      { buyer_phone: '1'.repeat(61) },
      {},
      invIssue(2, '购买方电话', '购方电话最多60个字'),
    ],
    [
      'a buyer bank of 121 characters',
      { buyer_bank_name: '银'.repeat(121) },
      {},
      invIssue(2, '购买方开户银行', '购方开户银行最多120个字'),
    ],
    [
      'a buyer bank account of 101 characters',
      { buyer_bank_account: '1'.repeat(101) },
      {},
      invIssue(2, '购买方银行账号', '购方银行账号最多100个字'),
    ],
    [
      'a remark of 451 characters',
      { remark: '备'.repeat(451) },
      {},
      invIssue(2, '备注', '备注最多450个字符'),
    ],
    [
      'a drawer of 301 characters',
      { drawer: '开'.repeat(301) },
      {},
      invIssue(2, '开票人', '开票人最多300个字'),
    ],
    [
      'a payee of 151 characters',
      { payee: '收'.repeat(151) },
      {},
      invIssue(2, '收款人', '收款人最多150个字'),
    ],
    [
      'a reviewer of 76 characters',
      { reviewer: '复'.repeat(76) },
      {},
      invIssue(2, '复核人', '复核人最多75个字'),
    ],
  ])('reports %s on its column', (_, cells, over, expected) => {
    expect(build([invoice(cells)], [item()], over)).toEqual({ issues: [expected], invoices: [] });
  });
});

describe('buildBatch: problems of 商品明细 rows', () => {
  it('reports a line without a serial, and the invoice it leaves without lines', () => {
    expect(build([invoice({}, 3)], [item({ serial: undefined }, 5)])).toEqual({
      issues: [
        lineIssue(5, '流水号', '请填写流水号'),
        invIssue(3, '流水号', '该发票在“商品明细”表中没有商品行'),
      ],
      invoices: [],
    });
  });

  it('reports a line whose serial is on no invoice and builds the rest', () => {
    const result = build(
      [invoice()],
      [item({}, 3), item({ serial: '', name: '空' }, 4), item({ serial: 'A2' }, 5)],
    );
    expect(result.issues).toEqual([
      lineIssue(4, '流水号', '请填写流水号'),
      lineIssue(5, '流水号', '“发票信息”表中没有流水号为“A2”的发票'),
    ]);
    expect(result.invoices.map((i) => i.parts[0]!.goods_info.length)).toEqual([1]);
  });

  it.each<[string, Cells, BatchIssue[]]>([
    ['no name', { name: undefined }, [lineIssue(7, '项目名称', '请填写项目名称')]],
    ['an empty name', { name: '' }, [lineIssue(7, '项目名称', '请填写项目名称')]],
    [
      'a name of 601 characters',
      { name: '名'.repeat(601) },
      [lineIssue(7, '项目名称', '项目名称最多600个字符')],
    ],
    ['no code', { tax_class_code: undefined }, [lineIssue(7, '税收分类编码', '税收分类编码须为19位数字')]],
    [
      'a code of 18 digits',
      { tax_class_code: '304020101000000000' },
      [lineIssue(7, '税收分类编码', '税收分类编码须为19位数字')],
    ],
    [
      'a code of 20 digits',
      { tax_class_code: '30402010100000000000' },
      [lineIssue(7, '税收分类编码', '税收分类编码须为19位数字')],
    ],
    [
      'a code with a letter',
      { tax_class_code: '304020101000000000A' },
      [lineIssue(7, '税收分类编码', '税收分类编码须为19位数字')],
    ],
    [
      'a summary code',
      { tax_class_code: SUMMARY },
      [lineIssue(7, '税收分类编码', '汇总项编码不能用于开票，请填写其下级编码')],
    ],
    [
      'a summary code with a short name',
      { tax_class_code: SUMMARY, short_name: '信息技术' },
      [lineIssue(7, '税收分类编码', '汇总项编码不能用于开票，请填写其下级编码')],
    ],
    [
      'a code outside the library without a short name',
      { tax_class_code: UNKNOWN_CODE },
      [lineIssue(7, '商品简称', '编码库中没有该税收分类编码，请填写商品简称')],
    ],
    [
      'a short name of 121 characters',
      { short_name: '简'.repeat(121) },
      [lineIssue(7, '商品简称', '商品简称最多120个字符')],
    ],
    [
      'a bad code and a short name of 121 characters',
      { tax_class_code: '123', short_name: '简'.repeat(121) },
      [
        lineIssue(7, '税收分类编码', '税收分类编码须为19位数字'),
        lineIssue(7, '商品简称', '商品简称最多120个字符'),
      ],
    ],
    ['a quantity that is no number', { quantity: 'abc' }, [lineIssue(7, '数量', '数量须为数字')]],
    ['a quantity in exponent notation', { quantity: '1e5' }, [lineIssue(7, '数量', '数量须为数字')]],
    ['a quantity with a full-width comma', { quantity: '1，000' }, [lineIssue(7, '数量', '数量须为数字')]],
    ['a zero quantity', { quantity: '0' }, [lineIssue(7, '数量', '数量须大于0')]],
    ['a negative quantity', { quantity: '-1' }, [lineIssue(7, '数量', '数量须大于0')]],
    ['a quantity with 9 decimals', { quantity: '1.123456789' }, [lineIssue(7, '数量', '数量最多8位小数')]],
    ['a quantity of 1e16', { quantity: '10000000000000000' }, [lineIssue(7, '数量', '数量过大')]],
    ['a price that is no number', { price: '五元' }, [lineIssue(7, '单价', '单价须为数字')]],
    ['a zero price', { price: '0.00' }, [lineIssue(7, '单价', '单价须大于0')]],
    ['a negative price', { price: '-2.5' }, [lineIssue(7, '单价', '单价须大于0')]],
    ['a price with 9 decimals', { price: '0.123456789' }, [lineIssue(7, '单价', '单价最多8位小数')]],
    ['a price of 1e16', { price: '10,000,000,000,000,000' }, [lineIssue(7, '单价', '单价过大')]],
    ['an amount that is no number', { amount: '1O6' }, [lineIssue(7, '金额', '金额须为数字')]],
    ['a zero amount', { amount: '0' }, [lineIssue(7, '金额', '金额须大于0')]],
    ['a negative amount', { amount: '-106' }, [lineIssue(7, '金额', '金额须大于0')]],
    ['an amount with 3 decimals', { amount: '106.001' }, [lineIssue(7, '金额', '金额最多2位小数')]],
    ['an amount of 1e16', { amount: '10000000000000000' }, [lineIssue(7, '金额', '金额过大')]],
    [
      'no amount, quantity or price',
      { amount: undefined },
      [lineIssue(7, '金额', '请填写金额，或同时填写数量和单价')],
    ],
    [
      'a quantity without amount or price',
      { amount: '', quantity: '2' },
      [lineIssue(7, '金额', '请填写金额，或同时填写数量和单价')],
    ],
    [
      'a price without amount or quantity',
      { amount: '', price: '530' },
      [lineIssue(7, '金额', '请填写金额，或同时填写数量和单价')],
    ],
    [
      'a bad quantity beside a price and no amount',
      { amount: undefined, quantity: 'x', price: '530' },
      [lineIssue(7, '数量', '数量须为数字'), lineIssue(7, '金额', '请填写金额，或同时填写数量和单价')],
    ],
    ['a bad amount and no quantity or price', { amount: 'x' }, [lineIssue(7, '金额', '金额须为数字')]],
    [
      'an amount 0.02 above quantity × price',
      { quantity: '2', price: '530', amount: '1060.02' },
      [lineIssue(7, '金额', '金额与数量×单价（1060.00）不一致')],
    ],
    [
      'an amount 0.02 below quantity × price',
      { quantity: '2', price: '530', amount: '1059.98' },
      [lineIssue(7, '金额', '金额与数量×单价（1060.00）不一致')],
    ],
    [
      'an amount of quantity × price rounded',
      { quantity: '3', price: '33.335', amount: '100.03' },
      [lineIssue(7, '金额', '金额与数量×单价（100.01）不一致')],
    ],
    ['no rate', { rate: undefined }, [lineIssue(7, '税率', '请填写税率')]],
    ['an empty rate', { rate: '' }, [lineIssue(7, '税率', '请填写税率')]],
    ['an unknown rate', { rate: '7%' }, [lineIssue(7, '税率', '税率“7%”不正确，请从下拉列表中选择')]],
    [
      'an unknown policy',
      { policy: '99' },
      [lineIssue(7, '优惠政策标识', '优惠政策标识不正确，请从下拉列表中选择')],
    ],
    [
      'every cell wrong, in column order',
      { name: '', tax_class_code: 'x', quantity: 'a', price: 'b', amount: 'c', rate: 'd', policy: 'e' },
      [
        lineIssue(7, '项目名称', '请填写项目名称'),
        lineIssue(7, '税收分类编码', '税收分类编码须为19位数字'),
        lineIssue(7, '数量', '数量须为数字'),
        lineIssue(7, '单价', '单价须为数字'),
        lineIssue(7, '金额', '金额须为数字'),
        lineIssue(7, '税率', '税率“d”不正确，请从下拉列表中选择'),
        lineIssue(7, '优惠政策标识', '优惠政策标识不正确，请从下拉列表中选择'),
      ],
    ],
  ])('reports %s', (_, cells, expected) => {
    expect(build([invoice()], [item(cells)])).toEqual({ issues: expected, invoices: [] });
  });

  it('compares a tax-exclusive amount with quantity × tax-exclusive price', () => {
    expect(
      issuesOf(
        [invoice({ price_includes_tax: '否' })],
        [item({ quantity: '2', price: '100', amount: '212' })],
      ),
    ).toEqual([lineIssue(7, '金额', '金额与数量×单价（200.00）不一致')]);
  });

  it('compares a tax-inclusive amount with quantity × tax-inclusive price', () => {
    expect(issuesOf([invoice()], [item({ quantity: '2', price: '100', amount: '188.68' })])).toEqual([
      lineIssue(7, '金额', '金额与数量×单价（200.00）不一致'),
    ]);
  });

  it('reports each bad line on its own row', () => {
    expect(
      issuesOf(
        [invoice()],
        [item({ name: '' }, 3), item({}, 4), item({ rate: '' }, 5), item({ amount: '0' }, 6)],
      ),
    ).toEqual([
      lineIssue(3, '项目名称', '请填写项目名称'),
      lineIssue(5, '税率', '请填写税率'),
      lineIssue(6, '金额', '金额须大于0'),
    ]);
  });
});

describe('buildBatch: the issuing rules mapped to cells', () => {
  it.each<[string, SheetRow[], Partial<BuildContext>, BatchIssue[]]>([
    [
      'a rate a small-scale taxpayer may not use, on the row of its line, without the 第N行 prefix',
      [item({ amount: '101', rate: '1%' }, 4), item({ amount: '113', rate: '13%' }, 9)],
      { seller: { taxCode: SELLER, taxpayerType: 'small' } },
      [lineIssue(9, '税率', '税率不适用于小规模纳税人')],
    ],
    [
      'a rate on the 12th line, on its row, without the two-digit 第12行 prefix',
      [
        ...Array.from({ length: 11 }, (_, i) => item({ amount: '101', rate: '1%' }, i + 3)),
        item({ amount: '113', rate: '13%' }, 20),
      ],
      { seller: { taxCode: SELLER, taxpayerType: 'small' } },
      [lineIssue(20, '税率', '税率不适用于小规模纳税人')],
    ],
    [
      'a policy whose rate does not match',
      [item({ rate: '13%', policy: '01' }, 5)],
      {},
      [lineIssue(5, '税率', '优惠政策“简易征收”与税率不符')],
    ],
    [
      'the exempt policy on a taxed rate',
      [item({ rate: '13%', policy: '03' }, 5)],
      {},
      [lineIssue(5, '税率', '免税须使用税率0、零税率标识“免税”及优惠政策“免税”')],
    ],
    [
      'an exempt rate under another policy',
      [item({ rate: '免税', policy: '01' }, 5)],
      {},
      [
        lineIssue(5, '优惠政策标识', '免税须使用税率0、零税率标识“免税”及优惠政策“免税”'),
        lineIssue(5, '税率', '优惠政策“简易征收”与税率不符'),
      ],
    ],
    [
      'not taxable under the exempt policy',
      [item({ rate: '不征税', policy: '03' }, 5)],
      {},
      [
        lineIssue(5, '税率', '免税须使用税率0、零税率标识“免税”及优惠政策“免税”'),
        lineIssue(5, '优惠政策标识', '不征税须使用税率0、零税率标识“不征税”及优惠政策“不征税”'),
      ],
    ],
    [
      'a 6… code that is taxed',
      [item({ tax_class_code: '6000000000000000000', short_name: '预付卡销售' }, 5)],
      {},
      [lineIssue(5, '税率', '税收分类编码以6开头（未发生销售行为的不征税项目），须选择不征税')],
    ],
    [
      'a name with an invisible character',
      [item({ name: '软件\u200b服务' }, 5)],
      {},
      [lineIssue(5, '项目名称', '项目名称含有不可见或控制字符，请删除后重新输入')],
    ],
    [
      'a short name with an invisible character',
      [item({ short_name: '软件\u200b服务' }, 5)],
      {},
      [lineIssue(5, '商品简称', '商品简称含有不可见或控制字符，请删除后重新输入')],
    ],
    [
      'a spec of 151 characters',
      [item({ spec: '规'.repeat(151) }, 5)],
      {},
      [lineIssue(5, '规格型号', '规格型号最多150个字')],
    ],
    [
      'a unit of 301 characters',
      [item({ unit: '单'.repeat(301) }, 5)],
      {},
      [lineIssue(5, '单位', '单位最多300个字')],
    ],
    [
      'an invisible character in the second line, on its row',
      [item({}, 3), item({ spec: 'V\u200b2' }, 8)],
      {},
      [lineIssue(8, '规格型号', '规格型号含有不可见或控制字符，请删除后重新输入')],
    ],
  ])('reports %s', (_, lines, over, expected) => {
    expect(build([invoice()], lines, over)).toEqual({ issues: expected, invoices: [] });
  });

  it('reports the 1.27 tax error of the invoice on its row', () => {
    // 300 lines of 0.99 at 0.5%: each line's tax rounds 0.00495 down to 0.00
    const lines = Array.from({ length: 300 }, (_, i) => item({ amount: '0.99', rate: '0.5%' }, i + 2));
    expect(build([invoice({ price_includes_tax: '否' }, 4)], lines)).toEqual({
      issues: [invIssue(4, '', '税额累计误差超过1.27，请合并相同项目或按合计金额计算税额')],
      invoices: [],
    });
  });
});

describe('buildBatch: an invoice with bad lines still has its header checked', () => {
  it('reports the buyer beside a bad line, with the lines that parsed', () => {
    expect(issuesOf([invoice({ buyer_email: 'bad' })], [item({}, 3), item({ name: '' }, 4)])).toEqual([
      lineIssue(4, '项目名称', '请填写项目名称'),
      invIssue(2, '购买方邮箱', '请输入正确的邮箱地址'),
    ]);
  });

  it('reports 备注 beside a bad line', () => {
    expect(issuesOf([invoice({ remark: '备'.repeat(451) })], [item({}, 3), item({ rate: '7%' }, 4)])).toEqual(
      [lineIssue(4, '税率', '税率“7%”不正确，请从下拉列表中选择'), invIssue(2, '备注', '备注最多450个字符')],
    );
  });

  it.each<[string, Cells]>([
    ['a bad email', { buyer_email: 'bad' }],
    ['a buyer name too long', { buyer_name: '名'.repeat(301) }],
    ['a remark too long', { remark: '备'.repeat(451) }],
  ])('does not check the header when no line parsed (%s)', (_, cells) => {
    expect(issuesOf([invoice(cells)], [item({ name: '' }, 3)])).toEqual([
      lineIssue(3, '项目名称', '请填写项目名称'),
    ]);
  });

  it('does not report the other lines against the issuing rules', () => {
    expect(
      issuesOf([invoice()], [item({ amount: '113', rate: '13%' }, 3), item({ name: '' }, 4)], {
        seller: { taxCode: SELLER, taxpayerType: 'small' },
      }),
    ).toEqual([lineIssue(4, '项目名称', '请填写项目名称')]);
  });

  it('does not report the totals of an incomplete invoice', () => {
    const lines = Array.from({ length: 300 }, (_, i) => item({ amount: '0.99', rate: '0.5%' }, i + 2));
    expect(
      issuesOf(
        [invoice({ price_includes_tax: '否', buyer_mobile: '123' })],
        [...lines, item({ name: '' }, 400)],
      ),
    ).toEqual([
      lineIssue(400, '项目名称', '请填写项目名称'),
      invIssue(2, '购买方手机号', '请输入正确的手机号'),
    ]);
  });

  it('reports a serial problem and the buyer of an invoice whose line is fine', () => {
    expect(
      issuesOf([invoice({ buyer_bank_account: 'x' })], [item({}, 3), item({ serial: 'Z9' }, 4)]),
    ).toEqual([
      lineIssue(4, '流水号', '“发票信息”表中没有流水号为“Z9”的发票'),
      invIssue(2, '购买方银行账号', '银行账号须为1-30位数字'),
    ]);
  });
});
