import { BuyerPage } from '../../../features/scan-buyer/buyer-page.tsx';

export default function ScanBuyerRoute() {
  return <BuyerPage />;
}
