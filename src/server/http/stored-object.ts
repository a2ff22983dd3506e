import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { sendError } from './errors.js';

export interface StoredObjectOptions {
  /** `cache-control` of an answer streamed from here. */
  cacheControl: string;
  /** `cross-origin-resource-policy` of an answer streamed from here. */
  resourcePolicy: 'same-origin' | 'cross-origin';
  /**
   * How long the bucket's presigned address lives, when the storage redirects (S3 with redirect
   * delivery); null: never redirect, always stream from here. Published media use null (decision 157):
   * a presigned address names the internal key (company, request, answer) and outlives an unpublish.
   */
  presignSeconds: number | null;
  /** An attachment of this (already safe) name. */
  downloadName?: string | undefined;
  /** The type to announce instead of the stored one. */
  contentType?: string;
}

/**
 * Sends a stored object once the caller has checked that it may be read: with S3 and redirect delivery,
 * a redirect to a short-lived presigned address of the bucket (no byte passes through here); otherwise
 * the bytes, with HTTP byte ranges (206, 416) so that a video seeks and starts at once. A missing object
 * is a 404. Shared by the private media (/files/…) and the published media (/v/{slug}/…, always streamed).
 */
export async function sendStoredObject(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, key: string, options: StoredObjectOptions) {
  const head = await ctx.storage.head(key).catch(() => null);
  if (!head) return sendError(reply, 404, { error: 'No such file.', code: 'not_found' });

  // Through the bucket's presigned address, unless the bucket is private to the servers (S3_MEDIA_DELIVERY=stream).
  if (ctx.storage.presignGet && ctx.config.s3?.delivery !== 'stream' && options.presignSeconds !== null) {
    const target = await ctx.storage.presignGet(key, {
      expiresInSeconds: options.presignSeconds,
      ...(options.downloadName ? { downloadName: options.downloadName } : {}),
    });
    return reply.header('cache-control', 'private, no-store').redirect(target, 302);
  }

  if (options.downloadName) reply.header('content-disposition', `attachment; filename="${options.downloadName}"`);
  reply
    .header('content-type', options.contentType ?? head.contentType)
    .header('accept-ranges', 'bytes')
    .header('cache-control', options.cacheControl)
    .header('cross-origin-resource-policy', options.resourcePolicy);
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    let start = range[1] ? Number(range[1]) : head.size - Number(range[2]);
    let end = range[1] && range[2] ? Number(range[2]) : head.size - 1;
    start = Math.max(0, start);
    end = Math.min(end, head.size - 1);
    if (start > end || start >= head.size) {
      return reply.status(416).header('content-range', `bytes */${head.size}`).send();
    }
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${head.size}`)
      .header('content-length', end - start + 1)
      .send(await ctx.storage.get(key, { start, end }));
  }
  return reply.header('content-length', head.size).send(await ctx.storage.get(key));
}
