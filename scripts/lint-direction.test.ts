import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rule that keeps one direction of dependencies (eslint.config.js, conventions §2): each case
 * lints a line of code as if it were a file at that path, with the project's own configuration.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the direction of imports', () => {
  it.each([
    ['the queue adapter imports no module', 'src/server/queue/x.ts', "import { x } from '../modules/jobs/jobs.service.js';", /imports no module/],
    ['nor does any other adapter', 'src/server/storage/x.ts', "import { x } from '../modules/settings/logo.job.js';", /imports no module/],
    ['an adapter does not import the worker root', 'src/server/lib/x.ts', "import { x } from '../worker.js';", /composition roots/],
    ['a service never imports a route', 'src/server/modules/studio/x.service.ts', "import { x } from './studio.routes.js';", /never imports a route/],
    ['a job never imports a route', 'src/server/modules/studio/x.job.ts', "import { x } from '../jobs/jobs.routes.js';", /never imports a route/],
    ['a job does not import the worker root', 'src/server/modules/studio/x.job.ts', "import { x } from '../../worker.js';", /composition roots/],
    ['the worker root runs no HTTP', 'src/server/worker.ts', "import { x } from './app.js';", /not HTTP/],
    ['the contract imports nothing of ours', 'src/contract/api/x.ts', "import { x } from '../../server/config.js';", /imports nothing of ours/],
    ['the server does not import the web app', 'src/server/modules/jobs/x.service.ts', "import { x } from '../../../web/lib/x.js';", /does not import the web app/],
  ])('refuses: %s', async (_what, filePath, code, message) => {
    const messages = await restricted(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it.each([
    ['a module calls the queue adapter', 'src/server/modules/jobs/x.service.ts', "import { x } from '../../queue/queue.js';"],
    ['a job calls a service', 'src/server/modules/studio/x.job.ts', "import { x } from './studio.service.js';"],
    ['a route calls a service', 'src/server/modules/studio/x.routes.ts', "import { x } from './studio.service.js';"],
    ['the worker root imports every job', 'src/server/worker.ts', "import { x } from './modules/studio/render.job.js';"],
    ['an adapter uses another adapter', 'src/server/queue/x.ts', "import { x } from '../db/client.js';"],
  ])('accepts: %s', async (_what, filePath, code) => {
    expect(await restricted(filePath, code)).toEqual([]);
  });
});
