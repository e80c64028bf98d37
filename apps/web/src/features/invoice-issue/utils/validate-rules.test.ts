import { describe, expect, it } from 'vitest';
import { buildRequest } from './build-request.ts';
import { draftOf, line, SELLER } from './test-draft.ts';
import type { Draft, DraftLine } from './types.ts';
import { validateDraft } from './validate.ts';

// Each rule of the issue form's own checks, one row per case, with the exact words the clerk sees
// next to the field (issue 22: the web module's mutation run found these reached by no unit test).

const check = (d: Draft) =>
  validateDraft(d, buildRequest(d, 'WEBserial0001', SELLER), { sellerTaxCode: SELLER.tax_code });
const buyer = (patch: Partial<Draft['buyer']>) => draftOf({ buyer: { ...draftOf().buyer, ...patch } });

describe('validateDraft: a line says what it lacks, next to the cell', () => {
  it.each<[string, Partial<DraftLine>, string, string | undefined]>([
    ['no name', { name: '  ' }, 'goods_info.0.name', '请输入或选择项目名称'],
    [
      'a tax class code of 18 digits',
      { tax_class_code: '304020101000000000' },
      'goods_info.0.tax_class_code',
      '请选择商品编码（税收分类编码）',
    ],
    [
      'a tax class code with a letter',
      { tax_class_code: '304020101000000000A' },
      'goods_info.0.tax_class_code',
      '请选择商品编码（税收分类编码）',
    ],
    [
      'a tax class code with a letter before 19 digits',
      { tax_class_code: 'A3040201010000000000' },
      'goods_info.0.tax_class_code',
      '请选择商品编码（税收分类编码）',
    ],
    [
      'a tax class code with a letter after 19 digits',
      { tax_class_code: '3040201010000000000A' },
      'goods_info.0.tax_class_code',
      '请选择商品编码（税收分类编码）',
    ],
    [
      'no short name (no code chosen)',
      { short_name: ' ' },
      'goods_info.0.tax_class_code',
      '请选择商品编码（税收分类编码）',
    ],
    ['a complete code and short name', {}, 'goods_info.0.tax_class_code', undefined],
    ['no tax rate', { tax_rate: '' }, 'goods_info.0.tax_rate', '请选择税率'],
    [
      'a quantity of blanks with a price',
      { quantity: '  ', price: '106' },
      'goods_info.0.quantity',
      '有单价时须填写数量',
    ],
    ['a quantity that is no number', { quantity: '两个' }, 'goods_info.0.quantity', '请输入数字'],
    ['a quantity of 0', { quantity: '0' }, 'goods_info.0.quantity', '数量须大于0'],
    ['a price that is no number', { price: 'abc' }, 'goods_info.0.price', '请输入数字'],
    [
      'a price with no quantity',
      { quantity: '', price: '106' },
      'goods_info.0.quantity',
      '有单价时须填写数量',
    ],
    ['neither price nor amount', { quantity: '', price: '' }, 'goods_info.0.price', '请输入单价或金额'],
    ['a quantity but no price', { quantity: '3', price: ' ' }, 'goods_info.0.price', '请输入单价'],
    [
      'an amount line with no amount',
      { driver: 'amount', quantity: '', price: '', amount: ' ' },
      'goods_info.0.amount',
      '请输入金额',
    ],
    [
      'an amount that is no number',
      { driver: 'amount', quantity: '', price: '', amount: '一百' },
      'goods_info.0.amount',
      '请输入数字',
    ],
  ])('%s', (_case, patch, field, message) => {
    const { errors } = check(draftOf({ lines: [line(patch)] }));
    expect(errors[field]).toBe(message);
  });

  it('a discount line whose discount is not given yet asks nothing of its quantity, price or amount', () => {
    const discount = line({
      line_kind: 1,
      quantity: '',
      price: '',
      discount: { mode: 'amount', value: '' },
    });
    const { errors } = check(draftOf({ lines: [line({ line_kind: 2 }), discount] }));
    expect(Object.keys(errors).filter((k) => k.startsWith('goods_info.1.'))).toEqual([]);
  });

  it('a complete discount pair passes (the discount line has no quantity or price of its own)', () => {
    const discount = line({
      line_kind: 1,
      quantity: '',
      price: '',
      discount: { mode: 'amount', value: '6' },
    });
    expect(check(draftOf({ lines: [line({ line_kind: 2 }), discount] })).errors).toEqual({});
  });

  it('an amount line whose quantity is no number names the quantity only', () => {
    const d = draftOf({ lines: [line({ driver: 'amount', quantity: '两个', price: '', amount: '106' })] });
    expect(check(d).errors).toEqual({ 'goods_info.0.quantity': '请输入数字' });
  });

  it('a complete line with a negative quantity is refused by its amounts, not again by its quantity', () => {
    const { errors } = check(draftOf({ lines: [line({ quantity: '-1' }), line({ quantity: '3' })] }));
    expect(errors).toEqual({
      'goods_info.0.amount': '第1行金额须大于0',
      'goods_info.0.tax_amount': '第1行税额不能为负数',
    });
  });

  it('a complete amount line passes with no quantity or price', () => {
    const { errors } = check(
      draftOf({ lines: [line({ driver: 'amount', quantity: '', price: '', amount: '106' })] }),
    );
    expect(errors).toEqual({});
  });

  it('an incomplete line is named once, not again by the schema (its numbers are still empty)', () => {
    const { errors } = check(draftOf({ lines: [line({ quantity: '', price: '' })] }));
    expect(Object.keys(errors).filter((k) => k.startsWith('goods_info.0.'))).toEqual(['goods_info.0.price']);
  });
});

describe('validateDraft: the buyer', () => {
  it.each<[string, Partial<Draft['buyer']>, string, string | undefined]>([
    ['a 15-character tax code', { tax_code: '330106123456789' }, 'buyer.tax_code', undefined],
    [
      'a lower-case tax code',
      { tax_code: '91330100ma2b3c4d5x' },
      'buyer.tax_code',
      '纳税人识别号须为15、18或20位数字或大写字母',
    ],
    [
      'a personal name of one character',
      { title_type: 1, name: '王' },
      'buyer.name',
      '个人抬头名称至少2个字',
    ],
    ['a personal name of two characters', { title_type: 1, name: '王五' }, 'buyer.name', undefined],
    [
      'a personal name of one character with blanks around',
      { title_type: 1, name: ' 王 ' },
      'buyer.name',
      '个人抬头名称至少2个字',
    ],
    ['a company name of one character', { title_type: 2, name: '王' }, 'buyer.name', undefined],
    ['an e-mail of blanks only', { email: '   ' }, 'buyer.email', undefined],
    ['a good e-mail with blanks around', { email: ' finance@example.com ' }, 'buyer.email', undefined],
    ['a mobile of blanks only', { mobile: '  ' }, 'buyer.mobile', undefined],
    ['a good mobile with blanks around', { mobile: ' 13900000011 ' }, 'buyer.mobile', undefined],
    ['a phone of blanks only', { phone: '  ' }, 'buyer.phone', undefined],
    ['a landline with blanks around', { phone: ' 0571-88886666 ' }, 'buyer.phone', undefined],
    ['a bank account of blanks only', { bank_account: '  ' }, 'buyer.bank_account', undefined],
    [
      'a bank account with blanks around',
      { bank_account: ' 6222000011112222 ' },
      'buyer.bank_account',
      undefined,
    ],
    ['a bad e-mail', { email: 'finance@' }, 'buyer.email', '请输入正确的邮箱地址'],
    ['a good e-mail', { email: 'finance@example.com' }, 'buyer.email', undefined],
    ['a bad mobile', { mobile: '2390000000' }, 'buyer.mobile', '请输入正确的手机号'],
    ['a good mobile', { mobile: '13900000011' }, 'buyer.mobile', undefined],
    ['a bad phone', { phone: '0571-abc' }, 'buyer.phone', '请输入正确的电话号码（7-20位数字或“-”）'],
    ['a landline', { phone: '0571-88886666' }, 'buyer.phone', undefined],
    ['an enterprise phone (400)', { phone: '400-800-8888' }, 'buyer.phone', undefined],
    [
      'a bank account with letters',
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
  ])('%s', (_case, patch, field, message) => {
    expect(check(buyer(patch)).errors[field]).toBe(message);
  });

  it('blocks a USCC whose check character is wrong, as the server does; warns on a short company name', () => {
    const wrongCheck = check(buyer({ tax_code: '91330100MA2B3C4D5X', name: '杭州' }));
    expect(wrongCheck.errors['buyer.tax_code']).toBe('统一社会信用代码校验位不正确，请核对');
    expect(wrongCheck.warnings['buyer.tax_code']).toBeUndefined();
    expect(wrongCheck.warnings['buyer.name']).toBe('名称较短，是否开票给自然人？');
    const fine = check(buyer({ tax_code: SELLER.tax_code.replace('91330106', '91330100') }));
    expect(fine.warnings['buyer.name']).toBeUndefined();
    const fiveChars = check(buyer({ name: '杭州某公司' }));
    expect(fiveChars.warnings['buyer.name']).toBeUndefined();
    expect(check(buyer({ name: '杭州某司' })).warnings['buyer.name']).toBe('名称较短，是否开票给自然人？');
  });

  it('asks "a natural person?" of a short company name only, never of a person', () => {
    expect(check(buyer({ title_type: 1, name: '王五' })).warnings).toEqual({});
    expect(check(buyer({ title_type: 2, name: '王五' })).warnings).toEqual({
      'buyer.name': '名称较短，是否开票给自然人？',
    });
  });

  it('checks the USCC check character only on 18-character codes', () => {
    for (const taxCode of ['330106123456789', '33010612345678901234']) {
      const { errors, warnings } = check(buyer({ tax_code: taxCode }));
      expect(errors['buyer.tax_code']).toBeUndefined();
      expect(warnings).toEqual({});
    }
  });

  it('a company without a name gets the schema error only, no short-name warning', () => {
    const { errors, warnings } = check(buyer({ name: '  ' }));
    expect(errors['buyer.name']).toBe('请输入购买方名称');
    expect(warnings).toEqual({});
  });

  it('with no seller tax code known (or not loaded yet), an empty buyer tax code is no clash', () => {
    const d = draftOf();
    for (const opts of [{}, { sellerTaxCode: '' }]) {
      expect(validateDraft(d, buildRequest(d, 'WEBserial0001', SELLER), opts).errors).toEqual({});
    }
  });

  it('a 专票 needs the tax code, a company too; the seller as buyer is refused', () => {
    const person = { title_type: 1 as const, name: '王五', tax_code: ' ' };
    expect(check(buyer(person)).errors['buyer.tax_code']).toBeUndefined();
    expect(check({ ...buyer(person), invoice_type: '81' }).errors['buyer.tax_code']).toBe(
      '开具专用发票须填写购买方纳税人识别号',
    );
    expect(check(buyer({ tax_code: ' ' })).errors['buyer.tax_code']).toBe('企业抬头请填写纳税人识别号');
    expect(check(buyer({ tax_code: ` ${SELLER.tax_code} ` })).errors['buyer.tax_code']).toBe(
      '购买方与销售方不能为同一纳税人',
    );
  });
});

describe('validateDraft: the hotel stay and the device', () => {
  const hotel = (check_in: string, check_out: string) =>
    draftOf({ stay: { room_no: '301', guest_name: '王五', check_in, check_out } });

  it.each<[string, string, string | undefined]>([
    ['2026-11-02', '2026-11-01', '离店日期不能早于入住日期'],
    ['2026-11-01', '2026-11-01', undefined],
    ['2026-11-01', '2026-11-03', undefined],
    ['', '2026-11-01', undefined],
    ['2026-11-01', '', undefined],
  ])('check-in %s, check-out %s', (inDay, outDay, message) => {
    expect(check(hotel(inDay, outDay)).errors['hotel_stay.check_out']).toBe(message);
  });

  it('names a device that cannot issue, only when one is chosen', () => {
    const d = draftOf();
    const withProblem = validateDraft(d, buildRequest(d, 'WEBserial0001', SELLER), {
      limits: { deviceProblem: '设备离线，请检查后再开票' },
    });
    expect(withProblem.errors.device_id).toBe('设备离线，请检查后再开票');
    const none = draftOf({ device_id: null });
    const noDevice = validateDraft(none, buildRequest(none, 'WEBserial0001', SELLER), {
      limits: { deviceProblem: '设备离线，请检查后再开票' },
    });
    expect(noDevice.errors.device_id).toBe('请选择开票设备');
  });
});
