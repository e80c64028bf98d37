import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MSG } from './messages.ts';
import { text } from './text.ts';
import { chineseIssueMessage, fieldName, schemaAt, withFieldName } from './zod-zh.ts';
import '../index.ts';

const HAN = /[\u4e00-\u9fff]/;
const LATIN_WORDS = /\b(Invalid|expected|received|Too|small|big|input|option)\b/;

describe('Chinese validation messages (zod customError)', () => {
  const schema = z.object({
    page: z.coerce.number().int().positive(),
    page_size: z.number().int().max(30),
    name: z.string().min(2).max(5),
    buyer: z.object({ name: z.string() }),
    kind: z.enum(['excel', 'pdf_zip']),
    ids: z.array(z.number()).min(1),
    email: z.email(),
    own: z.string().min(1, '请输入门店名称'),
  });

  it.each([
    ['page', { page: 'x' }, '页码须为数字'],
    ['page', { page: Number.NaN }, '页码须为数字'],
    ['page_size', { page_size: 50 }, '每页条数不能大于30'],
    ['name', { name: 'abcdefg' }, '名称最多5个字'],
    ['name', { name: 'a' }, '名称至少2个字'],
    ['buyer.name', { buyer: {} }, '请填写购方名称'],
    ['kind', { kind: 'csv' }, '类型的取值无效'],
    ['ids', { ids: [] }, '请至少选择一项编号'],
    ['email', { email: 'not-an-address' }, '邮箱格式不正确'],
    ['own', { own: '' }, '请输入门店名称'],
  ])('%s: %j → %s', (path, input, message) => {
    const r = schema.partial().safeParse(input);
    const issue = r.error?.issues.find((i) => i.path.join('.') === path);
    expect(issue?.message).toBe(message);
  });

  it('every message of a random bad payload is Chinese, never zod’s English', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...Object.keys(schema.shape)), fc.anything()), (input) => {
        const r = schema.safeParse(input);
        for (const i of r.error?.issues ?? []) {
          expect(i.message).toMatch(HAN);
          expect(i.message).not.toMatch(LATIN_WORDS);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('falls back to a named field for unknown issue codes', () => {
    expect(chineseIssueMessage({ code: 'custom', path: ['remark'] })).toBe('备注不正确');
  });
});

describe('chineseIssueMessage: every issue code, worded in Chinese', () => {
  // the wording each zod issue gets when its schema gives none (issue 21 / 11)
  it.each([
    // invalid_type: missing, numbers, lists, objects, booleans, anything else
    [{ code: 'invalid_type', path: ['name'], expected: 'string', input: undefined }, '请填写名称'],
    [{ code: 'invalid_type', path: ['name'], expected: 'string', input: null }, '请填写名称'],
    [{ code: 'invalid_type', path: ['count'], expected: 'number', input: 'x' }, '数量须为数字'],
    [{ code: 'invalid_type', path: ['count'], expected: 'int', input: 'x' }, '数量须为数字'],
    [{ code: 'invalid_type', path: ['count'], expected: 'bigint', input: 'x' }, '数量须为数字'],
    [{ code: 'invalid_type', path: ['ids'], expected: 'array', input: 'x' }, '编号须为列表'],
    [{ code: 'invalid_type', path: ['buyer'], expected: 'object', input: 'x' }, '购买方信息格式不正确'],
    [
      { code: 'invalid_type', path: ['no_label'], expected: 'object', input: 'x' },
      '字段“no_label”格式不正确',
    ],
    [{ code: 'invalid_type', path: ['full'], expected: 'boolean', input: 'x' }, '是否全额须为是或否'],
    [{ code: 'invalid_type', path: ['name'], expected: 'string', input: 5 }, '名称格式不正确'],
    // too_small: strings and lists at 1 ask to fill in / pick, above 1 give the count
    [{ code: 'too_small', path: ['name'], origin: 'string', minimum: 1 }, '请填写名称'],
    [{ code: 'too_small', path: ['name'], origin: 'string', minimum: 0 }, '请填写名称'],
    [{ code: 'too_small', path: ['name'], origin: 'string', minimum: 2 }, '名称至少2个字'],
    [{ code: 'too_small', path: ['ids'], origin: 'array', minimum: 1 }, '请至少选择一项编号'],
    [{ code: 'too_small', path: ['ids'], origin: 'array', minimum: 2 }, '编号至少2项'],
    [{ code: 'too_small', path: ['ids'], origin: 'set', minimum: 1 }, '请至少选择一项编号'],
    [{ code: 'too_small', path: ['ids'], origin: 'set', minimum: 3 }, '编号至少3项'],
    [{ code: 'too_small', path: ['count'], origin: 'number', minimum: 1, inclusive: true }, '数量不能小于1'],
    [{ code: 'too_small', path: ['count'], origin: 'number', minimum: 1 }, '数量不能小于1'],
    [
      { code: 'too_small', path: ['count'], origin: 'number', minimum: 0, inclusive: false },
      '数量不能小于或等于0',
    ],
    // too_big
    [{ code: 'too_big', path: ['name'], origin: 'string', maximum: 5 }, '名称最多5个字'],
    [{ code: 'too_big', path: ['ids'], origin: 'array', maximum: 3 }, '编号最多3项'],
    [{ code: 'too_big', path: ['ids'], origin: 'set', maximum: 2 }, '编号最多2项'],
    [{ code: 'too_big', path: ['count'], origin: 'number', maximum: 9, inclusive: true }, '数量不能大于9'],
    [{ code: 'too_big', path: ['count'], origin: 'number', maximum: 9 }, '数量不能大于9'],
    [
      { code: 'too_big', path: ['count'], origin: 'number', maximum: 9, inclusive: false },
      '数量不能大于或等于9',
    ],
    // the other codes
    [{ code: 'invalid_format', path: ['email'], format: 'email' }, '邮箱格式不正确'],
    [{ code: 'not_multiple_of', path: ['count'], divisor: 5 }, '数量须为5的整数倍'],
    [{ code: 'invalid_value', path: ['kind'], values: ['excel'] }, '类型的取值无效'],
    [{ code: 'unrecognized_keys', path: [], keys: ['foo', 'bar'] }, '不支持的字段：foo、bar'],
    [{ code: 'unrecognized_keys', path: [] }, '不支持的字段：'],
    [{ code: 'invalid_union', path: ['kind'] }, '类型格式不正确'],
    [{ code: 'invalid_key', path: ['ids'] }, '编号格式不正确'],
    [{ code: 'invalid_element', path: ['ids'] }, '编号格式不正确'],
    [{ code: 'custom' }, '输入内容不正确'],
  ])('%j → %s', (issue, message) => {
    expect(chineseIssueMessage(issue)).toBe(message);
  });

  it('names a field by the last string key of its path: list items and nested ids', () => {
    // an item of `ids` is named after the list, not after its index
    expect(
      chineseIssueMessage({ code: 'invalid_type', path: ['ids', 0], expected: 'number', input: 'x' }),
    ).toBe('编号须为数字');
    // the innermost key names the field, not the outer one
    expect(
      chineseIssueMessage({
        code: 'invalid_type',
        path: ['device_id', 'store_ids'],
        expected: 'array',
        input: 1,
      }),
    ).toBe('门店须为列表');
  });

  it('gives the same words through zod: sets, exclusive bounds, multiples, unknown keys, unions', () => {
    const message = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
    expect(message(z.object({ ids: z.set(z.number()).min(2) }), { ids: new Set([1]) })).toBe('编号至少2项');
    expect(message(z.object({ ids: z.set(z.number()).max(1) }), { ids: new Set([1, 2]) })).toBe(
      '编号最多1项',
    );
    expect(message(z.object({ count: z.number().gt(0) }), { count: 0 })).toBe('数量不能小于或等于0');
    expect(message(z.object({ count: z.number().lt(5) }), { count: 5 })).toBe('数量不能大于或等于5');
    expect(message(z.object({ count: z.number().multipleOf(5) }), { count: 7 })).toBe('数量须为5的整数倍');
    expect(message(z.strictObject({ count: z.number() }), { count: 1, foo: 2, bar: 3 })).toBe(
      '不支持的字段：foo、bar',
    );
    expect(message(z.object({ kind: z.union([z.string(), z.number()]) }), { kind: true })).toBe(
      '类型格式不正确',
    );
    expect(message(z.object({ count: z.bigint() }), { count: 1 })).toBe('数量须为数字');
    expect(message(z.object({ full: z.boolean() }), { full: 'x' })).toBe('是否全额须为是或否');
    expect(message(z.object({ ids: z.array(z.number()) }), { ids: 'x' })).toBe('编号须为列表');
  });
});

describe('numbers past what anyone types', () => {
  it('says out of range instead of quoting a PostgreSQL or safe-integer bound', () => {
    const message = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
    expect(message(z.object({ page: z.number().int() }), { page: 1e20 })).toBe('页码超出允许范围');
    expect(message(z.object({ device_id: z.number().max(2_147_483_647) }), { device_id: 2 ** 31 })).toBe(
      '开票设备超出允许范围',
    );
    expect(message(z.object({ store_id: z.number().min(-2_147_483_647) }), { store_id: -(2 ** 31) })).toBe(
      '门店超出允许范围',
    );
    expect(message(z.object({ count: z.number().max(100_000) }), { count: 100_001 })).toBe(
      '数量不能大于100000',
    );
  });

  it('has zod’s zh-CN locale under our words: nothing falls back to English', () => {
    const locale = z.config().localeError;
    const issue = { code: 'invalid_type', expected: 'string', input: 1, path: [] };
    expect(locale?.(issue as never)).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('withFieldName: the field named in a validation answer', () => {
  const schema = z.object({
    date_from: text()
      .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式须为YYYY-MM-DD')
      .optional(),
    code: text({ label: '门店编号' }).regex(/^\w+$/, '门店编号为字母、数字或_'),
    phone: z.union([text('手机号').regex(/^1\d{10}$/, '请输入正确的手机号'), z.literal('')]).default(''),
    buyer: z.object({ name: text().min(1, '请输入购买方名称') }),
    goods_info: z.array(z.object({ price: text().regex(/^\d+$/, '数值格式不正确') })),
    extra: text().regex(/^x$/, '格式不对'),
  });

  it('names the field when the message does not', () => {
    expect(withFieldName('日期格式须为YYYY-MM-DD', ['date_from'], schema)).toBe(
      '开始日期：日期格式须为YYYY-MM-DD',
    );
    expect(withFieldName('数值格式不正确', ['goods_info', 0, 'price'], schema)).toBe('单价：数值格式不正确');
    // without the schema, the label map alone
    expect(withFieldName('数值格式不正确', ['goods_info', 0, 'price'])).toBe('单价：数值格式不正确');
  });

  it('leaves a message that names the field (by its text() label or the map, 购买方 = 购方)', () => {
    expect(withFieldName('门店编号为字母、数字或_', ['code'], schema)).toBe('门店编号为字母、数字或_');
    expect(withFieldName('请输入正确的手机号', ['phone'], schema)).toBe('请输入正确的手机号');
    expect(withFieldName('请输入购买方名称', ['buyer', 'name'], schema)).toBe('请输入购买方名称');
    expect(withFieldName('购方名称最多300个字', ['buyer', 'name'], schema)).toBe('购方名称最多300个字');
    expect(withFieldName('统一社会信用代码校验位不正确', ['tax_code'])).toBe('统一社会信用代码校验位不正确');
  });

  it('leaves the spec’s messages, a field with no Chinese name and the whole body alone', () => {
    expect(withFieldName(MSG.PICTURE_CODE, ['picture_code'], schema)).toBe('请输入4位验证码');
    expect(withFieldName(MSG.SMS_CODE_REQUIRED, ['sms_code'])).toBe(MSG.SMS_CODE_REQUIRED);
    expect(withFieldName('格式不对', ['extra'], schema)).toBe('格式不对');
    expect(withFieldName('格式不对', ['not', 'in', 'the', 'schema'], schema)).toBe('格式不对');
    expect(withFieldName('输入内容格式不正确', [], schema)).toBe('输入内容格式不正确');
  });

  it('finds a field’s schema through wrappers, lists, unions, intersections and pipes', () => {
    expect(schemaAt(schema, ['goods_info', 3, 'price'])).toBe(schema.shape.goods_info.element.shape.price);
    expect(schemaAt(schema, ['nothing'])).toBeUndefined();
    expect(schemaAt(schema, ['date_from', 'deeper'])).toBeUndefined();
    const both = z.intersection(z.object({ a: text() }), z.object({ b: text('乙') }));
    expect(schemaAt(both, ['b'])).toBe(both._zod.def.right.shape.b);
    const either = z.union([z.object({ a: text() }), z.object({ b: text('乙') })]);
    expect(schemaAt(either, ['b'])).toBeDefined();
    const piped = z.object({ n: z.string().transform(Number).pipe(z.number()) });
    expect(schemaAt(piped, ['n'])).toBeDefined();
    const lazy = z.lazy(() => z.object({ r: z.record(z.string(), text('值')) }));
    expect(schemaAt(lazy, ['r', 'k'])).toBeDefined();
  });

  it('reads the label map: most specific path first, then the common names, else none', () => {
    expect(fieldName(['buyer', 'name'])).toBe('购方名称');
    expect(fieldName(['goods_info', 2, 'price'])).toBe('单价');
    expect(fieldName(['device_id'])).toBe('开票设备');
    expect(fieldName(['something_new'])).toBeUndefined();
    expect(fieldName([])).toBeUndefined();
  });
});
