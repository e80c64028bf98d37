import { LibraryPage } from '../../../features/invoice-library/components/library-page.tsx';

/** spec §2 查询统计 · 发票明细 /query/invoice. */
export default function InvoiceLibraryRoute() {
  return <LibraryPage />;
}
