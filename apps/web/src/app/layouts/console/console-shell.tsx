import { SIDEBAR_WIDTH } from '@kaipiao/shared/constants/menu';
import { Drawer, Grid, Layout } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { PageTabs } from '../../../components/page-tabs/page-tabs.tsx';
import { DeviceAuthPrompt } from '../../../features/real-name/index.ts';
import { useAccess } from '../../../lib/access-context.tsx';
import { useLayoutStore } from '../../../stores/layout-store.ts';
import { useTabsStore } from '../../../stores/tabs-store.ts';
import { useCurrentRoute } from '../use-current-route.ts';
import { BrowserHint } from './browser-hint.tsx';
import styles from './console.module.css';
import { ConsoleEffects } from './console-effects.tsx';
import { KeepAliveOutlet } from './keep-alive-outlet.tsx';
import { PageHeader } from './page-header.tsx';
import { RefreshButton } from './refresh-button.tsx';
import { SideMenu } from './side-menu.tsx';
import { TopBar } from './top-bar.tsx';

/** spec §2 Layout: sidebar, top bar, page tabs, page header and the page itself. */
export function ConsoleShell() {
  const collapsed = useLayoutStore((s) => s.collapsed);
  const route = useCurrentRoute();
  const { pathname } = useLocation();
  const area = route?.layout === 'group' ? 'group' : 'main';
  const openTab = useTabsStore((s) => s.open);
  const access = useAccess();

  // a tab for every visited titled page the user may open (forbidden ones go to /403)
  useEffect(() => {
    if (route?.title && pathname !== '/' && access.of(route.path).visible) {
      openTab({ path: pathname, name: route.title });
    }
  }, [route, pathname, openTab, access]);

  // below 768 px (antd's md) the sidebar is a drawer the top bar's menu button opens (issue 24 item 1)
  const phone = Grid.useBreakpoint().md === false;
  const [drawerOpen, setDrawerOpen] = useState(false);

  return (
    <Layout className={styles.shell}>
      {phone ? (
        <Drawer
          placement="left"
          aria-label="菜单"
          width={SIDEBAR_WIDTH}
          closable={false}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          styles={{ body: { padding: 0 }, content: { background: '#001529' } }}
        >
          <Logo collapsed={false} onClick={() => setDrawerOpen(false)} />
          <SideMenu area={area} route={route} collapsed={false} onPick={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Layout.Sider
          width={SIDEBAR_WIDTH}
          collapsedWidth={64}
          collapsed={collapsed}
          trigger={null}
          className={styles.sider}
        >
          <Logo collapsed={collapsed} />
          <SideMenu area={area} route={route} collapsed={collapsed} />
        </Layout.Sider>
      )}
      <Layout className={styles.main}>
        <TopBar area={area} onOpenMenu={phone ? () => setDrawerOpen(true) : undefined} />
        <BrowserHint />
        <PageTabs activePath={pathname} extra={<RefreshButton path={pathname} />} />
        <Layout.Content className={styles.content}>
          <PageHeader route={route} />
          <div className={styles.page}>
            <KeepAliveOutlet route={route} />
          </div>
        </Layout.Content>
      </Layout>
      <ConsoleEffects />
      <DeviceAuthPrompt />
    </Layout>
  );
}

/** The sidebar's head: the mark, the name while there is room, a link home. */
function Logo({ collapsed, onClick }: { collapsed: boolean; onClick?: () => void }) {
  // named by a hidden text, not aria-label: axe's label-content-name-mismatch reads the visible
  // 开票台 as no word of the name 开票台首页
  return (
    <Link to="/home/index" className={styles.logo} onClick={onClick}>
      <span className={styles.logoMark} aria-hidden>
        票
      </span>
      {!collapsed && (
        <span className={styles.logoText} aria-hidden>
          开票台
        </span>
      )}
      <span className={styles.srOnly}>开票台首页</span>
    </Link>
  );
}
