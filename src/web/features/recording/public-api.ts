/**
 * The customer's two public calls (spec §7), without credentials and without the app's API client:
 * that client parses answers through zod schemas, and this page stays light for phones. Answers are
 * checked by hand against the contract's types.
 */
import { API } from '../../../contract/api/paths.js';
import type { TSaveTestimonialResponse, TValidateTokenResponse } from '../../../contract/api/public.schema.js';
import type { TErrorParams } from '../../../contract/error-reasons.js';
import { parseRetryAfter } from './retry-policy';

/** What the page knows of a refusal: never the server's English text, which it does not show. */
export interface Refusal {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  /** The server's reason key (contract/error-reasons.ts), translated by the page; null if none. */
  reason: string | null;
  params: TErrorParams;
}

/** A failed call: the HTTP status (0 when no answer came), the server's reason and its parameters. */
export class PublicCallError extends Error implements Refusal {
  readonly reason: string | null;
  readonly params: TErrorParams;

  constructor(
    readonly status: number,
    body: unknown = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    const { error, reason, params } = readErrorBody(body);
    // The server's English text stays in the error for logs and developer tools only.
    super(error ?? `HTTP ${status}`);
    this.name = 'PublicCallError';
    this.reason = reason;
    this.params = params;
  }
}

/** The fields of the contract's error shape (ZApiError), checked by hand: this page takes no zod. */
function readErrorBody(body: unknown): { error: string | null; reason: string | null; params: TErrorParams } {
  const out = { error: null as string | null, reason: null as string | null, params: {} as TErrorParams };
  if (!body || typeof body !== 'object') return out;
  const { error, reason, params } = body as { error?: unknown; reason?: unknown; params?: unknown };
  if (typeof error === 'string' && error.trim()) out.error = error;
  if (typeof reason === 'string' && reason) out.reason = reason;
  if (params && typeof params === 'object' && !Array.isArray(params)) {
    for (const [key, value] of Object.entries(params)) {
      if (typeof value === 'string' || typeof value === 'number') out.params[key] = value;
    }
  }
  return out;
}

function isValidateResponse(body: unknown): body is TValidateTokenResponse {
  if (!body || typeof body !== 'object') return false;
  const { testimonial, questions } = body as Partial<TValidateTokenResponse>;
  return (
    !!testimonial &&
    typeof testimonial.id === 'string' &&
    typeof testimonial.customer_name === 'string' &&
    !!testimonial.company &&
    Array.isArray(questions) &&
    questions.every((q) => q && typeof q.id === 'string' && typeof q.text === 'string')
  );
}

/** GET /api/public/testimonial/validate/{token}. */
export async function validateToken(token: string, signal?: AbortSignal): Promise<TValidateTokenResponse> {
  let response: Response;
  try {
    response = await fetch(API.public.validate.path(token), {
      credentials: 'omit',
      cache: 'no-store',
      headers: { accept: 'application/json' },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PublicCallError(0, null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    throw new PublicCallError(response.status, body, parseRetryAfter(response.headers.get('retry-after')));
  }
  if (!isValidateResponse(body)) throw new PublicCallError(response.status, null);
  return body;
}

/**
 * POST /api/public/testimonial/progress: tells the company's funnel a step no other call shows (camera
 * and microphone granted, first answer recorded). Fire and forget: no cookie, kept alive if the page is
 * left, and never in the customer's way (any failure is ignored).
 */
export function reportProgress(token: string, step: 'device_ok' | 'first_answer'): void {
  try {
    void fetch(API.funnel.progress.path, {
      method: 'POST',
      credentials: 'omit',
      keepalive: true,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, step }),
    }).catch(() => undefined);
  } catch {
    // A browser without fetch keepalive, or any other refusal: the funnel misses one step.
  }
}

export interface UploadAnswer {
  questionId: string;
  bgColor: string;
  blob: Blob;
  extension: 'webm' | 'mp4';
}

export interface UploadFields {
  token: string;
  testimonialId: string;
  name: string;
  title: string;
  consentVersion: string;
  answers: UploadAnswer[];
}

/**
 * The multipart body of POST /api/public/testimonial/save (spec §7). Every field comes before the
 * videos: the server reads no file before it knows the link's token, and refuses one that comes first.
 */
export function buildSaveForm(fields: UploadFields): FormData {
  const form = new FormData();
  form.append('token', fields.token);
  form.append('testimonialId', fields.testimonialId);
  form.append('name', fields.name);
  form.append('title', fields.title);
  form.append('consentVersion', fields.consentVersion);
  fields.answers.forEach((answer, i) => {
    form.append(`questionIds[${i}]`, answer.questionId);
    form.append(`bgColors[${i}]`, answer.bgColor);
  });
  fields.answers.forEach((answer, i) => {
    form.append('videos', answer.blob, `video${i}.${answer.extension}`);
  });
  return form;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadHandle {
  promise: Promise<TSaveTestimonialResponse>;
  abort: () => void;
}

/** Upload without progress for this long means a dead connection: give up this try and retry. */
const STALL_MS = 45_000;
/** After the last byte, the server checks every file; past this, the try is abandoned and retried. */
const PROCESSING_TIMEOUT_MS = 180_000;

/**
 * POST /api/public/testimonial/save with XMLHttpRequest, for real upload progress (bytes sent).
 * Rejects with a PublicCallError (status 0 for a network failure, a stall or a timeout).
 */
export function uploadAnswers(form: FormData, onProgress: (p: UploadProgress) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  const promise = new Promise<TSaveTestimonialResponse>((resolve, reject) => {
    const fail = (error: PublicCallError) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      reject(error);
    };
    const arm = (ms: number) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        xhr.abort();
        fail(new PublicCallError(0, null));
      }, ms);
    };
    xhr.open('POST', API.public.save.path);
    xhr.withCredentials = false;
    xhr.setRequestHeader('accept', 'application/json');
    // The token in a header as well, so the server can check the link before reading the body.
    const token = form.get('token');
    if (typeof token === 'string') xhr.setRequestHeader('x-request-token', token);
    xhr.upload.onprogress = (event) => {
      arm(STALL_MS);
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.upload.onload = () => arm(PROCESSING_TIMEOUT_MS);
    xhr.onerror = () => fail(new PublicCallError(0, null));
    xhr.ontimeout = () => fail(new PublicCallError(0, null));
    xhr.onabort = () => fail(new PublicCallError(0, null));
    xhr.onload = () => {
      if (settled) return;
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && typeof body === 'object' && 'success' in body) {
        settled = true;
        clearTimeout(watchdog);
        resolve(body as TSaveTestimonialResponse);
        return;
      }
      fail(new PublicCallError(xhr.status, body, parseRetryAfter(xhr.getResponseHeader('retry-after'))));
    };
    arm(STALL_MS);
    xhr.send(form);
  });
  return {
    promise,
    abort: () => {
      if (!settled) xhr.abort();
    },
  };
}
