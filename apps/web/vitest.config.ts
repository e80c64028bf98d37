import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      // A test that makes no assertion fails (issue 22): it cannot prove anything.
      expect: { requireAssertions: true },
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
    },
  }),
);
