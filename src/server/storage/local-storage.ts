import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, assertValidPrefix, type Storage } from './storage.js';

/**
 * Media on local disk under `root`. Writes go to a temporary file renamed into place, so a reader never
 * sees half an object and a failed upload leaves nothing behind. The content type sits in a sidecar file.
 */
export function createLocalStorage(root: string): Storage {
  const fileOf = (key: string) => {
    assertValidKey(key);
    return path.join(root, key);
  };
  const metaOf = (file: string) => `${file}.meta.json`;

  return {
    driver: 'local',
    async put(key, body, contentType) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomUUID()}.part`;
      try {
        const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
        // Opened before the copy starts: a stream that opens its own file may create it after a failed
        // copy has already removed it, and leave a stray part behind.
        const handle = await open(tmp, 'wx');
        await pipeline(source, handle.createWriteStream());
        const { size } = await stat(tmp);
        await writeFile(metaOf(file), JSON.stringify({ contentType }));
        await rename(tmp, file);
        return size;
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const file = fileOf(key);
      await stat(file);
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async head(key) {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        let contentType = 'application/octet-stream';
        try {
          contentType = (JSON.parse(await readFile(metaOf(file), 'utf8')) as { contentType: string }).contentType;
        } catch {
          // No sidecar: the generic type is right.
        }
        return { size, contentType };
      } catch {
        return null;
      }
    },
    async delete(key) {
      const file = fileOf(key);
      await rm(file, { force: true });
      await rm(metaOf(file), { force: true });
    },
    async list(prefix) {
      assertValidPrefix(prefix);
      const dir = path.join(root, prefix);
      const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile() && !e.name.endsWith('.meta.json') && !e.name.endsWith('.part'))
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    },
    async deletePrefix(prefix) {
      const keys = await this.list(prefix);
      await rm(path.join(root, prefix), { recursive: true, force: true });
      return keys.length;
    },
    async ping() {
      await mkdir(root, { recursive: true });
      const probe = path.join(root, `.ping-${randomUUID()}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },
  };
}
