import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
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

// API calls go to MSW handlers (./api.ts); a request no handler answers fails the test
beforeAll(() => startServer());
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  resetServer();
});
afterAll(() => server.close());
