import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: real API and worker processes (the built server) against real
 * PostgreSQL — a scratch database of TEST_DATABASE_URL (else postgres://postgres@127.0.0.1:5432), or a
 * server of the test's own when it stops the database — with faults: SIGKILL, a database restart,
 * replayed webhooks, concurrent payments. One file at a time: each loads the machine's cores.
 */
export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['tests/reliability/global-setup.ts'],
    setupFiles: ['src/server/test/setup.ts'],
    include: ['tests/reliability/**/*.reliability.ts'],
    testTimeout: 240_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 120_000,
  },
});
