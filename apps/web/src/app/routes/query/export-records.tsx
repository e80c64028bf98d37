import { ExportRecordsPage } from '../../../features/invoice-library/components/export-records-page.tsx';

/** spec §2 hidden /query/invoice/export-records. */
export default function ExportRecordsRoute() {
  return <ExportRecordsPage />;
}
