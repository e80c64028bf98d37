import { prefetchStat } from '../../../features/invoice-stat/api.ts';
import { StatPage } from '../../../features/invoice-stat/components/stat-page.tsx';

export const prefetch = prefetchStat;

/** spec §2 查询统计 · 开票统计 /query/invoice-stat. */
export default function InvoiceStatRoute() {
  return <StatPage />;
}
