import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { BUTTON, theme, zhCN } from './setup.tsx';

export function AntdProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={BUTTON}>
      {children}
    </ConfigProvider>
  );
}

/** Layout route for every antd page: antd (and its zh_CN setup) loads with the first of them. */
export function AntdLayout() {
  return (
    <AntdProvider>
      <Outlet />
    </AntdProvider>
  );
}
