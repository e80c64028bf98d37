import { Navigate } from 'react-router';
import { MOBILE_HOME_PATH } from '../../../features/auth/utils/login-routing.ts';
import { useAccess } from '../../../lib/access-context.tsx';
import { isMobileUserAgent } from '../../../lib/device.ts';

/** spec §2: / goes to the first permitted menu entry, or /403 when none is permitted. */
export function RootRedirect() {
  const { firstPath } = useAccess();
  if (isMobileUserAgent()) return <Navigate to={MOBILE_HOME_PATH} replace />;
  return <Navigate to={firstPath ?? '/403'} replace />;
}
