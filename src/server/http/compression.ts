import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Types compressed on the fly besides those mime-db marks compressible (text, scripts, SVG…): pages
 * and JSON. This replaces the plugin's default list, which also names application/octet-stream.
 */
const COMPRESSED_TYPES = /^(?:text\/html|application\/(?:[\w.+-]+\+)?json)(?:;|$)/i;

/**
 * Answers made at request time (API JSON, server-rendered HTML, a text file the build did not
 * compress) are compressed with brotli or gzip when the client accepts it, with `Vary:
 * Accept-Encoding`; a JSON or HTML body under 1 KB is sent as it is. Never media: video, audio and
 * images are not compressible types, and range answers (206) are never encoded. The built web app's
 * files come as the siblings the build compressed once at the best level, which @fastify/static picks
 * (http/web-app.ts); this plugin leaves an answer that already has a `Content-Encoding` alone.
 * Request bodies are not decompressed: uploads arrive as they are. Brotli runs at quality 4, the
 * plugin's default for on-the-fly work (11 is for build time).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSED_TYPES,
  });
}
