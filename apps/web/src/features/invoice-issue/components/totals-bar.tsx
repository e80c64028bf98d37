import { formatMoney } from '@kaipiao/shared';
import { Space } from 'antd';
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
      <Space size={32} wrap>
        <span>
          合计金额{' '}
          <output aria-label="合计金额" className={styles.figure}>
            {formatMoney(totals.totalAmount, { symbol: true })}
          </output>
        </span>
        <span>
          合计税额{' '}
          <output aria-label="合计税额" className={styles.figure}>
            {formatMoney(totals.totalTax, { symbol: true })}
          </output>
        </span>
        <span>
          价税合计（大写）ⓧ{' '}
          <output aria-label="价税合计大写" className={styles.figure}>
            {totals.capital}
          </output>
        </span>
        <span>
          （小写）
          <output aria-label="价税合计" className={`${styles.figure} ${styles.grand}`}>
            {formatMoney(totals.totalWithTax, { symbol: true })}
          </output>
        </span>
      </Space>
      <CellError message={error} />
    </div>
  );
}
