import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    // root: its own folder also when loaded alone (Stryker, stryker.config.mjs)
    root: import.meta.dirname,
    test: {
      name: 'web',
      environment: 'jsdom',
      // KP_MUTATION_TESTS: the files one mutation run needs (scripts/mutation.sh)
      include: process.env.KP_MUTATION_TESTS?.split(';') ?? ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
      // A test that makes no assertion fails (issue 22): it cannot prove anything.
      expect: { requireAssertions: true },
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
    },
  }),
);
