import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined, ShopOutlined } from '@ant-design/icons';
import { PLATFORM_WXWORK, SOURCE_PARTNER_22 } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Button, Layout, Space } from 'antd';
import { Link } from 'react-router';
import { openDialog } from '../../../components/dialog-host/index.ts';
import { useAccess } from '../../../lib/access-context.tsx';
import { useLayoutStore } from '../../../stores/layout-store.ts';
import { useSessionStore } from '../../../stores/session-store.ts';
import { GROUP_HOME } from '../../route-config.tsx';
import styles from './console.module.css';
import { HelpMenu } from './help-menu.tsx';
import { UserMenu } from './user-menu.tsx';

/**
 * spec §2 top bar. `onOpenMenu` on a phone (below 768 px), where the sidebar is a drawer: the menu
 * button opens it instead of folding the sidebar.
 */
export function TopBar({ area, onOpenMenu }: { area: 'main' | 'group'; onOpenMenu?: () => void }) {
  const { collapsed, toggleCollapsed } = useLayoutStore();
  const { groupAuth } = useAccess();
  const business = useSessionStore((s) => s.business);
  const store = useSessionStore((s) => s.store);
  const hideUserMenu = useSessionStore(
    (s) => s.source === SOURCE_PARTNER_22 || s.platform === PLATFORM_WXWORK,
  );
  const scope = business && store ? `${business.name} / ${store.name}` : `请选择${TERMS.store}`;

  return (
    <Layout.Header className={styles.header}>
      {onOpenMenu ? (
        <Button type="text" aria-label="打开菜单" icon={<MenuOutlined />} onClick={onOpenMenu} />
      ) : (
        <Button
          type="text"
          aria-label={collapsed ? '展开菜单' : '收起菜单'}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={toggleCollapsed}
        />
      )}
      <Link to="/user/switch-store" className={styles.scope} title={`切换企业/${TERMS.store}`}>
        <ShopOutlined aria-hidden />
        <span>{scope}</span>
      </Link>
      <span className={styles.spacer} />
      <Space size={4}>
        {area === 'group' ? (
          <Link to="/" className={styles.barLink}>
            返回控制台
          </Link>
        ) : (
          groupAuth && (
            <Link to={GROUP_HOME} className={styles.barLink}>
              集团管理
            </Link>
          )
        )}
        {/* a phone has no room for it: the help menu's 意见反馈 opens the same dialog */}
        {!onOpenMenu && (
          <Button type="text" onClick={() => openDialog('contact-us', {})}>
            联系我们
          </Button>
        )}
        <HelpMenu compact={Boolean(onOpenMenu)} />
        {!hideUserMenu && <UserMenu />}
      </Space>
    </Layout.Header>
  );
}
