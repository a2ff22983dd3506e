import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

export interface SecurityHeaderOptions {
  /** Served over HTTPS: HSTS and upgrade-insecure-requests. */
  https: boolean;
  /** Other origins media play and download from (the S3 bucket's presigned addresses). */
  mediaOrigins: string[];
}

/**
 * The security headers every answer carries, as helmet writes them. They depend on configuration
 * only, so they are computed once at start and copied onto each reply: running helmet's middleware
 * for every request (as @fastify/helmet does) re-parses the policy each time and halved the API's
 * throughput in `npm run bench:api`.
 */
export function securityHeaders({ https, mediaOrigins }: SecurityHeaderOptions): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...mediaOrigins],
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * The headers of API answers (JSON, and the logo image), which are never documents: nothing may load
 * from them or frame them (the OWASP REST recommendation), and HSTS as for pages. The document set,
 * with its long policy for the web app, would only make every API answer heavier.
 */
export function apiSecurityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const hsts = securityHeaders(options)['strict-transport-security'];
  return {
    'content-security-policy': "default-src 'none';object-src 'none';frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

declare module 'fastify' {
  interface FastifyReply {
    /** This answer under /api/ is a page (the test-mode checkout): it gets the document headers. */
    asDocument(): FastifyReply;
    /**
     * This answer is the embed document of a live publication or wall: any site may frame it. Called by
     * the embed routes once they found what they show, never from a path (decision 158).
     */
    asEmbed(): FastifyReply;
  }
}

/**
 * The public pages of publications and walls, made to be opened from anywhere: share pages and their
 * media, embeds, walls. Matched on the raw path only to leave Cross-Origin-Opener-Policy off them
 * (decision 151); no path makes an answer framable.
 */
export const PUBLIC_PAGE_PREFIXES = ['/v/', '/embed/', '/wall/'] as const;

/**
 * The document headers of a publication's public pages: the same policy without
 * Cross-Origin-Opener-Policy (decision 151). COOP keeps other sites' windows from holding a reference
 * to ours, which matters for pages with a session or a private link; these pages are public by design
 * and hold nothing to leak, and COOP's browsing-context switch on arrival (a new renderer process)
 * cost a 1.4 KB page without script 150–450 ms of Lighthouse's blocking time.
 */
export function publicPageSecurityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers = { ...securityHeaders(options) };
  delete headers['cross-origin-opener-policy'];
  return headers;
}

/**
 * The document headers of an embeddable player or wall: those of the public pages, except that any site
 * may frame them (`frame-ancestors *`, no X-Frame-Options). Only `reply.asEmbed()` sets them, once the
 * route found a live publication or a wall; every other answer, an unknown embed included, keeps
 * `frame-ancestors 'none'`.
 */
export function embedSecurityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers = publicPageSecurityHeaders(options);
  headers['content-security-policy'] = headers['content-security-policy']!.replace(/frame-ancestors 'none'/, 'frame-ancestors *');
  delete headers['x-frame-options'];
  return headers;
}

/** Every reply (API, files, pages, errors) gets its headers from the first hook. */
export function applySecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const documents = securityHeaders(options);
  const api = apiSecurityHeaders(options);
  const embeds = embedSecurityHeaders(options);
  const publicPages = publicPageSecurityHeaders(options);
  app.decorateReply('asDocument', function asDocument(this: FastifyReply) {
    return this.headers(documents);
  });
  app.decorateReply('asEmbed', function asEmbed(this: FastifyReply) {
    this.removeHeader('x-frame-options');
    return this.headers(embeds);
  });
  const headersOf = (url: string) => {
    if (url.startsWith('/api/')) return api;
    if (PUBLIC_PAGE_PREFIXES.some((prefix) => url.startsWith(prefix))) return publicPages;
    return documents;
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersOf(request.url));
    done();
  });
}
