import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Flex, Typography, theme } from 'antd';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { useLogout } from '../../../features/auth/hooks/use-logout.ts';
import { useSessionStore } from '../../../stores/session-store.ts';

/** spec §2 user menu: Change Password and Log out. */
export function UserMenu() {
  const user = useSessionStore((s) => s.user);
  const logout = useLogout();
  const { token } = theme.useToken();
  const name = user?.nickname || user?.account || '我的账号';

  const panel = (
    <Flex
      vertical
      gap={4}
      style={{
        minWidth: 180,
        padding: 8,
        background: token.colorBgElevated,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowSecondary,
      }}
    >
      <Typography.Text strong style={{ padding: '4px 8px' }}>
        {name}
      </Typography.Text>
      {user?.mobile && (
        <Typography.Text type="secondary" style={{ padding: '0 8px 4px' }}>
          {user.mobile}
        </Typography.Text>
      )}
      <Button
        type="text"
        block
        style={{ textAlign: 'start' }}
        onClick={() => openDialog('change-password', {})}
      >
        修改密码
      </Button>
      <Button type="text" block danger style={{ textAlign: 'start' }} onClick={logout}>
        退出登录
      </Button>
    </Flex>
  );

  return (
    <Dropdown trigger={['hover', 'click']} popupRender={() => panel}>
      <Button type="text" aria-haspopup="menu">
        <Avatar size="small" icon={<UserOutlined aria-hidden />} aria-hidden />
        <span>{name}</span>
        <DownOutlined aria-hidden style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
