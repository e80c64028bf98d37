import { BatchPage } from '../../../features/batch/components/batch-page.tsx';

export default function InvoiceBatchPage() {
  return <BatchPage />;
}
