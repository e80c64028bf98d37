import { describe, expect, it } from 'vitest';
import { infoByTaxCodeQuerySchema, TITLE_MSG, taxCodeProblem, titleBodySchema } from './titles.ts';

const issues = (input: Record<string, unknown>) => {
  const r = titleBodySchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe('titleBodySchema', () => {
  it('requires a tax code for enterprises only', () => {
    expect(issues({ title_type: 2, name: '某公司' })).toEqual({ tax_code: TITLE_MSG.TAX_CODE_REQUIRED });
    expect(issues({ title_type: 1, name: '张三' })).toEqual({});
  });

  it('upper-cases the tax code and checks the USCC checksum of 18-character codes', () => {
    const ok = titleBodySchema.parse({ title_type: 2, name: '某公司', tax_code: '91110000600037341l' });
    expect(ok.tax_code).toBe('91110000600037341L');
    expect(issues({ title_type: 2, name: '某公司', tax_code: '91110000600037341N' })).toEqual({
      tax_code: TITLE_MSG.TAX_CODE_CHECKSUM,
    });
  });

  it('reports every wrong field at once', () => {
    expect(
      issues({ title_type: 1, name: '', phone: '12', bank_account: 'x', email: 'a@', mobile: '1' }),
    ).toEqual({
      name: TITLE_MSG.NAME_REQUIRED,
      phone: TITLE_MSG.PHONE_FORMAT,
      bank_account: TITLE_MSG.BANK_ACCOUNT_FORMAT,
      email: TITLE_MSG.EMAIL_FORMAT,
      mobile: TITLE_MSG.MOBILE_FORMAT,
    });
  });
});

describe('taxCodeProblem', () => {
  it.each([
    ['91110000600037341L', null],
    ['911101085923662400', null],
    ['330106123456789', null],
    ['91330106MA2KC7LM1A01', null],
    ['91110000600037341N', TITLE_MSG.TAX_CODE_CHECKSUM],
    ['12345', TITLE_MSG.TAX_CODE_FORMAT],
    ['9111000060003IOZSV', null], // not USCC-shaped: accepted on length and charset (domain.md §5.1)
  ])('%s', (code, problem) => {
    expect(taxCodeProblem(code)).toBe(problem);
  });
});

describe('titleBodySchema: whole issues', () => {
  const all = (input: Record<string, unknown>) =>
    titleBodySchema
      .safeParse(input)
      .error?.issues.map(({ code, path, message }) => ({ code, path, message })) ?? [];

  it('tax code rules are custom issues on tax_code', () => {
    expect(all({ title_type: 2, name: '某公司' })).toEqual([
      { code: 'custom', path: ['tax_code'], message: TITLE_MSG.TAX_CODE_REQUIRED },
    ]);
    expect(all({ title_type: 1, name: '张三', tax_code: '91110000600037341N' })).toEqual([
      { code: 'custom', path: ['tax_code'], message: TITLE_MSG.TAX_CODE_CHECKSUM },
    ]);
  });

  it('a personal name has at least 2 characters; an enterprise name may have one (domain.md §1.5)', () => {
    expect(all({ title_type: 1, name: '李' })).toEqual([
      { code: 'custom', path: ['name'], message: TITLE_MSG.NAME_PERSONAL_MIN },
    ]);
    expect(all({ title_type: 1, name: ' 李 ' })).toEqual([
      { code: 'custom', path: ['name'], message: TITLE_MSG.NAME_PERSONAL_MIN },
    ]);
    expect(all({ title_type: 1, name: '李雷' })).toEqual([]);
    expect(all({ title_type: 2, name: '李', tax_code: '91110000600037341L' })).toEqual([]);
  });
});

describe('infoByTaxCodeQuerySchema', () => {
  it('takes a tax code in any case and looks it up in upper case', () => {
    expect(infoByTaxCodeQuerySchema.parse({ tax_code: ' 91330106ma2kc7lm1a ' }).tax_code).toBe(
      '91330106MA2KC7LM1A',
    );
    expect(infoByTaxCodeQuerySchema.safeParse({ tax_code: '9133' }).error?.issues[0]?.message).toBe(
      TITLE_MSG.TAX_CODE_FORMAT,
    );
  });
});
