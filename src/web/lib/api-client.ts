/**
 * The one HTTP client of the web app (spec: public pages §6, §7, §8 and the token refresh of §4).
 *
 * - Every call whose path does not contain /api/public/ carries `Authorization: Bearer {token}` and
 *   `x-refresh-token` when those are stored; public calls carry no credentials and are never refreshed.
 * - Every error reply is parsed into an ApiError (status, code, errorKey, field, message).
 * - On a 401 exactly one refresh runs at a time (a single-flight promise). Calls that fail with 401
 *   meanwhile wait for it and are replayed once with the new token. A failed refresh, or none possible
 *   (no refresh token), clears the session and goes to /signin, except on the submit, sign-in and
 *   sign-up pages.
 *
 * The fetch function, the navigation and the current path are injectable (tests, and the router once
 * it exists: the AuthProvider hands its navigate function over with `configure`).
 */
import type { z } from 'zod';
import type { REFRESH_TOKEN_HEADER } from '../../contract/api/auth.schema.js';
import { API, isPublicApiPath } from '../../contract/api/paths.js';
import type { HttpMethod } from '../../contract/api/paths.js';
import type { TErrorParams } from '../../contract/error-reasons.js';
import type { TAuthErrorKey, TErrorCode } from '../../contract/errors.js';
import { paths } from './paths';
import { clearSession, getRefreshToken, getToken, updateTokens } from './session';

/**
 * This module is in the main bundle, which the landing and recording pages load: it takes no schema
 * code by value. The contract's header name is checked at compile time; the error and refresh
 * schemas load on demand (only for an error reply or a refresh).
 */
const REFRESH_HEADER: typeof REFRESH_TOKEN_HEADER = 'x-refresh-token';
const loadErrorSchema = async () => (await import('../../contract/errors.js')).ZApiError;
const loadRefreshSchema = async () => (await import('../../contract/api/auth.schema.js')).ZRefreshResponse;

/** An error reply of the API (or a failure to reach it: status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: TErrorCode;
  readonly errorKey: TAuthErrorKey | undefined;
  readonly field: string | undefined;
  /** The server's reason key (contract/error-reasons.ts), translated under `errors.reasons.<reason>`. */
  readonly reason: string | undefined;
  readonly params: TErrorParams;

  constructor(options: {
    status: number;
    code: TErrorCode;
    message: string;
    errorKey?: TAuthErrorKey;
    field?: string;
    reason?: string;
    params?: TErrorParams;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.errorKey = options.errorKey;
    this.field = options.field;
    this.reason = options.reason;
    this.params = options.params ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface ApiRequestOptions<S extends z.ZodType> {
  method?: HttpMethod;
  /** Sent as JSON; a FormData is sent as multipart/form-data. */
  body?: unknown;
  /** The contract's schema of the successful answer; the reply is parsed through it. */
  schema: S;
  signal?: AbortSignal;
  /**
   * For calls whose 401 answers the credentials they carry (sign-in: wrong password), not an expired
   * session: such a 401 is returned as is, with no refresh and no replay.
   */
  skipRefresh?: boolean;
}

export interface ApiClientOptions {
  /** Defaults to the global fetch, looked up at call time. */
  fetch?: typeof fetch;
  /** Where a failed refresh sends the person. Defaults to a full page load of the address. */
  navigate?: (path: string) => void;
  /** The current path name, to spare the submit, sign-in and sign-up pages. */
  currentPath?: () => string;
}

/** Pages where an expired session never sends the person to /signin (spec §2). */
const NO_SIGNIN_REDIRECT_PREFIXES = [paths.recording(''), paths.signin, paths.signup] as const;

export function isSigninRedirectExempt(pathname: string): boolean {
  return NO_SIGNIN_REDIRECT_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

function sessionExpiredError(): ApiError {
  return new ApiError({
    status: 401,
    code: 'unauthorized',
    errorKey: 'sessionExpired',
    message: 'Your session has expired. Please sign in again.',
  });
}

/** Turns an error reply into an ApiError, whatever its body. */
async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    const text = await response.text();
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const parsed = (await loadErrorSchema()).safeParse(body);
  if (parsed.success) {
    return new ApiError({
      status: response.status,
      code: parsed.data.code,
      message: parsed.data.error,
      ...(parsed.data.errorKey ? { errorKey: parsed.data.errorKey } : {}),
      ...(parsed.data.field ? { field: parsed.data.field } : {}),
      ...(parsed.data.reason ? { reason: parsed.data.reason, params: parsed.data.params ?? {} } : {}),
    });
  }
  return new ApiError({
    status: response.status,
    code: response.status >= 500 ? 'server_error' : response.status === 401 ? 'unauthorized' : 'unknown',
    message: response.statusText || `Request failed with status ${response.status}`,
  });
}

async function parseBody<S extends z.ZodType>(response: Response, schema: S): Promise<z.output<S>> {
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError({
      status: response.status,
      code: 'invalid_format',
      message: 'The server sent an unreadable answer.',
    });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'invalid_format',
      message: 'The server sent an unexpected answer.',
    });
  }
  return parsed.data;
}

export interface ApiClient {
  apiFetch: <S extends z.ZodType>(path: string, options: ApiRequestOptions<S>) => Promise<z.output<S>>;
  /** Replaces some of the injected parts (the router's navigate, once the app is mounted). */
  configure: (options: ApiClientOptions) => void;
}

export function createApiClient(initial: ApiClientOptions = {}): ApiClient {
  const deps: Required<ApiClientOptions> = {
    fetch: initial.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    navigate: initial.navigate ?? ((path) => window.location.assign(path)),
    currentPath: initial.currentPath ?? (() => window.location.pathname),
  };

  /** The refresh running now, shared by every call that got a 401 meanwhile. */
  let refreshInFlight: Promise<void> | null = null;

  function credentialHeaders(path: string): Record<string, string> {
    if (isPublicApiPath(path)) return {};
    const headers: Record<string, string> = {};
    const token = getToken();
    const refreshToken = getRefreshToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (refreshToken) headers[REFRESH_HEADER] = refreshToken;
    return headers;
  }

  async function send(path: string, options: { method: HttpMethod; body?: unknown; signal?: AbortSignal | undefined }) {
    const headers: Record<string, string> = { accept: 'application/json', ...credentialHeaders(path) };
    const init: RequestInit = {
      method: options.method,
      headers,
      credentials: isPublicApiPath(path) ? 'omit' : 'include',
    };
    if (options.body instanceof FormData) {
      // Multipart upload (the logo): the browser writes the content type with its boundary.
      init.body = options.body;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    try {
      return await deps.fetch(path, init);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError({
        status: 0,
        code: 'unknown',
        message: error instanceof Error ? error.message : 'The server could not be reached.',
      });
    }
  }

  /** Ends the session after a failed refresh and leaves the page unless it must stay. */
  function loseSession(): void {
    clearSession();
    if (!isSigninRedirectExempt(deps.currentPath())) deps.navigate(paths.signin);
  }

  async function performRefresh(): Promise<void> {
    const refreshToken = getRefreshToken();
    if (!refreshToken) throw sessionExpiredError();
    const response = await send(API.auth.refresh.path, {
      method: API.auth.refresh.method,
      body: { refresh_token: refreshToken },
    });
    if (!response.ok) throw await toApiError(response);
    const pair = await parseBody(response, await loadRefreshSchema());
    updateTokens(pair);
  }

  /** Starts a refresh, or joins the one already running. */
  function refreshOnce(): Promise<void> {
    if (!refreshInFlight) {
      refreshInFlight = performRefresh()
        .catch((error: unknown) => {
          loseSession();
          throw error instanceof ApiError ? error : sessionExpiredError();
        })
        .finally(() => {
          refreshInFlight = null;
        });
    }
    return refreshInFlight;
  }

  async function apiFetch<S extends z.ZodType>(path: string, options: ApiRequestOptions<S>): Promise<z.output<S>> {
    const method = options.method ?? 'GET';
    const request = { method, body: options.body, signal: options.signal };
    const isPublic = isPublicApiPath(path);
    const tokenSent = isPublic ? null : getToken();

    let response = await send(path, request);
    if (response.status === 401 && !isPublic && !options.skipRefresh && path !== API.auth.refresh.path) {
      const current = getToken();
      // A refresh failed while this call was on its way: the session is gone already.
      if (tokenSent && !current) throw sessionExpiredError();
      // Another call refreshed while this one was on its way: replay with the new token at once.
      if (!(current && current !== tokenSent)) await refreshOnce();
      response = await send(path, request);
    }
    if (!response.ok) throw await toApiError(response);
    return parseBody(response, options.schema);
  }

  return {
    apiFetch,
    configure: (options) => {
      if (options.fetch) deps.fetch = options.fetch;
      if (options.navigate) deps.navigate = options.navigate;
      if (options.currentPath) deps.currentPath = options.currentPath;
    },
  };
}

/** The app's client. */
export const apiClient = createApiClient();
export const apiFetch = apiClient.apiFetch;
