import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests. Integration tests drive the API through `app.inject` on one PGlite per
 * test worker (a PGlite cold start takes seconds here, so workers are not isolated and each file resets
 * the tables instead). With TEST_DATABASE_URL the server suite runs a second time on real PostgreSQL.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

const shared = {
  environment: 'node',
  pool: 'forks' as const,
  isolate: false,
  poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
  setupFiles: ['src/server/test/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
};

/** JSX as the app builds it (the automatic runtime); each project has its own transform settings. */
const esbuild = { jsx: 'automatic' as const };

export default defineConfig({
  esbuild,
  test: {
    globalSetup: ['src/server/test/global-setup.ts'],
    projects: [
      {
        esbuild,
        test: {
          ...shared,
          name: 'pglite',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(pgUrl
        ? [
            {
              esbuild,
              test: {
                ...shared,
                name: 'postgres',
                include: ['src/server/**/*.test.ts'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
