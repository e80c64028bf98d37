import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

// antd-mobile draws Toast, Dialog and the like with ReactDOM.render, which React 19 no longer has:
// the first Toast.show threw "TypeError: f is not a function" on submit (issue 24 item 8). Its
// React 19 hook, the same way lib/antd/setup.tsx does it for antd.

type Container = (Element | DocumentFragment) & { _kpMobileRoot?: Root };

unstableSetRender((node, target) => {
  const container = target as Container;
  container._kpMobileRoot ??= createRoot(container);
  const root = container._kpMobileRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    container._kpMobileRoot = undefined;
  };
});
