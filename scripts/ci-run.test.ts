/**
 * `.ci/run` runs `npm test`'s stages one by one to time each (decision 182). A stage added to `npm test`
 * and forgotten there would never run in CI: every script of `npm test` is in `.ci/run`, with the unit
 * tests as their projects (every project of vitest.config.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

describe('.ci/run', () => {
  it("runs every stage of npm test, and the unit tests of every project", async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const ci = await readFile(path.join(root, '.ci/run'), 'utf8');
    const stages = pkg.scripts.test!.split('&&').map((part) => part.trim());
    expect(stages).toContain('npm run test:unit');
    for (const stage of stages.filter((s) => s !== 'npm run test:unit')) expect(ci.split('\n'), stage).toContain(stage);

    const config = await readFile(path.join(root, 'vitest.config.ts'), 'utf8');
    const projects = [...config.matchAll(/name: '([a-z]+)'/g)].map((m) => m[1]!);
    expect(projects.sort()).toEqual(['pglite', 'postgres', 'web']);
    const ciProjects = [...ci.matchAll(/^npx vitest run((?: --project [a-z]+)+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s*--project\s+/).filter(Boolean));
    expect(ciProjects.sort()).toEqual(projects);
  });
});
