/**
 * A clean install on the Node version the README promises (issue 27, item 14): `npm ci` read the lock
 * file and warned EBADENGINE for content-disposition@3 and cookie@2, which declare Node ≥ 22 while the
 * README, `engines` and the Docker image say Node ≥ 20.19. The lock now pins versions made for Node 20
 * (decision 162); npm checks every package's `engines` against the running Node from the lock file
 * alone, without installing anything.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

describe('a clean install', () => {
  it('warns of no package that wants another Node than the one the README names', async () => {
    const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: root,
      timeout: 60_000,
    });
    expect(`${stdout}\n${stderr}`).not.toMatch(/EBADENGINE/);
  }, 90_000);
});
