import { maskPhone } from '@kaipiao/shared/validation/patterns';
import { Button, List, NavBar } from 'antd-mobile';
import { useLogout } from '../../../features/auth/hooks/use-logout.ts';
import { useSessionStore } from '../../../stores/session-store.ts';

/** /m-personal/index (我的): nickname, masked mobile and log out. */
export default function MobilePersonal() {
  const user = useSessionStore((s) => s.user);
  const logout = useLogout();
  const mobile = user?.plain_mobile ? maskPhone(user.plain_mobile) : user?.mobile;
  return (
    <>
      <NavBar backIcon={false}>我的</NavBar>
      <List header="账号信息">
        <List.Item extra={user?.nickname || user?.account}>昵称</List.Item>
        <List.Item extra={mobile || '—'}>手机号</List.Item>
      </List>
      <div style={{ padding: 16 }}>
        <Button block color="danger" fill="outline" onClick={logout}>
          退出登录
        </Button>
      </div>
    </>
  );
}
