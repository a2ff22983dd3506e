import { defineConfig } from 'vitest/config';

/**
 * End-to-end journeys: the built app in a child process, driven by Chromium. Run by `npm run test:e2e`.
 * Two files at a time: each has its own server, data folder and browser, and a journey spends much of
 * its time waiting (a recording in real time, a render, a page settling), which the other one uses.
 */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 120_000,
    hookTimeout: 150_000,
  },
});
