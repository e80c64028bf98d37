import { describe, expect, it } from 'vitest';
import { usccCheckChar } from '../money/ids.ts';
import { publicSubmitBodySchema, SCAN_MSG } from './scan.ts';
import { TITLE_MSG } from './titles.ts';

const code = (first17: string) => `${first17}${usccCheckChar(first17)}`;
const base = {
  token: 'a'.repeat(24),
  title_type: 2 as const,
  name: '杭州西溪数据服务有限公司',
  tax_code: code('91330100MA2B3C4D5'),
  email: 'buyer@example.com',
};
const problem = (extra: Record<string, unknown>) => {
  const r = publicSubmitBodySchema.safeParse({ ...base, ...extra });
  return r.success ? null : r.error.issues[0]?.message;
};

describe('the buyer submit schema (shared by the phone page and the server)', () => {
  it('accepts an enterprise title with a valid USCC and either contact', () => {
    expect(problem({})).toBeNull();
    expect(problem({ email: '', mobile: '13900000001' })).toBeNull();
    // lower case is taken as upper case
    expect(publicSubmitBodySchema.parse({ ...base, tax_code: base.tax_code.toLowerCase() }).tax_code).toBe(
      base.tax_code,
    );
  });

  it('answers with the title rules and its own messages', () => {
    const wrongCheck = `${base.tax_code.slice(0, 17)}${base.tax_code.endsWith('0') ? '1' : '0'}`;
    expect(problem({ tax_code: wrongCheck })).toBe(TITLE_MSG.TAX_CODE_CHECKSUM);
    expect(problem({ tax_code: '' })).toBe(TITLE_MSG.TAX_CODE_REQUIRED);
    expect(problem({ tax_code: 'ABC' })).toBe(TITLE_MSG.TAX_CODE_FORMAT);
    expect(problem({ title_type: 1, tax_code: '', name: '李' })).toBe(TITLE_MSG.NAME_PERSONAL_MIN);
    expect(problem({ email: '', mobile: '' })).toBe(SCAN_MSG.CONTACT_REQUIRED);
    expect(problem({ mobile: '1390000' })).toBe(SCAN_MSG.MOBILE_FORMAT);
    expect(problem({ amount: '0' })).toBe(SCAN_MSG.AMOUNT_FORMAT);
    expect(problem({ title_type: 1, tax_code: '', name: '李雷', amount: '99.5' })).toBeNull();
  });
});
