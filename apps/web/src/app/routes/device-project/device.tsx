import { DevicesPage } from '../../../features/devices/components/devices-page.tsx';

export default function DeviceProjectDevicePage() {
  return <DevicesPage />;
}
