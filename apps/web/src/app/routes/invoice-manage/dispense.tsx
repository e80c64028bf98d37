import { DispensePage } from '../../../features/devices/components/stock-pages.tsx';

export default function InvoiceManageDispensePage() {
  return <DispensePage />;
}
