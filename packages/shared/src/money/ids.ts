import { beijingDay } from '../time/beijing.ts';

export { maskPhone } from '../validation/patterns.ts';

/** USCC charset (GB 32100-2015): digits then letters without I O S V Z; index = value. */
const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
/** Regex pre-check (domain.md §5.1). */
export const USCC_PATTERN = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** The 18th character of a USCC from its first 17 (null when they contain a character outside the set). */
export function usccCheckChar(first17: string): string | null {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = USCC_CHARS.indexOf(first17[i] ?? '?');
    if (v < 0) return null;
    sum += v * USCC_WEIGHTS[i];
  }
  return USCC_CHARS[(31 - (sum % 31)) % 31];
}

/** 统一社会信用代码 (GB 32100-2015): 18 chars, pattern, mod-31 check character. */
export function isValidUscc(code: string | null | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: the pattern test refuses null and undefined as well ('null', 'undefined' do not match)
  if (typeof code !== 'string' || !USCC_PATTERN.test(code)) return false;
  // Stryker disable next-line MethodExpression: usccCheckChar reads the first 17 characters only
  return usccCheckChar(code.slice(0, 17)) === code[17];
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';
export const ID_CARD_PATTERN = /^[1-9]\d{5}(18|19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dX]$/;

/** Check character of an 18-digit ID from its first 17 digits. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

function validBirthDate(yyyymmdd: string): boolean {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a date the pattern admits that does not exist rolls into the next month: month and day both change, the year never, so either check alone catches it
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  const iso = `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;
  return iso <= beijingDay();
}

/**
 * 居民身份证号码 (GB 11643-1999): 18 chars, real birth date not in the future, mod-11 check
 * character (lowercase x accepted).
 */
export function isValidIdCard(id: string | null | undefined): boolean {
  if (typeof id !== 'string') return false;
  const v = id.trim().toUpperCase();
  if (!ID_CARD_PATTERN.test(v)) return false;
  if (!validBirthDate(v.slice(6, 14))) return false;
  // Stryker disable next-line MethodExpression: idCardCheckChar reads the first 17 characters only
  return idCardCheckChar(v.slice(0, 17)) === v[17];
}

/** 15-digit ID (pre-1999) to 18 digits: insert 19 before the year, append the check character. */
export function upgradeIdCard15To18(id15: string): string | null {
  if (!/^\d{15}$/.test(id15)) return null;
  const first17 = `${id15.slice(0, 6)}19${id15.slice(6)}`;
  return first17 + idCardCheckChar(first17);
}

/**
 * 纳税人识别号 as the console accepts it (spec §5, domain.md §5.1): 15, 18 or 20 uppercase letters
 * or digits; an 18-char value in USCC shape must pass the USCC checksum (or be a valid ID number,
 * as 个体户 may use one).
 */
export function isValidTaxCode(code: string | null | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: the pattern test refuses null and undefined as well ('null', 'undefined' do not match)
  if (typeof code !== 'string' || !/^([0-9A-Z]{15}|[0-9A-Z]{18}|[0-9A-Z]{20})$/.test(code)) return false;
  // Stryker disable next-line ConditionalExpression: USCC_PATTERN matches 18 characters only
  if (code.length === 18 && USCC_PATTERN.test(code)) return isValidUscc(code) || isValidIdCard(code);
  return true;
}

/**
 * Masks an ID-document number: 18/15-char IDs keep the first 6 and last 4 ('110105********002X');
 * shorter numbers keep their first and last 2 characters.
 */
export function maskIdNumber(id: string | null | undefined): string {
  if (!id) return '';
  const v = id.trim();
  if (v.length >= 15) return `${v.slice(0, 6)}${'*'.repeat(v.length - 10)}${v.slice(-4)}`;
  if (v.length <= 4) return '*'.repeat(v.length);
  return `${v.slice(0, 2)}${'*'.repeat(v.length - 4)}${v.slice(-2)}`;
}
