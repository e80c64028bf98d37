import { QrcodePage } from '../../../features/scan/components/qrcode-page.tsx';

export default function InvoiceQrcodePage() {
  return <QrcodePage hotel={false} path="/invoice/qrcode" />;
}
