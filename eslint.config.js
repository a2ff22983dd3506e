import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noEnv = {
  'no-restricted-properties': [
    'error',
    { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts (conventions §6).' },
  ],
};

/** Test support and tests beside the code may reach anything they drive. */
const SERVER_TESTS = ['src/server/test/**', 'src/server/**/*.test.ts'];
/** The adapters: what the services stand on. They know no module (capability) of the product. */
export const ADAPTERS = ['queue', 'db', 'storage', 'media', 'mail', 'lib'];
const CONTRACT_IMPORTS_NOTHING = { group: ['**/server/**', '**/web/**'], message: 'The contract imports nothing of ours.' };
const NO_WEB = { group: ['**/web/**', '!**/web/i18n', '!**/web/i18n/*.json'], message: 'The server does not import the web app.' };
const NO_ROUTES = { group: ['**/*.routes.js', '**/*.routes'], message: 'A service or a job never imports a route (routes → services → adapters; jobs → services).' };
const NO_MODULES = {
  group: ['**/modules/**'],
  message: 'An adapter (queue, db, storage, media, mail, lib) imports no module: modules call adapters, never the other way (the queue adapter names no application table).',
};
const NO_ROOTS = {
  group: ['**/app.js', '**/worker.js', '**/runtime.js', '**/main.js'],
  message: 'Only the composition roots (app.ts, worker.ts, runtime.ts, main.ts) wire the whole; nothing below imports them.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'test-results/**', 'src/server/db/migrations/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], allowTypeImports: true, message: 'The web app imports server code only as types.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACT_IMPORTS_NOTHING] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/config.ts', ...SERVER_TESTS],
    rules: { ...noEnv, 'no-restricted-imports': ['error', { patterns: [NO_WEB] }] },
  },
  // One direction (conventions §2): routes → services → adapters; jobs → services; the worker's root above
  // the jobs. Each group lists every pattern it obeys: a later `no-restricted-imports` replaces an earlier one.
  {
    files: ['src/server/modules/**/*.service.ts', 'src/server/modules/**/*.job.ts'],
    ignores: SERVER_TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_WEB, NO_ROUTES, NO_ROOTS] }] },
  },
  {
    files: ADAPTERS.map((dir) => `src/server/${dir}/**/*.ts`),
    ignores: SERVER_TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_WEB, NO_MODULES, NO_ROOTS] }] },
  },
  {
    files: ['src/server/worker.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_WEB, NO_ROUTES, { group: ['**/app.js', '**/http/**'], message: 'The worker runs jobs, not HTTP.' }] }] },
  },
  {
    files: ['scripts/**', 'tests/**', 'bench/**', '*.config.{ts,js}'],
    rules: { 'no-console': 'off' },
  },
);
