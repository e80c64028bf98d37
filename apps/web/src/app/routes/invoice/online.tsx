import { InvoiceIssuePage } from '../../../features/invoice-issue/components/invoice-issue-page.tsx';

export default function InvoiceOnlinePage() {
  return <InvoiceIssuePage />;
}
