import { HotelOrderPage } from '../../../../features/scan/components/hotel-order-page.tsx';

export default function HotelInvoiceOrderPage() {
  return <HotelOrderPage />;
}
