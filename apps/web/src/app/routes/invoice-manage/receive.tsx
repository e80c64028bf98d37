import { ReceivePage } from '../../../features/devices/components/stock-pages.tsx';

export default function InvoiceManageReceivePage() {
  return <ReceivePage />;
}
