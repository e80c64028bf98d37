import { defineConfig } from 'vitest/config';

export default defineConfig({
  // root: its own folder also when loaded alone (Stryker, stryker.config.mjs)
  root: import.meta.dirname,
  test: {
    name: 'server',
    environment: 'node',
    // KP_MUTATION_TESTS: the files one mutation run needs (scripts/mutation.sh)
    include: process.env.KP_MUTATION_TESTS?.split(';') ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A test that makes no assertion fails (issue 22): it cannot prove anything.
    expect: { requireAssertions: true },
    globalSetup: ['test/global-setup.ts'],
    env: { NODE_ENV: 'test', KAIPIAO_FIXED_CAPTCHA: '1234', LOG_LEVEL: 'silent' },
    pool: 'forks',
    // a mutation run reuses one worker's modules between mutants (Stryker switches mutants at run time)
    isolate: !process.env.KP_MUTATION_TESTS,
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
