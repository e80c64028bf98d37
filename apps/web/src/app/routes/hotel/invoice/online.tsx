import { InvoiceIssuePage } from '../../../../features/invoice-issue/components/invoice-issue-page.tsx';

export default function HotelInvoiceOnlinePage() {
  return <InvoiceIssuePage hotel />;
}
