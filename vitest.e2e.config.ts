import { defineConfig } from 'vitest/config';

/** End-to-end journeys: the built app in a child process, driven by Chromium. Run by `npm run test:e2e`. */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 150_000,
  },
});
