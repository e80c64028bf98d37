import { QueryClientProvider } from '@tanstack/react-query';
import { TicketPrintPage } from '../../../features/invoice-library/components/ticket-print-page.tsx';
import { queryClient } from '../../../lib/query-client.ts';

/** spec §2 /external/print-ticket?invoice_id=…: roll/ticket printing (blank layout, not kept alive in tabs). */
export default function PrintTicketRoute() {
  return (
    <QueryClientProvider client={queryClient}>
      <TicketPrintPage />
    </QueryClientProvider>
  );
}
