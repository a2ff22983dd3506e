/** Reads PostgreSQL's error fields through Drizzle's wrapping (the driver error is the `cause`). */
function pgFields(error: unknown): { code?: string; constraint?: string } | undefined {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, ...(typeof constraint === 'string' ? { constraint } : {}) };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The name of the unique index or constraint a statement violated, if that is what failed. */
export function uniqueViolation(error: unknown): string | undefined {
  const f = pgFields(error);
  return f?.code === '23505' ? (f.constraint ?? '') : undefined;
}

export function checkViolation(error: unknown): string | undefined {
  const f = pgFields(error);
  return f?.code === '23514' ? (f.constraint ?? '') : undefined;
}

/** Socket errors of a connection that could not be made or was cut. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/**
 * PostgreSQL's codes for a server that is not there to answer: class 08 (connection exception),
 * 57P01–57P03 (shutting down, crashed, starting up), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
/** What node-postgres says without a code when the server went away mid-conversation or never answered. */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;

/**
 * Whether an error means the database (or the connection to it) is unavailable, as opposed to a
 * statement that failed: the call may succeed if tried again in a moment. Reads through Drizzle's and
 * our own wrapping (`cause`).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // AggregateError (a host with several addresses, each refused).
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
