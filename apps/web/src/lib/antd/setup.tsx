import { ConfigProvider, unstableSetRender } from 'antd';
// the ES module: the CommonJS one reached the bundle as a namespace, and tables fell back to English
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { createRoot, type Root } from 'react-dom/client';
import { theme } from './theme.ts';

// Runs once, when antd is first needed (never on the login page's first load):
// zh_CN for antd and dayjs (architecture.md §3), and static dialogs/messages that work in React 19
// (what @ant-design/v5-patch-for-react-19 does) with the same locale and theme as the pages.

dayjs.locale('zh-cn');

/** exact button names (确定, 取消): no space inserted between two Chinese characters */
export const BUTTON = { autoInsertSpace: false } as const;

type Container = (Element | DocumentFragment) & { _kpRoot?: Root };

unstableSetRender((node, target) => {
  const container = target as Container;
  container._kpRoot ??= createRoot(container);
  const root = container._kpRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    container._kpRoot = undefined;
  };
});

ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={zhCN} theme={theme} button={BUTTON}>
      {children}
    </ConfigProvider>
  ),
});

export { theme, zhCN };
