import { describe, expect, it } from 'vitest';
import { type BlueInvoicePayload, buildRequest } from './build-request.ts';
import { computeAll } from './line-math.ts';
import { draftOf, line, SELLER } from './test-draft.ts';
import type { Draft } from './types.ts';
import { type Limits, validateDraft, zhIssue } from './validate.ts';

// What the shared request schema and the invoice's totals say about a draft, in the words the clerk
// sees next to the field (issue 22: the web module's mutation run found these reached by no test).

/** validateDraft on the payload the form would send, after `edit` changed it (a tampered or stale payload). */
const check = (d: Draft, opts: { limits?: Limits; edit?: (p: BlueInvoicePayload) => void } = {}) => {
  const payload = buildRequest(d, 'WEBserial0001', SELLER);
  opts.edit?.(payload);
  return validateDraft(d, payload, { sellerTaxCode: SELLER.tax_code, limits: opts.limits });
};

describe('zhIssue: zod defaults in plain Chinese', () => {
  it.each<[string, Parameters<typeof zhIssue>[0], string]>([
    ['a string too long', { code: 'too_big', origin: 'string', maximum: 300 }, '最多300个字符'],
    ['a number too big', { code: 'too_big', origin: 'number', maximum: 99 }, '不能超过99'],
    ['an empty string', { code: 'too_small', origin: 'string', minimum: 1 }, '必填'],
    ['a string too short', { code: 'too_small', origin: 'string', minimum: 6 }, '至少6个字符'],
    ['a number too small', { code: 'too_small', origin: 'number', minimum: 0 }, '必填'],
    ['an empty list', { code: 'too_small', origin: 'array', minimum: 1 }, '必填'],
    ['a missing value', { code: 'invalid_type' }, '必填'],
    ['a value not among the choices', { code: 'invalid_value' }, '请选择'],
    ['a malformed value', { code: 'invalid_format', origin: 'string' }, '格式不正确'],
  ])('%s', (_case, issue, message) => {
    expect(zhIssue(issue)).toBe(message);
  });
});

describe('validateDraft: the request schema, field by field', () => {
  it.each<[string, Partial<Draft>, string, string]>([
    [
      'a buyer name of 301 characters',
      { buyer: { ...draftOf().buyer, name: '购'.repeat(301) } },
      'buyer.name',
      '最多300个字符',
    ],
    ['a goods id of 0', { lines: [line({ goods_id: 0 })] }, 'goods_info.0.goods_id', '必填'],
    [
      'an unknown zero-rate flag',
      { lines: [line({ zero_rate_flag: '9' as never })] },
      'goods_info.0.zero_rate_flag',
      '请选择',
    ],
    [
      'a preferential code out of range',
      { lines: [line({ preferential_code: '19' })] },
      'goods_info.0.preferential_code',
      '格式不正确',
    ],
    [
      'a remark of 451 characters (its own message)',
      { remark: '备'.repeat(451) },
      'invoice_info.remark',
      '备注最多450个字符',
    ],
    ['no invoice type', { invoice_type: null }, 'invoice_type', '请选择发票种类'],
    ['no device', { device_id: null }, 'device_id', '请选择开票设备'],
  ])('%s', (_case, patch, field, message) => {
    expect(check(draftOf(patch)).errors).toEqual({ [field]: message });
  });

  it('a line whose code has no short name: the form asks for the code, the schema for the name', () => {
    expect(check(draftOf({ lines: [line({ short_name: '' })] })).errors).toEqual({
      'goods_info.0.tax_class_code': '请选择商品编码（税收分类编码）',
      'goods_info.0.short_name': '必填',
    });
  });

  it('a value of the wrong type is missing', () => {
    const { errors } = check(draftOf(), {
      edit: (p) => {
        p.seller = { ...p.seller, tax_code: 91330106 as never };
      },
    });
    expect(errors).toEqual({ 'seller.tax_code': '必填' });
  });

  it('an invoice without lines: the schema and the blue totals both say so', () => {
    expect(check(draftOf({ lines: [] })).errors).toEqual({
      goods_info: '请至少添加一行项目',
      'invoice_info.total_amount': '合计金额须大于0',
      'invoice_info.total_price_with_tax': '价税合计须大于0',
    });
  });

  it('a complete line with a malformed number in the payload is named by the schema', () => {
    const { errors } = check(draftOf(), {
      edit: (p) => {
        p.goods_info[0] = { ...p.goods_info[0]!, price: '1.123456789', tax_amount: '6.001' };
      },
    });
    expect(errors).toEqual({
      'goods_info.0.price': '数值格式不正确，最多八位小数',
      'goods_info.0.tax_amount': '金额格式不正确，最多两位小数',
    });
  });

  it('an incomplete eleventh line is named once, by the form (two-digit line index)', () => {
    const lines = [...Array.from({ length: 10 }, () => line()), line({ quantity: '', price: '' })];
    expect(check(draftOf({ lines })).errors).toEqual({ 'goods_info.10.price': '请输入单价或金额' });
  });

  it('an incomplete line still gets the schema errors of its other fields', () => {
    const { errors } = check(
      draftOf({ lines: [line({ quantity: '', price: '', preferential_code: '19' })] }),
    );
    expect(errors).toEqual({
      'goods_info.0.price': '请输入单价或金额',
      'goods_info.0.preferential_code': '格式不正确',
    });
  });
});

describe('validateDraft: the totals sent against the lines', () => {
  it.each<[string, Partial<BlueInvoicePayload['invoice_info']>, Record<string, string>]>([
    [
      'a total amount off by a yuan',
      { total_amount: '99.00' },
      {
        'invoice_info.total_amount': '合计金额与各行金额之和的误差超过0.01',
        'invoice_info.total_price_with_tax': '价税合计须等于合计金额与合计税额之和',
      },
    ],
    [
      'a total tax off by a yuan',
      { total_tax: '5.00' },
      {
        'invoice_info.total_tax': '合计税额须等于各行税额之和',
        'invoice_info.total_price_with_tax': '价税合计须等于合计金额与合计税额之和',
      },
    ],
    [
      'a total with tax off by a yuan',
      { total_price_with_tax: '105.00' },
      { 'invoice_info.total_price_with_tax': '价税合计须等于合计金额与合计税额之和' },
    ],
  ])('%s', (_case, totals, errors) => {
    const edit = (p: BlueInvoicePayload) => {
      p.invoice_info = { ...p.invoice_info, ...totals };
    };
    expect(check(draftOf(), { edit }).errors).toEqual(errors);
  });

  it('a malformed total keeps the schema message, with or without a limit', () => {
    const edit = (p: BlueInvoicePayload) => {
      p.invoice_info = { ...p.invoice_info, total_amount: '1e9' };
    };
    for (const limits of [{}, { perInvoiceLimit: '50.00', quotaLeft: '20.00' }]) {
      expect(check(draftOf(), { edit, limits }).errors['invoice_info.total_amount']).toBe(
        '金额格式不正确，最多两位小数',
      );
    }
  });
});

describe('validateDraft: the device limit and the monthly quota (total 100.00)', () => {
  it.each<[string, Limits, string | undefined]>([
    ['a limit equal to the total', { perInvoiceLimit: '100.00' }, undefined],
    ['a limit a cent below', { perInvoiceLimit: '99.99' }, '合计金额超过本设备单张开票限额 ¥99.99'],
    ['a quota left equal to the total', { quotaLeft: '100.00' }, undefined],
    ['a quota left a cent below', { quotaLeft: '99.99' }, '合计金额超过本月剩余开票额度 ¥99.99'],
    ['no quota (stock-based disc)', { perInvoiceLimit: '1000.00', quotaLeft: null }, undefined],
    [
      'both exceeded: the device limit is named',
      { perInvoiceLimit: '50.00', quotaLeft: '20.00' },
      '合计金额超过本设备单张开票限额 ¥50.00',
    ],
  ])('%s', (_case, limits, message) => {
    expect(check(draftOf(), { limits }).errors['invoice_info.total_amount']).toBe(message);
  });

  it('a total already wrong keeps its own message over the limit', () => {
    const edit = (p: BlueInvoicePayload) => {
      p.invoice_info = { ...p.invoice_info, total_amount: '99.00', total_price_with_tax: '105.00' };
    };
    expect(check(draftOf(), { edit, limits: { perInvoiceLimit: '50.00' } }).errors).toEqual({
      'invoice_info.total_amount': '合计金额与各行金额之和的误差超过0.01',
    });
  });

  it('no limits while a line is incomplete (the totals are not known yet)', () => {
    const d = draftOf({ lines: [line(), line({ quantity: '', price: '' })] });
    expect(check(d, { limits: { perInvoiceLimit: '1.00', quotaLeft: '1.00' } }).errors).toEqual({
      'goods_info.1.price': '请输入单价或金额',
    });
  });
});

describe('the form computes a change once: the payload and the checks take its line numbers', () => {
  const d = draftOf({ lines: [line({ price: '100', quantity: '2' })] });
  const computed = computeAll(d.lines, d.price_includes_tax);

  it('buildRequest and validateDraft read the numbers they are given, not their own', () => {
    // numbers that differ from what the draft would compute: only reading them can produce these amounts
    const given = computed.map(
      (n) => n && { ...n, amount: '7.00', taxAmount: '0.42', amountWithTax: '7.42' },
    );
    const payload = buildRequest(d, 'WEBserial0002', SELLER, { numbers: given });
    expect(payload.goods_info[0]).toMatchObject({ amount: '7.00', tax_amount: '0.42' });
    expect(payload.invoice_info).toMatchObject({ total_amount: '7.00', total_tax: '0.42' });
    // a payload whose line amount is empty: the schema's words show for a line the numbers call complete,
    // and are left out for a line they call incomplete (its own message says what is missing)
    const tampered = buildRequest(d, 'WEBserial0003', SELLER);
    tampered.goods_info[0]!.amount = '';
    expect(validateDraft(d, tampered, {}).errors).toHaveProperty(['goods_info.0.amount']);
    expect(validateDraft(d, tampered, { numbers: [null] }).errors).not.toHaveProperty([
      'goods_info.0.amount',
    ]);
    expect(Object.keys(validateDraft(d, payload, { numbers: given }).errors)).not.toContain(
      'goods_info.0.name',
    );
  });

  it('given the numbers the draft computes, the payload is the one computed without them', () => {
    expect(buildRequest(d, 'WEBserial0004', SELLER, { numbers: computed })).toEqual(
      buildRequest(d, 'WEBserial0004', SELLER),
    );
  });
});
