import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { productFontFaces } from './product-font.js';

describe("the product font on the server's own pages", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function builtWeb(css: string) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'product-font-'));
    dirs.push(dir);
    await mkdir(path.join(dir, '.vite'), { recursive: true });
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    await writeFile(path.join(dir, 'assets', 'index-abc.css'), css);
    await writeFile(
      path.join(dir, '.vite', 'manifest.json'),
      JSON.stringify({ 'index.html': { file: 'assets/index-x.js', isEntry: true, css: ['assets/index-abc.css'] }, 'lazy.tsx': { file: 'assets/lazy.js', css: ['assets/other.css'] } }),
    );
    return dir;
  }

  it("takes the web app's Inter rules from its built stylesheet, with their asset addresses and subsets", async () => {
    const latin =
      '@font-face{font-family:Inter Variable;font-style:normal;font-display:swap;font-weight:100 900;src:url(/assets/inter-latin-wght-normal-Dx4k.woff2)format("woff2-variations");unicode-range:U+0000-00FF}';
    const latinExt =
      "@font-face{font-family:'Inter Variable';font-style:normal;font-weight:100 900;src:url(/assets/inter-latin-ext-wght-normal-Q1.woff2)format(\"woff2-variations\");unicode-range:U+0100-02BA}";
    const other = '@font-face{font-family:Arimo;src:url(/assets/arimo-latin-400-normal-A.woff2)format("woff2")}';
    const dir = await builtWeb(`:root{--x:1}${latin}${other}body{color:red}${latinExt}`);
    const rules = productFontFaces(dir);
    expect(rules).toContain('/assets/inter-latin-wght-normal-Dx4k.woff2');
    expect(rules).toContain('/assets/inter-latin-ext-wght-normal-Q1.woff2');
    expect(rules).toContain('unicode-range:U+0100-02BA');
    expect(rules).not.toContain('Arimo');
    expect(rules).not.toContain('body{');
  });

  it('finds them in the stylesheet of a chunk the entries share (two pages: the app and the recording page)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'product-font-'));
    dirs.push(dir);
    await mkdir(path.join(dir, '.vite'), { recursive: true });
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    const latin =
      '@font-face{font-family:Inter Variable;font-weight:100 900;src:url(/assets/inter-latin-wght-normal-Dx4k.woff2)format("woff2-variations");unicode-range:U+0000-00FF}';
    await writeFile(path.join(dir, 'assets', 'shared-abc.css'), `${latin}body{margin:0}`);
    await writeFile(path.join(dir, 'assets', 'index-abc.css'), '.toast{color:red}');
    await writeFile(
      path.join(dir, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-x.js', isEntry: true, css: ['assets/index-abc.css'], imports: ['_shared-x.js'] },
        'recording.html': { file: 'assets/recording-x.js', isEntry: true, imports: ['_shared-x.js'] },
        '_shared-x.js': { file: 'assets/shared-x.js', css: ['assets/shared-abc.css'] },
      }),
    );
    const rules = productFontFaces(dir);
    expect(rules).toContain('/assets/inter-latin-wght-normal-Dx4k.woff2');
    expect(rules).not.toContain('toast');
  });

  it('gives no rules without a built web app (the page falls back to the system fonts)', () => {
    expect(productFontFaces(path.join(os.tmpdir(), 'no-such-web-dir'))).toBe('');
  });
});
