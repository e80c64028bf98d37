import { describe, expect, it } from 'vitest';
import { isWeakPassword, maskPhone, PATTERNS } from './patterns.ts';

type Case = [string, boolean];
const table: Record<keyof typeof PATTERNS, Case[]> = {
  account: [
    ['kaipiao_clerk', true],
    ['12345678', false],
    ['abc1234', false],
    ['a'.repeat(20), true],
    ['a'.repeat(21), false],
  ],
  accountName: [
    ['kaipiao01', true],
    ['123456789', false],
    ['a'.repeat(16), false],
  ],
  email: [
    ['clerk@example.com', true],
    ['a.b+c@mail.co.cn', true],
    ['clerk@', false],
    ['@x.com', false],
    ['a b@x.com', false],
  ],
  password: [
    ['Kaipiao@2026', true],
    ['abcdefgh', false],
    ['12345678', false],
    ['abcd1234', true],
    ['ABCD!@#$', true],
    ['Ab1!', false],
    ['Abcdefgh12345678901', false],
    ['Abc 12345', false],
  ],
  mobile: [
    ['13800000001', true],
    ['23800000001', false],
    ['1380000000', false],
    ['138000000011', false],
  ],
  landline: [
    ['0571-88886666', true],
    ['88886666', true],
    ['057188886666', true],
    ['0571-88886666-123', true],
    ['123', false],
  ],
  taxCode: [
    ['91330106MA2KC7LM1A', true],
    ['330106123456789', true],
    ['91330106MA2KC7LM1A01', true],
    ['91330106ma2kxxxx1a', false],
    ['9133010', false],
  ],
  bankAccount: [
    ['6222021234567890123', true],
    ['', false],
    ['1'.repeat(31), false],
    ['6222-0212', false],
  ],
  enterprisePhone: [
    ['0571-88886666', true],
    ['1234567', true],
    ['-1234567', false],
    ['123456', false],
  ],
  identityCard: [
    ['11010519491231002X', true],
    ['110105194912310021', true],
    ['11010519491331002X', false],
    ['1101051949123100', false],
  ],
  smsCode: [
    ['123456', true],
    ['12345', false],
    ['12345a', false],
  ],
  pictureCode: [
    ['a1B2', true],
    ['abc', false],
    ['abcde', false],
  ],
};

describe('PATTERNS (spec §5)', () => {
  for (const [name, cases] of Object.entries(table)) {
    it.each(cases)(`${name}: %s → %s`, (value, expected) => {
      expect(PATTERNS[name as keyof typeof PATTERNS].test(value)).toBe(expected);
    });
  }
});

describe('maskPhone', () => {
  it('shows the first 3 and last 4 digits', () => {
    expect(maskPhone('13800000002')).toBe('138****0002');
  });
  it('leaves values too short to mask', () => {
    expect(maskPhone('12345')).toBe('12345');
  });
  it("is the real-name dialog's masking too: characters 4 to 7 as stars on a mobile (spec §2)", () => {
    const mobile = '17612342696';
    expect(maskPhone(mobile)).toBe(`${mobile.slice(0, 3)}****${mobile.slice(7)}`);
    expect(maskPhone(mobile)).toBe('176****2696');
  });
});

describe('isWeakPassword', () => {
  it.each([
    ['abcd1234', true],
    ['aaaaaaa1', true],
    ['Kaipiao@2026', false],
    ['Kaipiao2026', false],
    ['Kaaaaa@2026', true],
  ])('%s → %s', (pw, weak) => {
    expect(isWeakPassword(pw)).toBe(weak);
  });
});

describe('isWeakPassword: three classes or more, and no run of four', () => {
  it.each([
    ['KaiPiaoX', true], // upper and lower only
    ['KAIPIAO1', true], // upper and digits only
    ['kaipiao@', true], // lower and symbol only
    ['KaiPiao1', false],
    ['kaipiao@1', false],
    ['Kaipiaoo@2026', false], // a doubled letter is not a run
    ['Kaiii@2026', false], // nor a tripled one
    ['Kaiiii@2026', true],
  ])('%s → %s', (pw, weak) => {
    expect(isWeakPassword(pw)).toBe(weak);
  });
});
