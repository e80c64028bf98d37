import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chineseIssueMessage } from './zod-zh.ts';
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
    [{ code: 'invalid_type', path: ['buyer'], expected: 'object', input: 'x' }, '字段“buyer”格式不正确'],
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
