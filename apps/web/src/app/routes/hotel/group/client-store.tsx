import { StoresPage } from '../../../../features/devices/components/stores-page.tsx';

export default function HotelGroupClientStorePage() {
  return <StoresPage hotel />;
}
