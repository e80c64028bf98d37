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
