import { prefetchDevices } from '../../../features/devices/api/devices.ts';
import { DevicesPage } from '../../../features/devices/components/devices-page.tsx';

export const prefetch = prefetchDevices;

export default function DeviceProjectDevicePage() {
  return <DevicesPage />;
}
