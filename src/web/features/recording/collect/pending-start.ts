/**
 * A collection link's started request that still waits for its e-mail code, kept in this tab
 * (sessionStorage) under the link's slug: a reload of /c/{slug} at the code step comes back to the code
 * step of the same request instead of starting (and e-mailing) a new one. Forgotten once the code is
 * confirmed or the customer starts again. A browser that refuses storage simply does not resume.
 */
export interface PendingStart {
  token: string;
  email: string;
}

const keyOf = (slug: string) => `vouchreel.collect.${slug}`;

export function readPendingStart(slug: string): PendingStart | null {
  try {
    const raw = window.sessionStorage.getItem(keyOf(slug));
    const value = raw ? (JSON.parse(raw) as Partial<PendingStart>) : null;
    return value && typeof value.token === 'string' && typeof value.email === 'string' ? { token: value.token, email: value.email } : null;
  } catch {
    return null;
  }
}

export function savePendingStart(slug: string, pending: PendingStart): void {
  try {
    window.sessionStorage.setItem(keyOf(slug), JSON.stringify(pending));
  } catch {
    // Private mode or storage full: a reload starts again, as before.
  }
}

export function forgetPendingStart(slug: string): void {
  try {
    window.sessionStorage.removeItem(keyOf(slug));
  } catch {
    // Nothing kept.
  }
}
