import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'shared',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // A test that makes no assertion fails (issue 22): it cannot prove anything.
    expect: { requireAssertions: true },
  },
});
