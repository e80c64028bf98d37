import { AUTH_WAY } from '@kaipiao/shared';
import { useQuery } from '@tanstack/react-query';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { scopedKey } from '../../../lib/query-scope.ts';
import { getRealPersonAuth } from '../api/real-name.ts';
import { useDeviceAuthSocket } from '../hooks/use-device-auth-socket.ts';
import { RealNameDialog } from './real-name-dialog.tsx';

/**
 * The QR authorisation prompt the device-authorisation socket raises (spec §4), mounted once in the
 * console layout. The socket message carries the QR; the account name comes from get-real-person-auth.
 */
export function DeviceAuthPrompt() {
  const { prompt, dismiss } = useDeviceAuthSocket();
  const deviceId = prompt?.device_id;
  const info = useQuery({
    queryKey: scopedKey('real-name', 'info', deviceId),
    queryFn: () => getRealPersonAuth(deviceId!, undefined, false),
    enabled: deviceId !== undefined,
    staleTime: 30_000,
  });
  if (!prompt || !info.data) return null;
  return (
    <AntdProvider>
      <RealNameDialog
        key={prompt.device_id}
        open
        onClose={dismiss}
        data={{
          ...info.data,
          auth_way: AUTH_WAY.qr,
          isInitiative: false,
          qr_code: prompt.qr_code,
          auth_status: prompt.auth_status,
          auth_type: prompt.auth_type,
        }}
      />
    </AntdProvider>
  );
}
