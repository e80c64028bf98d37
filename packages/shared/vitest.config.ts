import { defineConfig } from 'vitest/config';

export default defineConfig({
  // root: its own folder also when loaded alone (Stryker, stryker.config.mjs)
  root: import.meta.dirname,
  test: {
    name: 'shared',
    environment: 'node',
    // KP_MUTATION_TESTS: the files one mutation run needs (scripts/mutation.sh)
    include: process.env.KP_MUTATION_TESTS?.split(';') ?? ['src/**/*.test.ts'],
    // A test that makes no assertion fails (issue 22): it cannot prove anything.
    expect: { requireAssertions: true },
  },
});
