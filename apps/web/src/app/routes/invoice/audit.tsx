import { AuditPage } from '../../../features/scan/components/audit-page.tsx';

export default function InvoiceAuditPage() {
  return <AuditPage hotel={false} />;
}
