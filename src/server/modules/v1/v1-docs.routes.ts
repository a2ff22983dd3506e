import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API, V1_REFERENCE_PAGE } from '../../../contract/api/paths.js';
import type { AppContext } from '../../context.js';
import { openApiDocument } from './openapi.js';
import { referencePage } from './reference.page.js';

/** The reference page of /api/v1 (decision 214): a public, server-rendered page, like the share pages. */
export const API_REFERENCE_PAGE = V1_REFERENCE_PAGE;

/**
 * The public documentation of /api/v1 (issue 32, decisions 213 and 214), outside the key-guarded plugin:
 * the OpenAPI document generated from the contract, and its reference page. Both are the same for every
 * caller, made once per process, and cacheable (an ETag and a short max-age, so a new version shows soon).
 */
export function v1DocsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const document = openApiDocument({ appUrl: ctx.config.appUrl, brandName: ctx.config.brandName, ratePerMinute: ctx.config.apiKeyRatePerMinute });
    const json = JSON.stringify(document);
    const page = referencePage(document);
    const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const jsonTag = etagOf(json);
    const pageTag = etagOf(page);

    const send = (request: FastifyRequest, reply: FastifyReply, body: string, etag: string, type: string) => {
      reply.header('cache-control', 'public, max-age=300').header('etag', etag).header('access-control-allow-origin', '*');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type(type).send(body);
    };

    app.get(API.v1.openapi.route, async (request, reply) => send(request, reply, json, jsonTag, 'application/json; charset=utf-8'));
    app.get(API_REFERENCE_PAGE, async (request, reply) => send(request, reply, page, pageTag, 'text/html; charset=utf-8'));
  };
}
