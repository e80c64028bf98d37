import { prefetchExports } from '../../../features/invoice-library/api.ts';
import { ExportRecordsPage } from '../../../features/invoice-library/components/export-records-page.tsx';

export const prefetch = prefetchExports;

/** spec §2 hidden /query/invoice/export-records. */
export default function ExportRecordsRoute() {
  return <ExportRecordsPage />;
}
