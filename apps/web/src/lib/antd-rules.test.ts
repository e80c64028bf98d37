import type { FormInstance, FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodRules } from './antd-rules.ts';

const schema = z
  .object({
    kind: z.enum(['company', 'person']),
    buyer: z.object({ name: z.string().min(1, '请输入名称'), tax_code: z.string().default('') }),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'company' && !v.buyer.tax_code) {
      ctx.addIssue({ code: 'custom', path: ['buyer', 'tax_code'], message: '企业请填写税号' });
    }
  });

/** Runs the rule of `field` against form values as antd would. */
async function check(
  field: string | string[],
  values: unknown,
  toRequest?: (v: never) => unknown,
): Promise<string | null> {
  const [rule] = (toRequest ? zodRules(schema, toRequest) : zodRules(schema))(field);
  const form = { getFieldsValue: () => values } as unknown as FormInstance;
  const obj = (typeof rule === 'function' ? rule(form) : rule) as Exclude<
    FormRule,
    (f: FormInstance) => unknown
  >;
  try {
    await obj.validator!(obj, undefined, () => undefined);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('zodRules: antd rules from the shared schema', () => {
  it('reports the schema’s message for the field, nested paths and cross-field rules included', async () => {
    const company = { kind: 'company', buyer: { name: '', tax_code: '' } };
    expect(await check(['buyer', 'name'], company)).toBe('请输入名称');
    expect(await check(['buyer', 'tax_code'], company)).toBe('企业请填写税号');
    expect(await check('kind', company)).toBeNull();
  });

  it('passes a field whose value is good while another field is wrong', async () => {
    const person = { kind: 'person', buyer: { name: '', tax_code: '' } };
    expect(await check(['buyer', 'tax_code'], person)).toBeNull();
    expect(await check(['buyer', 'name'], person)).toBe('请输入名称');
    expect(await check(['buyer', 'name'], { kind: 'person', buyer: { name: '张三' } })).toBeNull();
  });

  it('parses what the form would send (toRequest) and names the request’s field', async () => {
    const toRequest = (v: { type: string; name?: string }) => ({
      kind: v.type === '2' ? 'company' : 'person',
      buyer: { name: v.name ?? '' },
    });
    expect(await check(['buyer', 'tax_code'], { type: '2', name: '某公司' }, toRequest)).toBe(
      '企业请填写税号',
    );
    expect(await check(['buyer', 'tax_code'], { type: '1' }, toRequest)).toBeNull();
    expect(await check(['buyer', 'name'], { type: '1' }, toRequest)).toBe('请输入名称');
  });
});
