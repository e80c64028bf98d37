import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A test that makes no assertion fails (issue 22): it cannot prove anything.
    expect: { requireAssertions: true },
    globalSetup: ['test/global-setup.ts'],
    env: { NODE_ENV: 'test', KAIPIAO_FIXED_CAPTCHA: '1234', LOG_LEVEL: 'silent' },
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
