import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskPhone as patternsMaskPhone } from '../validation/patterns.ts';
import {
  idCardCheckChar,
  isValidIdCard,
  isValidTaxCode,
  isValidUscc,
  maskIdNumber,
  maskPhone,
  upgradeIdCard15To18,
  usccCheckChar,
} from './ids.ts';

describe('isValidUscc — domain.md §5.1 vectors', () => {
  it.each([
    '91110000600037341L',
    '121200004013590816',
    '91310115MA1K3BTP2B',
    '9144030071526726XG',
    '91340600MA2PBM9HXD',
    '91320214745555318W',
    '91230184MA1BUFLT44',
    '92371000MA3MXH0E3W',
    '91110108772551611J',
    '911101085923662400',
    '91440300568520498A',
    '915101820724315989',
  ])('valid %s', (code) => {
    expect(isValidUscc(code)).toBe(true);
    expect(isValidTaxCode(code)).toBe(true);
  });

  it.each([
    ['91110000600037341N', 'checksum'],
    ['A1110000600037341L', 'format'],
    ['9111000060003IOZSV', 'bad letters'],
    ['12345', 'length'],
    ['91110108MA01XXXX78', 'placeholder'],
    ['91110000600037341l', 'lowercase'],
    ['', 'empty'],
  ])('invalid %s (%s)', (code) => {
    expect(isValidUscc(code)).toBe(false);
  });

  it('worked example: Σ = 538 → L; Σ mod 31 = 0 → 0', () => {
    expect(usccCheckChar('91110000600037341')).toBe('L');
    expect(usccCheckChar('91110108592366240')).toBe('0');
    expect(usccCheckChar('9111000060003734I')).toBeNull();
    expect(isValidUscc(null)).toBe(false);
  });

  it('property: 17 random characters + the check character is valid, any other 18th character is not', () => {
    const set = '0123456789ABCDEFGHJKLMNPQRTUWXY';
    const ch = fc.constantFrom(...set);
    const digit = fc.constantFrom(...'0123456789');
    fc.assert(
      fc.property(
        fc.tuple(
          fc.array(ch, { minLength: 2, maxLength: 2 }),
          fc.array(digit, { minLength: 6, maxLength: 6 }),
          fc.array(ch, { minLength: 9, maxLength: 9 }),
        ),
        ch,
        ([a, b, c], other) => {
          const first17 = [...a, ...b, ...c].join('');
          const check = usccCheckChar(first17) as string;
          expect(isValidUscc(first17 + check)).toBe(true);
          if (other !== check) expect(isValidUscc(first17 + other)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('isValidIdCard — domain.md §5.2 vectors', () => {
  it.each([
    '360426199101010071',
    '44011320141005001X',
    '412723199010050012',
    '110102199101010078',
    '11010519491231002X',
    '11010519491231002x',
    '440524188001010014',
  ])('valid %s', (id) => {
    expect(isValidIdCard(id)).toBe(true);
  });

  it.each([
    ['36042619910102009X', 'check should be 3'],
    ['360426199113010079', 'month 13'],
    ['T60426199101010078', 'format'],
    ['110105194902300021', 'Feb 30'],
    ['11010519490229002X', 'not a leap year'],
    ['1101051949123100', 'length'],
  ])('invalid %s (%s)', (id) => {
    expect(isValidIdCard(id)).toBe(false);
  });

  it('worked example Σ 167 → X; 15 → 18 upgrade; future birth dates refused; leap days accepted', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(upgradeIdCard15To18('110105491231002')).toBe('11010519491231002X');
    expect(upgradeIdCard15To18('11010549123100')).toBeNull();
    const future = `1101052099010100${'1'}`;
    expect(isValidIdCard(future + idCardCheckChar(future))).toBe(false);
    const leap = '11010520000229002';
    expect(isValidIdCard(leap + idCardCheckChar(leap))).toBe(true);
    expect(isValidIdCard(undefined)).toBe(false);
  });

  it('property: a valid date + the check character is valid, a wrong check character is not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 110000, max: 659999 }),
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2020-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 999 }),
        fc.constantFrom(...'0123456789X'),
        (area, birth, seq, other) => {
          const first17 = `${area}${birth.toISOString().slice(0, 10).replace(/-/g, '')}${String(seq).padStart(3, '0')}`;
          const check = idCardCheckChar(first17);
          expect(isValidIdCard(first17 + check)).toBe(true);
          if (other !== check) expect(isValidIdCard(first17 + other)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('isValidTaxCode — 15/18/20 characters (spec §5, domain.md §5.1)', () => {
  it('accepts 15 and 20 characters on charset alone, 18 in USCC shape only with its checksum', () => {
    expect(isValidTaxCode('110105491231002')).toBe(true);
    expect(isValidTaxCode('11010519491231002X00')).toBe(true);
    expect(isValidTaxCode('91110000600037341L')).toBe(true);
    expect(isValidTaxCode('91110000600037341N')).toBe(false);
    // 个体户 may use the owner's ID number
    expect(isValidTaxCode('11010519491231002X')).toBe(true);
    // 18 characters outside the USCC shape (letters I/O/S/V/Z) are left to the bureau
    expect(isValidTaxCode('9111000060003IOZSV')).toBe(true);
  });

  it('refuses other lengths, lowercase, symbols', () => {
    for (const code of ['12345', '1234567890123456', '91110000600037341l', '91110000-600037341', '', null]) {
      expect(isValidTaxCode(code)).toBe(false);
    }
  });
});

describe('masking', () => {
  it('maskPhone is the validation/patterns one (first 3, last 4)', () => {
    expect(maskPhone).toBe(patternsMaskPhone);
    expect(maskPhone('17612342696')).toBe('176****2696');
  });

  it('maskIdNumber keeps the first 6 and last 4 of IDs, first and last 2 of short numbers', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('110105********002X');
    expect(maskIdNumber('110105491231002')).toBe('110105*****1002');
    expect(maskIdNumber('E12345678')).toBe('E1*****78');
    expect(maskIdNumber('1234')).toBe('****');
    expect(maskIdNumber('')).toBe('');
    expect(maskIdNumber(null)).toBe('');
  });
});

describe('isValidIdCard — dates at the edges, with a correct check character', () => {
  const withCheck = (first17: string) => first17 + idCardCheckChar(first17);

  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['19490230', 'Feb 30'],
    ['19490229', 'Feb 29 of a common year'],
    ['19490431', 'Apr 31'],
    ['20001131', 'Nov 31'],
  ])('refuses %s (%s) even when the check character fits', (birth) => {
    expect(isValidIdCard(withCheck(`110105${birth}002`))).toBe(false);
  });

  it('a birth date of today (Beijing) is valid, tomorrow is not', () => {
    // 2026-11-26 08:30 in Beijing
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T00:30:00Z'));
    expect(isValidIdCard(withCheck('11010520261126002'))).toBe(true);
    expect(isValidIdCard(withCheck('11010520261127002'))).toBe(false);
    expect(isValidIdCard(withCheck('11010520261201002'))).toBe(false);
    expect(isValidIdCard(withCheck('11010520261031002'))).toBe(true);
  });

  it('spaces around the number and a lower-case x are accepted', () => {
    expect(isValidIdCard(' 11010519491231002x ')).toBe(true);
  });
});

describe('isValidUscc / usccCheckChar / upgrade — inputs of the wrong shape', () => {
  it('fewer than 17 characters have no check character', () => {
    expect(usccCheckChar('9111000060003734')).toBeNull();
    expect(usccCheckChar('')).toBeNull();
  });

  it('only 18 characters: a valid code with anything after it is refused; non-strings are refused', () => {
    expect(isValidUscc('91110000600037341L')).toBe(true);
    expect(isValidUscc('91110000600037341LX')).toBe(false);
    expect(isValidUscc('X91110000600037341L')).toBe(false);
    expect(isValidUscc(null)).toBe(false);
    expect(isValidUscc(undefined)).toBe(false);
    expect(isValidTaxCode(null)).toBe(false);
  });

  it('upgrades exactly 15 digits', () => {
    expect(upgradeIdCard15To18('1101054912310021')).toBeNull();
    expect(upgradeIdCard15To18('x110105491231002')).toBeNull();
    expect(upgradeIdCard15To18('110105491231002x')).toBeNull();
  });

  it('masks an ID after trimming it', () => {
    expect(maskIdNumber(' 11010519491231002X ')).toBe('110105********002X');
    expect(maskIdNumber(' E1234567 ')).toBe('E1****67');
  });
});
