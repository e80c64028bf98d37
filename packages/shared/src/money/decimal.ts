import DecimalBase from 'decimal.js';
import { TERMS } from '../glossary/terms.ts';

/**
 * The one Decimal every money function uses: 40 significant digits, ROUND_HALF_UP (ties away from
 * zero, as Java HALF_UP in the bureau's reference code). A clone, so the global Decimal stays untouched.
 */
export const Dec = DecimalBase.clone({
  precision: 40,
  rounding: DecimalBase.ROUND_HALF_UP,
  toExpNeg: -30,
  toExpPos: 40,
});
export type Dec = InstanceType<typeof Dec>;

export type DecimalInput = string | number | Dec;

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Parses a decimal string/number; throws a Chinese error for anything that is not a plain number. */
export function dec(value: DecimalInput, label: string = TERMS.amount): Dec {
  if (value instanceof Dec) return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${label}格式不正确`);
    // decimal.js reads a number through its shortest round-trip string, so 0.1 stays 0.1.
    return new Dec(value);
  }
  // Stryker disable next-line StringLiteral: '' and the stand-in both fail NUMERIC with the same error
  const s = String(value ?? '')
    .trim()
    .replace(/,/g, '');
  if (!NUMERIC.test(s)) throw new Error(`${label}格式不正确`);
  return new Dec(s);
}

/** True when value parses as a plain decimal number. */
export function isDecimal(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  return NUMERIC.test(value.trim());
}

/** Rounds half-up to `dp` decimals and prints exactly `dp` decimals ("-0.00" becomes "0.00"). */
export function fixed(value: DecimalInput, dp = 2): string {
  const d = dec(value).toDecimalPlaces(dp);
  return (d.isZero() ? new Dec(0) : d).toFixed(dp);
}

/** Rounds half-up to at most `dp` decimals and prints without trailing zeros ("31.44333333", "100"). */
export function trimmed(value: DecimalInput, dp = 8): string {
  const d = dec(value).toDecimalPlaces(dp);
  return (d.isZero() ? new Dec(0) : d).toFixed();
}

export function round2(value: DecimalInput): Dec {
  return dec(value).toDecimalPlaces(2);
}
