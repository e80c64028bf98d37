import { QueryClientProvider } from '@tanstack/react-query';
import { RedPrintPage } from '../../../features/red-info/components/red-print-page.tsx';
import { queryClient } from '../../../lib/query-client.ts';

/** spec §2 /external/print-red-info?form_id=…: a red form on paper (blank layout, not kept alive in tabs). */
export default function PrintRedInfoRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <RedPrintPage />
    </QueryClientProvider>
  );
}
