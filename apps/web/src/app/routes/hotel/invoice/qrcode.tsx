import { QrcodePage } from '../../../../features/scan/components/qrcode-page.tsx';

export default function HotelQrcodePage() {
  return <QrcodePage hotel path="/hotel/invoice/qrcode" />;
}
