import { prefetchLibrary } from '../../../features/invoice-library/api.ts';
import { LibraryPage } from '../../../features/invoice-library/components/library-page.tsx';

export const prefetch = prefetchLibrary;

/** spec §2 查询统计 · 发票明细 /query/invoice. */
export default function InvoiceLibraryRoute() {
  return <LibraryPage />;
}
