import { QueryClientProvider } from '@tanstack/react-query';
import { SafeArea, TabBar } from 'antd-mobile';
import { AppOutline, UserOutline } from 'antd-mobile-icons';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { queryClient } from '../../lib/query-client.ts';
import styles from './mobile-layout.module.css';

const TABS = [
  { key: '/m-home/index', title: '首页', icon: <AppOutline /> },
  { key: '/m-personal/index', title: '我的', icon: <UserOutline /> },
];

/** spec §2 mobile: an H5 shell with the bottom tab bar 首页 / 我的. */
export function MobileLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = TABS.some((t) => t.key === pathname) ? pathname : '';
  return (
    <QueryClientProvider client={queryClient}>
      <div className={styles.app}>
        <main className={styles.body}>
          <Outlet />
        </main>
        <nav className={styles.bar} aria-label="底部导航">
          <TabBar activeKey={active} onChange={(key) => navigate(key)}>
            {TABS.map((t) => (
              <TabBar.Item key={t.key} icon={t.icon} title={t.title} />
            ))}
          </TabBar>
          <SafeArea position="bottom" />
        </nav>
      </div>
    </QueryClientProvider>
  );
}
