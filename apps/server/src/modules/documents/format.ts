import { formatAmount, formatQuantity, rateLabel, toChineseCapital } from '@kaipiao/shared';
import type { DocLine } from './model.ts';

/** 数量 / 单价 as the console shows them (shared formatQuantity): "1.50000000" → "1.5"; null → ''. */
export const trimDecimal = (v: string | null | undefined): string => formatQuantity(v);

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
