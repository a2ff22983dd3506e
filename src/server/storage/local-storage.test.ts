import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage } from './local-storage.js';

describe('local storage', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'vr-storage-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('puts, heads, gets and deletes an object', async () => {
    const storage = createLocalStorage(root);
    const size = await storage.put('companies/c1/answers/a.webm', Readable.from([Buffer.from('hello '), Buffer.from('world')]), 'video/webm');
    expect(size).toBe(11);
    expect(await storage.head('companies/c1/answers/a.webm')).toEqual({ size: 11, contentType: 'video/webm' });
    expect(await text(await storage.get('companies/c1/answers/a.webm'))).toBe('hello world');
    await storage.delete('companies/c1/answers/a.webm');
    expect(await storage.head('companies/c1/answers/a.webm')).toBeNull();
    await expect(storage.get('companies/c1/answers/a.webm')).rejects.toThrow();
  });

  it('leaves nothing behind when the stream fails half-way', async () => {
    const storage = createLocalStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 1));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(storage.put('x/partial.webm', failing, 'video/webm')).rejects.toThrow('connection reset');
    expect(await storage.head('x/partial.webm')).toBeNull();
    expect(await readdir(path.join(root, 'x'))).toEqual([]);
  });

  it('refuses keys that could leave its folder', async () => {
    const storage = createLocalStorage(root);
    for (const key of ['../escape', '/abs/path', 'a/../../b', 'a//b', '', 'a/.hidden']) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('pings by writing into its folder', async () => {
    await expect(createLocalStorage(path.join(root, 'new')).ping()).resolves.toBeUndefined();
  });
});
