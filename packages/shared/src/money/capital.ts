import { Dec, type DecimalInput, dec, fixed, trimmed } from './decimal.ts';
import { MONEY_MSG } from './messages.ts';

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const SECTION_UNITS = ['', '拾', '佰', '仟'];
const FRACTION_UNITS = ['角', '分', '厘', '毫'];
const LIMIT = new Dec('1e15');

/** Up to 4 digits, no leading zeros: 1010 → 壹仟零壹拾, 10 → 壹拾. */
function section(digits: string): string {
  let out = '';
  // Stryker disable next-line BooleanLiteral: out is empty until the first non-zero digit, which resets zero, so its starting value is never read
  let zero = false;
  for (let k = 0; k < digits.length; k++) {
    const d = Number(digits[k]);
    const unit = SECTION_UNITS[digits.length - 1 - k];
    if (d === 0) {
      zero = true;
      continue;
    }
    if (zero && out) out += '零';
    zero = false;
    out += DIGITS[d] + unit;
  }
  return out;
}

/** A non-negative integer (digit string without leading zeros) in capitals, 亿 and 万 grouping. */
function integerWords(digits: string): string {
  if (digits.length <= 4) return section(digits);
  const [split, unit] = digits.length > 8 ? [digits.length - 8, '亿'] : [digits.length - 4, '万'];
  const high = digits.slice(0, split);
  const low = digits.slice(split);
  const lowTrim = low.replace(/^0+/, '');
  if (!lowTrim) return `${integerWords(high)}${unit}`;
  // a zero at the top of the lower group is read once as 零 (10600 → 壹万零陆佰)
  return `${integerWords(high)}${unit}${lowTrim.length < low.length ? '零' : ''}${integerWords(lowTrim)}`;
}

export interface ChineseNumeralOptions {
  /** decimals kept (rounded half-up): 2 = 角分 (default), up to 4 = 角分厘毫 */
  fractionDigits?: 0 | 1 | 2 | 3 | 4;
  /** yuan unit: '元' (default) or '圆' (printed on tax invoices) */
  unit?: '元' | '圆';
  /** prefix of negative amounts: '负' (default); invoices use '（负数）' */
  negativePrefix?: string;
}

/**
 * Amount in Chinese capitals (人民币大写, domain.md §5.4) for |value| < 1e15 with up to 4 decimals
 * (角分厘毫): 整 after 元 only, one 零 for a run of zeros, 零 before the fraction when 角 is zero.
 * Throws a Chinese error at or beyond 1e15.
 */
export function toChineseNumeral(value: DecimalInput, options: ChineseNumeralOptions = {}): string {
  const fd = options.fractionDigits ?? 2;
  if (!Number.isInteger(fd) || fd < 0 || fd > 4) throw new Error(MONEY_MSG.FRACTION_DIGITS);
  const unit = options.unit ?? '元';
  const d = dec(value).toDecimalPlaces(fd);
  if (d.abs().greaterThanOrEqualTo(LIMIT)) throw new Error(MONEY_MSG.CAPITAL_RANGE);
  const [intDigits, fracDigits = ''] = d.abs().toFixed(fd).split('.');
  // Stryker disable next-line ConditionalExpression,StringLiteral: integerWords('0') is '' too
  const intWords = intDigits === '0' ? '' : integerWords(intDigits);
  const frac = fracDigits.replace(/0+$/, '');

  let out: string;
  if (!frac) {
    out = `${intWords || '零'}${unit}整`;
  } else {
    out = intWords ? `${intWords}${unit}` : '';
    let zero = false;
    for (let k = 0; k < frac.length; k++) {
      const digit = Number(frac[k]);
      if (digit === 0) {
        zero = true;
        continue;
      }
      if (zero && out) out += '零';
      zero = false;
      out += DIGITS[digit] + FRACTION_UNITS[k];
    }
  }
  return d.isNegative() && !d.isZero() ? `${options.negativePrefix ?? '负'}${out}` : out;
}

/**
 * 价税合计（大写） as tax invoices print it (domain.md §5.4): 2 decimals, 圆, 整 after 圆,
 * negatives prefixed （负数）: '壹佰圆整', '（负数）伍佰圆整', '壹拾圆零壹分'.
 */
export function toChineseCapital(amount: DecimalInput): string {
  return toChineseNumeral(amount, { fractionDigits: 2, unit: '圆', negativePrefix: '（负数）' });
}

/** Two decimals, half-up, no grouping: '1234.50'. Empty or unparsable input gives ''. */
export function formatAmount(value: DecimalInput | null | undefined): string {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: null, undefined, '' and the stand-in string all fail in fixed() below, whose catch gives ''
  if (value === null || value === undefined || value === '') return '';
  try {
    return fixed(value, 2);
  } catch {
    return '';
  }
}

/**
 * Display form with thousands separators: '1,234.50'; `symbol` prefixes '¥' ('-¥1,234.50').
 * Empty or unparsable input gives ''.
 */
export function formatMoney(
  value: DecimalInput | null | undefined,
  options: { symbol?: boolean; fractionDigits?: number } = {},
): string {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: null, undefined, '' and the stand-in string all fail in fixed() below, whose catch gives ''
  if (value === null || value === undefined || value === '') return '';
  let text: string;
  try {
    text = fixed(value, options.fractionDigits ?? 2);
  } catch {
    return '';
  }
  const negative = text.startsWith('-');
  const [int, frac] = (negative ? text.slice(1) : text).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${options.symbol ? '¥' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/**
 * 数量 and 单价 as shown (console, PDF, XML): up to 8 decimals, half-up, trailing zeros trimmed, no
 * grouping: '2.00000000' → '2', '4716.98000000' → '4716.98'. Empty or unparsable input gives ''.
 * Amounts take formatMoney / formatAmount (always 2 decimals).
 */
export function formatQuantity(value: DecimalInput | null | undefined): string {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: null, undefined and '' all fail in trimmed() below, whose catch gives ''
  if (value === null || value === undefined || value === '') return '';
  try {
    return trimmed(value, 8);
  } catch {
    return '';
  }
}

/** 单价 is shown like a quantity (domain.md §2: both carry up to 8 decimals). */
export const formatUnitPrice = formatQuantity;
