import { describe, expect, it } from 'vitest';
import { TITLE_MSG, titleBodySchema } from '../schemas/titles.ts';
import { BUYER_MSG, type BuyerFacts, checkBuyer } from './buyer-rules.ts';

const SELLER = '91330106MA2KC7LM1A';
const BUYER = '91110000600037341L';
const company: BuyerFacts = {
  title_type: 2,
  name: '上海某某贸易有限公司',
  tax_code: BUYER,
  email: '',
  mobile: '',
  phone: '',
  bank_account: '',
};
const errorsOf = (
  patch: Partial<BuyerFacts>,
  invoiceType: string | null = '82',
  seller: string | null = SELLER,
) =>
  Object.fromEntries(
    checkBuyer({ ...company, ...patch }, { invoiceType, sellerTaxCode: seller }).errors.map((e) => [
      e.field,
      e.message,
    ]),
  );

describe('checkBuyer: the tax code', () => {
  it.each<[string, Partial<BuyerFacts>, string | null, string | undefined]>([
    ['a company with its tax code', {}, '82', undefined],
    ['a company without one', { tax_code: '' }, '82', '企业抬头请填写纳税人识别号'],
    ['a company with blanks only', { tax_code: '  ' }, '82', '企业抬头请填写纳税人识别号'],
    ['a person without one', { title_type: 1, name: '张三', tax_code: '' }, '82', undefined],
    [
      'a person without one on a 专票',
      { title_type: 1, name: '张三', tax_code: '' },
      '81',
      '开具专用发票须填写购买方纳税人识别号',
    ],
    [
      'a company without one on a 专票 (004)',
      { tax_code: '' },
      '004',
      '开具专用发票须填写购买方纳税人识别号',
    ],
    [
      'a company without one on a 专票 (028)',
      { tax_code: '' },
      '028',
      '开具专用发票须填写购买方纳税人识别号',
    ],
    ['no kind chosen yet', { tax_code: '' }, null, '企业抬头请填写纳税人识别号'],
    ['lower case', { tax_code: '91330100ma2b3c4d5x' }, '82', '纳税人识别号须为15、18或20位数字或大写字母'],
    ['16 characters', { tax_code: '1234567890123456' }, '82', '纳税人识别号须为15、18或20位数字或大写字母'],
    [
      'a USCC with a wrong check character',
      { tax_code: '91110000600037341N' },
      '82',
      '统一社会信用代码校验位不正确，请核对',
    ],
    ['15 characters', { tax_code: '330106123456789' }, '82', undefined],
    ['20 characters', { tax_code: '33010612345678901234' }, '82', undefined],
    ['an 18-digit ID number (个体户)', { tax_code: '11010519491231002X' }, '82', undefined],
    ['the seller', { tax_code: SELLER }, '82', '购买方与销售方不能为同一纳税人'],
    ['the seller with blanks around', { tax_code: ` ${SELLER} ` }, '82', '购买方与销售方不能为同一纳税人'],
  ])('%s', (_case, patch, invoiceType, message) => {
    expect(errorsOf(patch, invoiceType)['buyer.tax_code']).toBe(message);
  });

  it('no seller known: no clash', () => {
    expect(errorsOf({ tax_code: SELLER }, '82', null)).toEqual({});
    expect(errorsOf({ tax_code: SELLER }, '82', '')).toEqual({});
  });
});

describe('checkBuyer: name and contact fields', () => {
  it.each<[string, Partial<BuyerFacts>, string, string | undefined]>([
    [
      'a person of one character',
      { title_type: 1, name: '王', tax_code: '' },
      'buyer.name',
      '个人抬头名称至少2个字',
    ],
    [
      'a person of one character in blanks',
      { title_type: 1, name: ' 王 ', tax_code: '' },
      'buyer.name',
      '个人抬头名称至少2个字',
    ],
    ['a person of two', { title_type: 1, name: '王五', tax_code: '' }, 'buyer.name', undefined],
    ['a company of one character', { name: '王' }, 'buyer.name', undefined],
    ['a bad e-mail', { email: 'finance@' }, 'buyer.email', '请输入正确的邮箱地址'],
    ['a good e-mail in blanks', { email: ' finance@example.com ' }, 'buyer.email', undefined],
    ['a bad mobile', { mobile: '2390000000' }, 'buyer.mobile', '请输入正确的手机号'],
    ['a good mobile in blanks', { mobile: ' 13900000011 ' }, 'buyer.mobile', undefined],
    ['a bad phone', { phone: '0571-abc' }, 'buyer.phone', '请输入正确的电话号码（7-20位数字或“-”）'],
    ['a landline', { phone: '0571-88886666' }, 'buyer.phone', undefined],
    ['a 400 number', { phone: '400-800-8888' }, 'buyer.phone', undefined],
    [
      'a phone of 21 digits',
      { phone: '1'.repeat(21) },
      'buyer.phone',
      '请输入正确的电话号码（7-20位数字或“-”）',
    ],
    [
      'a bank account with a hyphen',
      { bank_account: '6222-0000' },
      'buyer.bank_account',
      '银行账号须为1-30位数字',
    ],
    [
      'a bank account of 31 digits',
      { bank_account: '1'.repeat(31) },
      'buyer.bank_account',
      '银行账号须为1-30位数字',
    ],
    ['a bank account of 30 digits', { bank_account: '1'.repeat(30) }, 'buyer.bank_account', undefined],
    [
      'blanks only everywhere',
      { email: ' ', mobile: ' ', phone: ' ', bank_account: ' ' },
      'buyer.email',
      undefined,
    ],
  ])('%s', (_case, patch, field, message) => {
    expect(errorsOf(patch)[field]).toBe(message);
  });

  it('tax code first, then e-mail, mobile, phone, bank account, name', () => {
    const all = checkBuyer(
      { title_type: 1, name: '王', tax_code: 'x', email: 'a@', mobile: '1', phone: 'p', bank_account: 'b' },
      { invoiceType: '82', sellerTaxCode: SELLER },
    ).errors.map((e) => e.field);
    expect(all).toEqual([
      'buyer.tax_code',
      'buyer.email',
      'buyer.mobile',
      'buyer.phone',
      'buyer.bank_account',
      'buyer.name',
    ]);
  });

  it('warns (does not block) on a company name of up to 4 characters, never on a person', () => {
    const warn = (patch: Partial<BuyerFacts>) =>
      checkBuyer({ ...company, ...patch }, { invoiceType: '82', sellerTaxCode: SELLER }).warnings;
    expect(warn({ name: '杭州某司' })).toEqual([
      { field: 'buyer.name', message: '名称较短，是否开票给自然人？' },
    ]);
    expect(warn({ name: '杭州某公司' })).toEqual([]);
    expect(warn({ name: '  ' })).toEqual([]);
    expect(warn({ title_type: 1, name: '王五', tax_code: '' })).toEqual([]);
  });
});

describe('one wording with the buyer titles', () => {
  it("the title messages are the title form's (TITLE_MSG)", () => {
    expect(BUYER_MSG).toMatchObject({
      TAX_CODE_REQUIRED: TITLE_MSG.TAX_CODE_REQUIRED,
      TAX_CODE_FORMAT: TITLE_MSG.TAX_CODE_FORMAT,
      TAX_CODE_CHECKSUM: TITLE_MSG.TAX_CODE_CHECKSUM,
      NAME_PERSONAL_MIN: TITLE_MSG.NAME_PERSONAL_MIN,
      EMAIL_FORMAT: TITLE_MSG.EMAIL_FORMAT,
      MOBILE_FORMAT: TITLE_MSG.MOBILE_FORMAT,
      PHONE_FORMAT: TITLE_MSG.PHONE_FORMAT,
      BANK_ACCOUNT_FORMAT: TITLE_MSG.BANK_ACCOUNT_FORMAT,
    });
  });

  it('a buyer the title form refuses is refused on an invoice with the same message, and the other way round', () => {
    const cases: Partial<BuyerFacts>[] = [
      { tax_code: '' },
      { tax_code: '91110000600037341N' },
      { tax_code: '1234567890123456' },
      { title_type: 1, name: '王', tax_code: '' },
      { email: 'a@' },
      { mobile: '123' },
      { phone: '0571-abc' },
      { bank_account: '62-22' },
      {},
    ];
    for (const patch of cases) {
      const buyer = { ...company, ...patch };
      const parsed = titleBodySchema.safeParse(buyer);
      const title = parsed.success
        ? {}
        : Object.fromEntries(parsed.error.issues.map((i) => [`buyer.${i.path.join('.')}`, i.message]));
      expect(errorsOf(patch)).toEqual(title);
    }
  });
});
