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
