/**
 * The one list of the `/api/v1` operations (issue 32, decision 213): the server registers each route
 * from its entry here (method, path, zod schemas), and the OpenAPI document is generated from the same
 * entries, so the two cannot drift. An operation's summary and description are its reference text.
 */
import type { z } from 'zod';
import { ZIdParams } from './common.js';
import { API, type AnyEndpoint } from './paths.js';
import {
  ZV1ListQuery,
  ZV1PublicationList,
  ZV1PublicationsQuery,
  ZV1PublishBody,
  ZV1PublishResponse,
  ZV1Request,
  ZV1SendRequestBody,
  ZV1Testimonial,
  ZV1TestimonialList,
} from './v1.schema.js';

/** The error answers an operation may give, each in the standard error shape (ZApiError). */
export type V1ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429;

export interface V1Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  operationId: string;
  endpoint: AnyEndpoint;
  /** The group of the reference page (an OpenAPI tag). */
  tag: 'Testimonials' | 'Requests' | 'Publications';
  summary: string;
  description: string;
  /** Needs a key with the read and write scope. */
  writes: boolean;
  params: P;
  query: Q;
  body: B;
  /** The success answer: its status, and its body's schema (none for 204). */
  status: 200 | 201 | 204;
  response: R;
  responseDescription: string;
  /** The errors it may answer besides 401 and 429, which every operation may give. */
  errors: V1ErrorStatus[];
  /** A realistic request body for the reference page's curl example. */
  example?: unknown;
  /** Request headers it reads besides Authorization (OpenAPI `in: header` parameters). */
  headers?: V1Header[];
}

/** A request header of an operation, as the OpenAPI document describes it. */
export interface V1Header {
  name: string;
  description: string;
  required: boolean;
  schema: { type: 'string'; minLength?: number; maxLength?: number };
}

/** `Idempotency-Key` (decision 222): a retried write with the same key and body answers the first answer. */
export const IDEMPOTENCY_KEY_HEADER: V1Header = {
  name: 'Idempotency-Key',
  description:
    'Makes the call safe to retry: a call with a key this API key already used in the last 24 hours, with the same body, answers the first call’s answer (with `Idempotent-Replayed: true`) and does nothing again — no second request, no second e-mail. The same key with a different body is refused with 409. Use a new random value (a UUID) for each distinct call.',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function operation<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R extends z.ZodType | undefined>(
  o: V1Operation<P, Q, B, R>,
): V1Operation<P, Q, B, R> {
  return o;
}

const EXAMPLE_ID = '0b6c1f4e-3a7d-4c2e-9f1a-5d8e2b7c4a10';

export const V1_OPERATIONS = {
  listTestimonials: operation({
    operationId: 'listTestimonials',
    endpoint: API.v1.listTestimonials,
    tag: 'Testimonials',
    summary: 'List testimonials',
    description:
      "The key's company's testimonials, newest first, a page at a time. Media addresses are signed and short-lived; they are null while a testimonial is unpaid, or after the customer withdrew it or removed an answer.",
    writes: false,
    params: undefined,
    query: ZV1ListQuery,
    body: undefined,
    status: 200,
    response: ZV1TestimonialList,
    responseDescription: 'A page of testimonials and the total count.',
    errors: [400],
  }),
  getTestimonial: operation({
    operationId: 'getTestimonial',
    endpoint: API.v1.getTestimonial,
    tag: 'Testimonials',
    summary: 'Get a testimonial',
    description:
      "One testimonial with its answers: each answer's signed media addresses and its transcript (language and timed cues) when one exists. Another company's testimonial is not found.",
    writes: false,
    params: ZIdParams,
    query: undefined,
    body: undefined,
    status: 200,
    response: ZV1Testimonial,
    responseDescription: 'The testimonial.',
    errors: [400, 404],
  }),
  sendRequest: operation({
    operationId: 'sendRequest',
    endpoint: API.v1.sendRequest,
    tag: 'Requests',
    summary: 'Send a request',
    description:
      'Asks a customer for a video testimonial, exactly as the dashboard does: with `delivery: email` (the default) the customer gets the invitation e-mail; with `delivery: link` nothing is sent and you share the returned `link` yourself. At most 100 requests an hour per company.',
    writes: true,
    params: undefined,
    query: undefined,
    body: ZV1SendRequestBody,
    status: 201,
    response: ZV1Request,
    responseDescription: 'The request as stored, with the customer’s private link.',
    errors: [400, 403, 404, 409],
    headers: [IDEMPOTENCY_KEY_HEADER],
    example: { customer_name: 'Ada Martin', customer_email: 'ada@example.com', question_ids: [EXAMPLE_ID], language: 'english' },
  }),
  listPublications: operation({
    operationId: 'listPublications',
    endpoint: API.v1.listPublications,
    tag: 'Publications',
    summary: 'List publications',
    description: "The key's company's live publications (share pages and embeddable players), newest first, a page at a time; optionally one testimonial's only.",
    writes: false,
    params: undefined,
    query: ZV1PublicationsQuery,
    body: undefined,
    status: 200,
    response: ZV1PublicationList,
    responseDescription: 'A page of publications and the total count.',
    errors: [400],
  }),
  publish: operation({
    operationId: 'publish',
    endpoint: API.v1.publish,
    tag: 'Publications',
    summary: 'Publish',
    description:
      'Gives a paid testimonial a public share page and an embeddable player: either a ready studio video (`job_id`) or one answer as recorded (`response_id`). Refused for a testimonial whose customer withdrew consent or removed the answer.',
    writes: true,
    params: undefined,
    query: undefined,
    body: ZV1PublishBody,
    status: 201,
    response: ZV1PublishResponse,
    responseDescription: 'The publication with its share page and player addresses.',
    errors: [400, 403, 404, 409],
    example: { testimonial_id: EXAMPLE_ID, response_id: '5e2a9c7b-1d4f-4b8a-a6e3-7c0d9f2b1e54' },
  }),
  unpublish: operation({
    operationId: 'unpublish',
    endpoint: API.v1.unpublish,
    tag: 'Publications',
    summary: 'Unpublish',
    description: 'Takes a publication down: its share page, player and media stop at once. Another company’s, or one already taken down, is not found.',
    writes: true,
    params: ZIdParams,
    query: undefined,
    body: undefined,
    status: 204,
    response: undefined,
    responseDescription: 'Taken down.',
    errors: [400, 403, 404],
  }),
} as const;

export type V1OperationId = keyof typeof V1_OPERATIONS;

export const V1_OPERATION_LIST: readonly V1Operation[] = Object.values(V1_OPERATIONS);
