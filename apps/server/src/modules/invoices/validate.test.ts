import { type BlueInvoiceRequest, blueInvoiceRequestSchema, MONEY_MSG, usccCheckChar } from '@kaipiao/shared';
import { describe, expect, it } from 'vitest';
import { BUYER_TAX_CODE, line, payload } from '../../../test/fixtures/invoices.ts';
import { maxLines, validateBlue } from './validate.ts';

/**
 * The issuing service's own payload rules (validate.ts) called directly, no database: line limits per
 * kind, rates per taxpayer and day, the small-scale reason, the buyer rules, lines that cannot be
 * computed, and the 不动产租赁 area unit. The zod schema is applied first, as the route does; the
 * rules the schema cannot express are then broken one at a time on the parsed request.
 */

type Seller = { taxCode: string; taxpayerType: 'general' | 'small' };
const SELLER: Seller = {
  taxCode: `91330106MA27XY8K3${usccCheckChar('91330106MA27XY8K3')}`,
  taxpayerType: 'general',
};
const SMALL: Seller = { ...SELLER, taxpayerType: 'small' };
const DAY = new Date('2026-11-20T04:00:00Z');

const request = (opts: Parameters<typeof payload>[1] = {}): BlueInvoiceRequest =>
  blueInvoiceRequestSchema.parse(payload(1, opts));
const issuesOf = (req: BlueInvoiceRequest, seller = SELLER, now = DAY) =>
  validateBlue(req, seller, now).issues.map((i) => `${i.field}: ${i.message}`);
const withBuyer = (buyer: Partial<BlueInvoiceRequest['buyer']>, invoiceType = '82') => {
  const req = request({ invoiceType });
  req.buyer = { ...req.buyer, ...buyer };
  return req;
};

describe('line limits per kind', () => {
  it('数电 2000, paper 8, other electronic kinds 100', () => {
    for (const t of ['81', '82']) expect(maxLines(t)).toBe(2000);
    for (const t of ['004', '007', '025']) expect(maxLines(t)).toBe(8);
    for (const t of ['026', '028', '027']) expect(maxLines(t)).toBe(100);
  });

  it('refuses one line more than the limit, takes exactly the limit, and names paper kinds', () => {
    const lines = (n: number) => Array.from({ length: n }, () => line('10.60'));
    expect(issuesOf(request({ invoiceType: '007', lines: lines(8) }))).toEqual([]);
    expect(issuesOf(request({ invoiceType: '007', lines: lines(9) }))).toEqual([
      'goods_info: 纸质发票最多8行项目明细，请拆分开具',
    ]);
    expect(issuesOf(request({ invoiceType: '026', lines: lines(100) }))).toEqual([]);
    expect(issuesOf(request({ invoiceType: '026', lines: lines(101) }))).toEqual([
      'goods_info: 该票种最多100行项目明细，请拆分开具',
    ]);
  });
});

describe('rates', () => {
  it('a rate the taxpayer may not use is refused with the wording for its kind of taxpayer', () => {
    const r1 = request({ lines: [line('101.00', { tax_rate: '0.01' })] });
    expect(issuesOf(r1, SELLER)).toContain('goods_info.0.tax_rate: 第1行税率不正确');
    const r13 = request({ lines: [line('10.60'), line('113.00', { tax_rate: '0.13' })] });
    expect(issuesOf(r13, SMALL)).toContain('goods_info.1.tax_rate: 第2行税率不适用于小规模纳税人');
    expect(issuesOf(r13, SELLER)).toEqual([]);
  });

  it('the small-scale 3% reason: asked for while the 1% reduction runs (Beijing days), kept when given', () => {
    const three = request({ lines: [line('103.00', { tax_rate: '0.03' })] });
    const lastSecond = new Date('2027-12-31T15:59:59Z'); // 23:59:59 on 31 Dec 2027 in Beijing
    expect(issuesOf(three, SMALL, lastSecond)).toEqual([
      `small_scale_reason: ${MONEY_MSG.SMALL_SCALE_REASON_REQUIRED}`,
    ]);
    const after = new Date('2027-12-31T16:00:00Z'); // 2028-01-01 00:00 in Beijing: 3% is plain again
    expect(issuesOf(three, SMALL, after)).toEqual([]);
    // and 1% is no longer a small-scale rate that day, though it was a second before
    const one = request({ lines: [line('101.00', { tax_rate: '0.01' })] });
    expect(issuesOf(one, SMALL, lastSecond)).toEqual([]);
    expect(issuesOf(one, SMALL, after)).toEqual(['goods_info.0.tax_rate: 第1行税率不适用于小规模纳税人']);
    const given = { ...three, small_scale_reason: '2' } as BlueInvoiceRequest;
    expect(validateBlue(given, SMALL, lastSecond)).toMatchObject({ issues: [], smallScaleReason: '2' });
    // a reason where none is asked for is dropped
    expect(validateBlue(given, SMALL, after).smallScaleReason).toBeNull();
    expect(validateBlue({ ...given }, SELLER, lastSecond)).toMatchObject({
      issues: [],
      smallScaleReason: null,
    });
  });
});

describe('lines', () => {
  it('stores each line with its full name, number and the computed quantity and unit prices', () => {
    const { lines, issues } = validateBlue(
      request({ lines: [line('100.00', { quantity: '3' })] }),
      SELLER,
      DAY,
    );
    expect(issues).toEqual([]);
    expect(lines[0]).toMatchObject({
      lineNo: 1,
      fullName: '*信息技术服务*软件开发服务',
      quantity: '3',
      unitPrice: '31.44666667',
      unitPriceWithTax: '33.33333333',
      amount: '94.34',
      amountWithTax: '100.00',
    });
  });

  it('a line that cannot be computed is reported on its row and kept as sent, without prices', () => {
    const req = request({ lines: [line('10.60'), line('10.60', { quantity: '1' })] });
    req.goods_info[1]!.quantity = '0';
    const { issues, lines } = validateBlue(req, SELLER, DAY);
    expect(issues).toContainEqual({ field: 'goods_info.1.amount', message: '第2行：数量不能为0' });
    expect(lines[1]).toMatchObject({ quantity: '0', unitPrice: null, unitPriceWithTax: null });
  });

  it('a rate it cannot read is reported once, not again as a rate the taxpayer may not use', () => {
    const req = request();
    req.goods_info[0]!.tax_rate = 'abc';
    const issues = issuesOf(req);
    expect(issues).toContain('goods_info.0.amount: 第1行：税率格式不正确');
    expect(issues.filter((i) => i.startsWith('goods_info.0.tax_rate'))).toEqual([
      'goods_info.0.tax_rate: 第1行税率不正确',
    ]);
  });
});

describe('buyer', () => {
  it('a special invoice needs the tax number; so does a company buyer; a person does not', () => {
    expect(issuesOf(withBuyer({ tax_code: '' }, '81'))).toEqual([
      'buyer.tax_code: 开具专用发票须填写购买方纳税人识别号',
    ]);
    // the buyer-title words (TITLE_MSG), as the issue form and the title form say them
    expect(issuesOf(withBuyer({ tax_code: '', title_type: 2 }))).toEqual([
      'buyer.tax_code: 企业抬头请填写纳税人识别号',
    ]);
    expect(issuesOf(withBuyer({ tax_code: '', title_type: 1, name: '张三' }))).toEqual([]);
  });

  it('the tax number: its shape, its check character, and not the seller itself', () => {
    expect(issuesOf(withBuyer({ tax_code: '91330100ma2b3c4d5x' }))).toEqual([
      'buyer.tax_code: 纳税人识别号须为15、18或20位数字或大写字母',
    ]);
    const first17 = BUYER_TAX_CODE.slice(0, 17);
    const wrong = usccCheckChar(first17) === '1' ? '2' : '1';
    expect(issuesOf(withBuyer({ tax_code: `${first17}${wrong}` }))).toEqual([
      'buyer.tax_code: 统一社会信用代码校验位不正确，请核对',
    ]);
    expect(issuesOf(withBuyer({ tax_code: SELLER.taxCode }))).toEqual([
      'buyer.tax_code: 购买方与销售方不能为同一纳税人',
    ]);
    expect(issuesOf(withBuyer({ tax_code: BUYER_TAX_CODE }))).toEqual([]);
  });

  it('e-mail, mobile, phone and bank account are checked when given; a person’s name has at least 2 characters', () => {
    expect(issuesOf(withBuyer({ email: 'not-mail' }))).toEqual(['buyer.email: 请输入正确的邮箱地址']);
    expect(issuesOf(withBuyer({ mobile: '1234' }))).toEqual(['buyer.mobile: 请输入正确的手机号']);
    expect(issuesOf(withBuyer({ mobile: '13900000001' }))).toEqual([]);
    // the phone as the issue form and the title form check it (7-20 digits or '-')
    expect(issuesOf(withBuyer({ phone: '0571-abc' }))).toEqual([
      'buyer.phone: 请输入正确的电话号码（7-20位数字或“-”）',
    ]);
    expect(issuesOf(withBuyer({ phone: '0571-88886666' }))).toEqual([]);
    expect(issuesOf(withBuyer({ bank_account: '12ab' }))).toEqual([
      'buyer.bank_account: 银行账号须为1-30位数字',
    ]);
    expect(issuesOf(withBuyer({ bank_account: '6222000011112222' }))).toEqual([]);
    expect(issuesOf(withBuyer({ title_type: 1, tax_code: '', name: '张' }))).toEqual([
      'buyer.name: 个人抬头名称至少2个字',
    ]);
    // a company's short name is not held to that
    expect(issuesOf(withBuyer({ title_type: 2, name: '张' }))).toEqual([]);
  });
});

describe('不动产经营租赁 (06)', () => {
  it('an item line without a unit takes its block’s area unit, counting item lines only', () => {
    const lines = [line('109.00', { tax_rate: '0.09' }), line('218.00', { tax_rate: '0.09', unit: '间' })];
    const req = request({ lines });
    const rent = (unit: string) => ({
      province: '浙江省',
      city: '杭州市',
      detail_address: '西湖区文三路1号',
      lease_period: '2026-11-01 2026-11-30',
      cross_city: 'N' as const,
      certificate_no: '浙(2024)杭州市不动产权第0000001号',
      plate_no: '',
      area_unit: unit,
    });
    const built = {
      ...req,
      invoice_info: { ...req.invoice_info, specific_business_code: '06' },
      real_static_rent: [rent('平方米'), rent('亩')],
    } as BlueInvoiceRequest;
    const out = validateBlue(built, SELLER, DAY).lines;
    expect(out.map((l) => l.unit)).toEqual(['平方米', '间']);
    // a discount line between them takes no block
    const withDiscount = {
      ...built,
      goods_info: [
        built.goods_info[0]!,
        { ...built.goods_info[0]!, line_kind: 1 as const },
        built.goods_info[1]!,
      ],
    } as BlueInvoiceRequest;
    withDiscount.goods_info[2] = { ...withDiscount.goods_info[2]!, unit: '' };
    expect(validateBlue(withDiscount, SELLER, DAY).lines.map((l) => l.unit)).toEqual(['平方米', '', '亩']);
    // without the special business, nothing is filled in
    const plain = {
      ...built,
      invoice_info: { ...built.invoice_info, specific_business_code: null },
    } as BlueInvoiceRequest;
    expect(validateBlue(plain, SELLER, DAY).lines[0]!.unit).toBe('');
  });
});
