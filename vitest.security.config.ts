import { defineConfig } from 'vitest/config';

/**
 * `npm run test:security`: the attack suite (route table, auth, uploads, headers, bundle, audit).
 * Same database set-up as the integration suite: one PGlite per worker, or TEST_DATABASE_URL.
 */
export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    isolate: false,
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    globalSetup: ['src/server/test/global-setup.ts'],
    setupFiles: ['src/server/test/setup.ts'],
    // The integration suite's account tests (token reuse and expiry, rate limits) belong here too.
    // Attacks on the web app's pages (jsdom, per-file environment comment) are in tests/security (web.security.tsx).
    include: ['tests/security/**/*.security.ts', 'tests/security/**/*.security.tsx', 'src/server/modules/auth/auth.test.ts'],
    env: { TEST_DB: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' },
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
