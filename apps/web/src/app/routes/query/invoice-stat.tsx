import { StatPage } from '../../../features/invoice-stat/components/stat-page.tsx';

/** spec §2 查询统计 · 开票统计 /query/invoice-stat. */
export default function InvoiceStatRoute() {
  return <StatPage />;
}
