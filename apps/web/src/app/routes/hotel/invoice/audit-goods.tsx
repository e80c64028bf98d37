import { AuditGoodsPage } from '../../../../features/scan/components/audit-page.tsx';

export default function HotelAuditGoodsPage() {
  return <AuditGoodsPage />;
}
