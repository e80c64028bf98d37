import { StyleProvider } from '@ant-design/cssinjs';
import type { ComponentType, ReactNode } from 'react';

// antd writes its CSS-in-JS into <style> tags in <head>: thousands of rules that jsdom parses on
// every insert and matches against each element on every getComputedStyle (antd measuring a
// textarea or the scrollbar, user-event checking pointer-events, Testing Library checking
// visibility). That was most of the web tests' time. Under test antd builds its styles as it
// would for server rendering (StyleProvider `mock="server"`, a development-only switch) and
// leaves them out of the document; jsdom does no layout, so only computed styles ever saw them.
export function withServerStyles(Provider: ComponentType<{ children: ReactNode }>) {
  return function AntdProvider({ children }: { children: ReactNode }) {
    return (
      <StyleProvider mock="server">
        <Provider>{children}</Provider>
      </StyleProvider>
    );
  };
}
