import { defineConfig } from 'vitest/config';

export default defineConfig({
  // root: its own folder also when loaded alone (Stryker, stryker.config.mjs)
  root: import.meta.dirname,
  test: {
    name: 'shared',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
