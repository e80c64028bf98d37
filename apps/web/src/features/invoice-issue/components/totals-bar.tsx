import { formatMoney } from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
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
          {TERMS.totalAmount}
          <output aria-label={TERMS.totalAmount} className={styles.figure}>
            {formatMoney(totals.totalAmount, { symbol: true })}
          </output>
        </span>
        <span className={styles.totalsItem}>
          {TERMS.totalTax}
          <output aria-label={TERMS.totalTax} className={styles.figure}>
            {formatMoney(totals.totalTax, { symbol: true })}
          </output>
        </span>
        <span className={`${styles.totalsItem} ${styles.totalsCapital}`}>
          {TERMS.totalWithTaxCapital}
          <span className={styles.circleX} aria-hidden>
            ×
          </span>
          <output aria-label={`${TERMS.totalWithTax}大写`} className={styles.figure}>
            {totals.capital}
          </output>
        </span>
        <span className={styles.totalsItem}>
          （小写）
          <output aria-label={TERMS.totalWithTax} className={`${styles.figure} ${styles.grand}`}>
            {formatMoney(totals.totalWithTax, { symbol: true })}
          </output>
        </span>
      </div>
      <CellError message={error} />
    </div>
  );
}
