import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetServer, server, startServer } from './msw.ts';

// antd reads matchMedia for responsive props; jsdom does not implement it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom does not implement pseudo-elements: it logs "Not implemented" and computes the element's
// own style (rc-table measures the scrollbar through ::-webkit-scrollbar); a pseudo-element has no
// style here.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element, pseudoElement) =>
  pseudoElement ? new CSSStyleDeclaration() : computedStyle(element);

// every test's antd tree keeps its CSS out of the document (./antd.tsx says why)
vi.mock('../lib/antd/provider.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../lib/antd/provider.tsx')>();
  const { withServerStyles } = await import('./antd.tsx');
  return { ...actual, AntdProvider: withServerStyles(actual.AntdProvider) };
});

// API calls go to MSW handlers (./api.ts); a request no handler answers, or one that breaks the
// contract, fails the test. Registered before the clean-up below, so it runs after it ("after"
// hooks run last-registered first): what the page asks while unmounting still counts.
beforeAll(() => startServer());
afterEach(() => resetServer());
afterAll(() => server.close());

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
