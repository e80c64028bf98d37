import { prefetchStores } from '../../../features/devices/api/devices.ts';
import { StoresPage } from '../../../features/devices/components/stores-page.tsx';
import { ScanSettingsDialog } from '../../../features/scan/components/scan-settings-dialog.tsx';

export const prefetch = prefetchStores;

export default function GroupClientStorePage() {
  return (
    <StoresPage scanSettings={(store, onClose) => <ScanSettingsDialog store={store} onClose={onClose} />} />
  );
}
