import { prefetchBatch } from '../../../features/batch/api/batch.ts';
import { BatchPage } from '../../../features/batch/components/batch-page.tsx';

export const prefetch = prefetchBatch;

export default function InvoiceBatchPage() {
  return <BatchPage />;
}
