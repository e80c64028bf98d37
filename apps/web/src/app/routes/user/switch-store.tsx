import { Button } from 'antd';
import { useLogout } from '../../../features/auth/hooks/use-logout.ts';
import { SwitchStorePage } from '../../../features/session/components/switch-store-page.tsx';

export default function SwitchStoreRoute() {
  const logout = useLogout();
  return (
    <SwitchStorePage
      extra={
        <Button type="link" onClick={logout}>
          退出登录
        </Button>
      }
    />
  );
}
