import { TrusteeshipPage } from '../../../features/trusteeship/components/trusteeship-page.tsx';

export default function InvoiceTrusteeshipPage() {
  return <TrusteeshipPage />;
}
