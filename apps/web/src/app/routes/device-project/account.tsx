import { AccountsPage } from '../../../features/devices/components/accounts-page.tsx';

export default function DeviceProjectAccountPage() {
  return <AccountsPage />;
}
