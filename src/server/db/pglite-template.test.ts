import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedFromTemplate, templateKey, writeTemplate } from './pglite-template.js';

// The copy and its guards, on a stand-in data folder (the real one is what `npm run build:server` makes;
// tests/e2e/startup.e2e.ts starts the built app from it).
describe('the embedded database template (decision 181)', () => {
  let root: string;
  let template: string;
  const prepare = async (dataDir: string) => {
    await mkdir(path.join(dataDir, 'base'), { recursive: true });
    await writeFile(path.join(dataDir, 'PG_VERSION'), '17\n');
    await writeFile(path.join(dataDir, 'base', 'file'), 'catalogue');
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'vr-template-'));
    template = path.join(root, 'template');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is written once per key, and a new data folder starts as its copy', async () => {
    expect(await writeTemplate(prepare, template)).toBe('written');
    expect(JSON.parse(await readFile(path.join(template, 'template.json'), 'utf8')).key).toBe(templateKey());
    let prepared = 0;
    expect(await writeTemplate(async () => void (prepared += 1), template)).toBe('current');
    expect(prepared).toBe(0);

    const dataDir = path.join(root, 'data', 'pgdata');
    await mkdir(path.dirname(dataDir), { recursive: true });
    expect(await seedFromTemplate(dataDir, template)).toBe(true);
    expect(await readFile(path.join(dataDir, 'base', 'file'), 'utf8')).toBe('catalogue');
    // No temporary copy is left beside it.
    expect(await readdir(path.dirname(dataDir))).toEqual(['pgdata']);
  });

  it('fills an empty folder, but never one that holds a database', async () => {
    await writeTemplate(prepare, template);
    const empty = path.join(root, 'empty');
    await mkdir(empty);
    expect(await seedFromTemplate(empty, template)).toBe(true);

    const existing = path.join(root, 'existing');
    await mkdir(existing);
    await writeFile(path.join(existing, 'PG_VERSION'), '17\n');
    expect(await seedFromTemplate(existing, template)).toBe(false);
    expect(await readdir(existing)).toEqual(['PG_VERSION']);
  });

  it('is not used when missing or made from other migrations or versions', async () => {
    const dataDir = path.join(root, 'pgdata');
    expect(await seedFromTemplate(dataDir, template)).toBe(false);
    await writeTemplate(prepare, template);
    await writeFile(path.join(template, 'template.json'), JSON.stringify({ key: 'an older build' }));
    expect(await seedFromTemplate(dataDir, template)).toBe(false);
    await expect(readdir(dataDir)).rejects.toThrow();
  });

  it('leaves no template when preparing fails', async () => {
    await expect(
      writeTemplate(async () => {
        throw new Error('initdb failed');
      }, template),
    ).rejects.toThrow('initdb failed');
    expect(await readdir(root)).toEqual([]);
  });
});
