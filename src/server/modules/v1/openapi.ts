import { z } from 'zod';
import { V1_OPERATION_LIST, type V1ErrorStatus, type V1Operation } from '../../../contract/api/v1.operations.js';
import { ZApiError } from '../../../contract/errors.js';

/**
 * The OpenAPI 3.1 document of `/api/v1` (issue 32, decision 213), generated from the contract: every
 * operation of V1_OPERATIONS (the list the routes are registered from), its parameters, body and answers
 * converted by zod's own `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1). Nothing of
 * it is written by hand but the prose.
 */

type JsonSchema = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';

/** A zod schema as an OpenAPI 3.1 Schema Object: what a client sends (`input`) or receives (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const ERROR_RESPONSES: Record<V1ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'The input is not valid: `error` says why and `field` names the field.' },
  401: { name: 'Unauthorized', description: 'No API key, or a key that is unknown, malformed or revoked.' },
  403: { name: 'Forbidden', description: 'The key may only read (`no_permission`), or the action is not allowed for this testimonial.' },
  404: { name: 'NotFound', description: "Not found, or another company's." },
  409: { name: 'Conflict', description: 'The object is not in a state that allows this yet (for example a video still being made).' },
  429: { name: 'TooManyRequests', description: 'Over the limit of calls for this key (or of requests sent for this company): wait the seconds of `Retry-After`.' },
};

/** The parameters of a path or query schema, one per property (`in: path` ones always required). */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const input = jsonSchemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(input.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property as JsonSchema & { description?: string };
    return {
      name,
      in: where,
      required: where === 'path' || (input.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: propertySchema,
    };
  });
}

/** The OpenAPI path template of a Fastify route: `:id` → `{id}`. */
export const openApiPath = (route: string) => route.replace(/:([A-Za-z_]\w*)/g, '{$1}');

function operationObject(op: V1Operation): JsonSchema {
  const errors = [...new Set<V1ErrorStatus>([...op.errors, 401, 429])].sort((a, b) => a - b);
  const responses: Record<string, JsonSchema> = {
    [op.status]: op.response
      ? { description: op.responseDescription, content: { 'application/json': { schema: jsonSchemaOf(op.response, 'output') } } }
      : { description: op.responseDescription },
  };
  for (const status of errors) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: `${op.description}${op.writes ? '\n\nNeeds a key with the `read_write` scope.' : ''}`,
    tags: [op.tag],
    security: [{ apiKey: [] }],
    parameters: [
      ...parametersOf(op.params, 'path'),
      ...parametersOf(op.query, 'query'),
      ...(op.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: h.required, description: h.description, schema: h.schema })),
    ],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(op.body, 'input'), ...(op.example ? { example: op.example } : {}) } },
          },
        }
      : {}),
    responses,
    'x-scope': op.writes ? 'read_write' : 'read',
  };
}

export interface OpenApiOptions {
  appUrl: string;
  brandName: string;
  /** Calls a minute allowed per key (API_KEY_RATE_PER_MINUTE). */
  ratePerMinute: number;
}

/** The document. Pure: the same options give the same document (the route serves it with an ETag). */
export function openApiDocument(options: OpenApiOptions, operations: readonly V1Operation[] = V1_OPERATION_LIST): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    const path = openApiPath(op.endpoint.route);
    paths[path] = { ...paths[path], [op.endpoint.method.toLowerCase()]: operationObject(op) };
  }
  const responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description }) => [
      name,
      {
        description,
        ...(name === 'TooManyRequests' ? { headers: { 'Retry-After': { description: 'Seconds to wait before calling again.', schema: { type: 'integer', minimum: 0 } } } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${options.brandName} API`,
      version: '1',
      description:
        `The ${options.brandName} API lets other software read your testimonials (with their answers, transcripts and signed media addresses), send requests, and publish or unpublish. ` +
        `Create a key in Settings → API keys and send it as \`Authorization: Bearer vr_live_…\`. A \`read\` key may only read; a \`read_write\` key may also send and publish. ` +
        `Each key may make ${options.ratePerMinute} calls a minute. Every error answers the same JSON shape (\`Error\`).`,
    },
    servers: [{ url: new URL('/api/v1', options.appUrl).toString().replace(/\/$/, ''), description: 'This installation' }],
    tags: [
      { name: 'Testimonials', description: 'Read testimonials, their answers, transcripts and media.' },
      { name: 'Requests', description: 'Ask customers for a video testimonial.' },
      { name: 'Publications', description: 'Share pages and embeddable players.' },
    ],
    security: [{ apiKey: [] }],
    paths: Object.fromEntries(Object.entries(paths).map(([path, item]) => [path.replace(/^\/api\/v1/, ''), item])),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'vr_live_<prefix>_<secret>', description: 'An API key from Settings → API keys.' },
      },
      schemas: { Error: jsonSchemaOf(ZApiError, 'output') },
      responses,
    },
  };
}
