import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TLanguage } from '../../contract/constants.js';
import { pageLanguage } from './page-language.js';
import { withRecordingMessages } from './recording-page.js';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * The customer's link (spec: /testimonial/submit/:token) and an open collection link (/c/:slug, issue
 * 30, whose first step leads to the same page): their own page, recording.html.
 */
const RECORDING_PAGE_PATH = /^\/(testimonial\/submit|c)\/[^/]+\/?$/;

/**
 * Paths whose page the build rendered to HTML in each language (src/web/app/prerender.tsx,
 * PRERENDERED_PAGES): the name of their files, `<name>.<language>.html`.
 */
const PRERENDERED_PAGES: Record<string, string> = { '/': 'landing' };

/** The HTML document that answers a page path: the recording page's own, or the single-page app. */
export function pageFor(urlPath: string): 'recording.html' | 'index.html' {
  return RECORDING_PAGE_PATH.test(urlPath) ? 'recording.html' : 'index.html';
}

/**
 * Whether a path may be answered with a file of the build as it is. Not the build's own records (dot
 * folders such as `.vite/`, whose manifest lists the source tree), not the pages' HTML templates (a page
 * is answered by its path, with its language and messages) and not the compressed siblings (sent only
 * as the encoding of the file they stand beside).
 */
export function isServedBuildFile(urlPath: string): boolean {
  return !/(^|\/)\./.test(urlPath) && !/\.(html|br|gz|map)$/i.test(urlPath);
}

/** Whether a GET of this path that matched no route is a page of the web app (else a plain 404). */
export function isAppPagePath(urlPath: string): boolean {
  return !/^\/(api|dev|files)(\/|$)/.test(urlPath) && !/(^|\/)\./.test(urlPath) && !/\.(html|br|gz|map|json)$/i.test(urlPath);
}

/** The encodings of the build's siblings, in the server's order of preference. */
const SIBLINGS = { br: '.br', gzip: '.gz' } as const;
type TSiblingEncoding = keyof typeof SIBLINGS;
const PREFERENCE: TSiblingEncoding[] = ['br', 'gzip'];

/** The sibling to send for this Accept-Encoding ('*' counts as gzip, as @fastify/static reads it), or null. */
function siblingEncoding(accept: string | undefined): TSiblingEncoding | null {
  if (!accept) return null;
  return negotiate(accept.toLowerCase().replace(/\*/g, 'gzip'), PREFERENCE);
}

/** The recording page with one language's messages in it, as sent (plain, brotli, gzip). */
interface RecordingPageVariant {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * recording.html with the messages of each language written into it (recording-page.ts,
 * docs/decisions/140), compressed once per language and kept while the file stays the same (a new
 * build is served at once, as the other pages are).
 */
function recordingPages(file: string) {
  let made: { version: string; pages: Map<TLanguage, Promise<RecordingPageVariant>> } | null = null;
  return async (language: TLanguage): Promise<RecordingPageVariant> => {
    const info = await stat(file);
    const version = `${info.mtimeMs}:${info.size}`;
    if (made?.version !== version) made = { version, pages: new Map() };
    const pages = made.pages;
    let page = pages.get(language);
    if (!page) {
      page = readFile(file, 'utf8').then(async (html) => {
        const plain = Buffer.from(withRecordingMessages(html, language));
        const [br, gzipped] = await Promise.all([
          brotli(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
          gz(plain, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        return { plain, br, gzip: gzipped };
      });
      // A failed read is not kept: the next request tries again.
      page.catch(() => pages.delete(language));
      pages.set(language, page);
    }
    return page;
  };
}

/**
 * The built web app (vite.config.ts). Files come from `webDir` with the brotli or gzip sibling the
 * build wrote beside each text file when the browser accepts it (`Content-Encoding`, `Vary:
 * Accept-Encoding`), the file itself otherwise; hashed assets are immutable. Pages are read at each
 * request (a new build is served at once), the same way, and revalidated by the browser each time.
 * Returns how to send the page of a path, or null when there is no build (the API alone).
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDir: string,
): Promise<((reply: FastifyReply, urlPath: string) => Promise<FastifyReply>) | null> {
  if (!existsSync(path.join(webDir, 'index.html'))) return null;
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: true,
    index: false,
    preCompressed: true,
    allowedPath: (pathName) => isServedBuildFile(pathName),
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      else if (/\.html(\.br|\.gz)?$/.test(filePath)) reply.header('cache-control', 'no-cache');
      else reply.header('cache-control', 'public, max-age=3600');
    },
  });

  const hasRecordingPage = existsSync(path.join(webDir, 'recording.html'));
  const recordingPage = recordingPages(path.join(webDir, 'recording.html'));
  return async (reply, urlPath) => {
    const page = pageFor(urlPath) === 'recording.html' && hasRecordingPage ? 'recording.html' : 'index.html';
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    const encoding = siblingEncoding(reply.request.headers['accept-encoding']);
    if (page === 'recording.html') {
      // A private link: never indexed, whatever a crawler makes of the page's script. Its messages
      // are in the language the browser will start in (its cookie, else its languages).
      reply.header('x-robots-tag', 'noindex, nofollow').header('vary', 'accept-encoding, accept-language, cookie');
      const variant = await recordingPage(pageLanguage(reply.request.headers));
      if (encoding) return reply.header('content-encoding', encoding).send(variant[encoding]);
      return reply.send(variant.plain);
    }
    // A prerendered page in the language the app will start in (the same choice as the browser's),
    // else the app's page, which draws itself.
    const prerendered = PRERENDERED_PAGES[urlPath];
    let file = page;
    if (prerendered) {
      reply.header('vary', 'accept-encoding, accept-language, cookie');
      const candidate = `${prerendered}.${pageLanguage(reply.request.headers)}.html`;
      if (existsSync(path.join(webDir, candidate))) file = candidate;
    }
    const compressed = encoding ? await readFile(path.join(webDir, file + SIBLINGS[encoding])).catch(() => null) : null;
    if (encoding && compressed) return reply.header('content-encoding', encoding).send(compressed);
    return reply.send(await readFile(path.join(webDir, file)));
  };
}
