import { defineConfig } from 'vitest/config';

// Each workspace keeps its own config; `vitest run --project web` picks one by name.
export default defineConfig({
  test: {
    projects: [
      'packages/shared/vitest.config.ts',
      'apps/web/vitest.config.ts',
      'apps/server/vitest.config.ts',
    ],
  },
});
