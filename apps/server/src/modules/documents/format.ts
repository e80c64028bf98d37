import { formatAmount, rateLabel, toChineseCapital, trimmed } from '@kaipiao/shared';
import type { DocLine } from './model.ts';
import { shanghaiYmd } from './qr.ts';

/** `2026年11月22日` (Asia/Shanghai). */
export function chineseDate(d: Date): string {
  const { y, m, d: day } = shanghaiYmd(d);
  return `${y}年${m}月${day}日`;
}

/** `2026-11-22` (Asia/Shanghai). */
export function isoDate(d: Date): string {
  const { y, m, d: day } = shanghaiYmd(d);
  return `${y}-${m}-${day}`;
}

/** `2026-11-22 10:11:12` (Asia/Shanghai). */
export function isoDateTime(d: Date): string {
  const t = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
}

/** A stored decimal without trailing zeros: "1.50000000" → "1.5", "2.00" → "2"; null → ''. */
export const trimDecimal = (v: string | null | undefined): string =>
  v === null || v === undefined || v === '' ? '' : trimmed(v);

/** Two decimals: "1234.50". */
export const money2 = (v: string): string => formatAmount(v);

/** ¥ then the amount, sign first as the 数电 red form prints it: ¥-94.34. */
export const yuan = (v: string) => `¥${money2(v)}`;

/** 价税合计（大写）: 圆/角/分/整, red invoices （负数）… (domain.md §5.4). */
export const toCapital = (amount: string): string => toChineseCapital(amount);

/** 税率/征收率 cell and 税额 cell per the bureau's display rules (domain.md §1.3). */
export function rateAndTax(
  line: Pick<DocLine, 'taxRate' | 'taxAmount' | 'zeroRateFlag' | 'preferentialCode'>,
): {
  rate: string;
  tax: string;
} {
  const rate = rateLabel(line.taxRate, line.zeroRateFlag, line.preferentialCode);
  if (rate === '免税') return { rate, tax: '***' };
  if (rate === '不征税') return { rate, tax: '' };
  return { rate, tax: money2(line.taxAmount) };
}
