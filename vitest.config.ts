import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests. Integration tests drive the API through `app.inject` on one PGlite per
 * test worker (a PGlite cold start takes seconds here, so workers are not isolated and each file resets
 * the tables instead). With TEST_DATABASE_URL the server suite runs a second time on real PostgreSQL.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

const pool = {
  pool: 'forks' as const,
  isolate: false,
  poolOptions: {
    forks: { maxForks: 2, minForks: 1, isolate: false },
    // The web app's tests: a fresh thread per file (jsdom, React and Testing Library bind to the first
    // document they see, so a reused process would leak it into the next file).
    threads: { maxThreads: 2, minThreads: 1, isolate: true },
  },
};

const shared = {
  ...pool,
  environment: 'node',
  setupFiles: ['src/server/test/setup.ts'],
  // Real ffmpeg jobs inside tests poll for up to 90 s on a busy machine (two forks, CI's other work): a
  // test may take as long as the polls it makes, or it fails on the clock instead of on what it checks.
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

/** Server tests that reach neither the database nor the queue: the PostgreSQL pass skips them. */
const ONCE_ONLY = [
  'src/server/config.test.ts',
  'src/server/http/errors.test.ts',
  'src/server/http/product-font.test.ts',
  'src/server/http/rate-limit.test.ts',
  'src/server/lib/*.test.ts',
  'src/server/mail/emails.test.ts',
  'src/server/media/answer-prep.test.ts',
  'src/server/media/ffmpeg.test.ts',
  'src/server/media/render.test.ts',
  'src/server/media/overlays.test.ts',
  'src/server/media/toolchain-cache.test.ts',
  'src/server/modules/auth/signin-throttle.test.ts',
  'src/server/modules/publications/live-pages.test.ts',
  'src/server/modules/publications/publications.pages.test.ts',
  'src/server/modules/transcription/word-error-rate.test.ts',
  'src/server/storage/local-storage.test.ts',
  'src/server/storage/s3-storage.test.ts',
];

/** JSX as the app builds it (the automatic runtime); each project has its own transform settings. */
const esbuild = { jsx: 'automatic' as const };

export default defineConfig({
  esbuild,
  test: {
    globalSetup: ['src/server/test/global-setup.ts'],
    // The pool is the run's, not a project's: Vitest reads these from the root config only. Without them
    // here it ran one fork at a time (cores - 1) and a new fork, so a new PGlite, for every file.
    ...pool,
    projects: [
      {
        esbuild,
        test: {
          ...shared,
          name: 'pglite',
          include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts', 'scripts/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        // The web app's tests need no database: each file in a fresh worker thread, as it expects.
        esbuild,
        test: {
          ...shared,
          name: 'web',
          include: ['src/web/**/*.test.ts', 'src/web/**/*.test.tsx'],
          pool: 'threads' as const,
          isolate: true,
        },
      },
      ...(pgUrl
        ? [
            {
              esbuild,
              test: {
                ...shared,
                name: 'postgres',
                // The second pass, on real PostgreSQL, runs the tests that reach the database or the
                // queue. These touch neither (media tools, pure functions, storage, config) and run once.
                include: ['src/server/**/*.test.ts'],
                exclude: ONCE_ONLY,
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
