import { AuditPage } from '../../../../features/scan/components/audit-page.tsx';

export default function HotelAuditPage() {
  return <AuditPage hotel />;
}
