import { formatMoney } from '@kaipiao/shared';
import type { Totals } from '../utils/line-math.ts';
import { CellError, useFirstError } from './field.tsx';
import styles from './invoice-issue.module.css';

// 合计 and 价税合计（大写/小写）, following every keystroke (domain.md §1.3).

export function TotalsBar({ totals }: { totals: Totals }) {
  const error = useFirstError([
    'invoice_info.total_amount',
    'invoice_info.total_tax',
    'invoice_info.total_price_with_tax',
  ]);
  return (
    <div className={styles.totals}>
      <div className={styles.totalsRow}>
        <span className={styles.totalsItem}>
          合计金额
          <output aria-label="合计金额" className={styles.figure}>
            {formatMoney(totals.totalAmount, { symbol: true })}
          </output>
        </span>
        <span className={styles.totalsItem}>
          合计税额
          <output aria-label="合计税额" className={styles.figure}>
            {formatMoney(totals.totalTax, { symbol: true })}
          </output>
        </span>
        <span className={`${styles.totalsItem} ${styles.totalsCapital}`}>
          价税合计（大写）
          <span className={styles.circleX} aria-hidden>
            ×
          </span>
          <output aria-label="价税合计大写" className={styles.figure}>
            {totals.capital}
          </output>
        </span>
        <span className={styles.totalsItem}>
          （小写）
          <output aria-label="价税合计" className={`${styles.figure} ${styles.grand}`}>
            {formatMoney(totals.totalWithTax, { symbol: true })}
          </output>
        </span>
      </div>
      <CellError message={error} />
    </div>
  );
}
