/**
 * The schema-dependent half of the auth state, loaded on demand by the AuthProvider (it lives in the
 * main bundle, which stays free of zod): reading the stored session at start, the session check and
 * the sign-out call.
 */
import type { TUser } from '../../contract/api/auth.schema.js';
export { meQueryOptions } from './api/get-me';
export { signout } from './api/signout';
import { getRefreshToken, getToken, discardStoredUser } from './session';
import { readStoredUser } from './stored-session';

export interface TRestoredSession {
  status: 'authenticated' | 'anonymous';
  user: TUser | null;
  /** Whether to check the session with GET /api/auth/me. */
  check: boolean;
}

/**
 * Reads the stored session, as the spec's start-up steps say (§4):
 * - token, refreshToken and a readable user → authenticated, then checked with GET /api/auth/me;
 * - a stored user that cannot be read → discarded, anonymous;
 * - only a token → authenticated, with the user object read from storage (if any);
 * - no token → anonymous.
 */
export function restoreFromStorage(): TRestoredSession {
  const token = getToken();
  if (!token) return { status: 'anonymous', user: null, check: false };
  const stored = readStoredUser();
  if (stored.state === 'unreadable') {
    discardStoredUser();
    return { status: 'anonymous', user: null, check: false };
  }
  const user = stored.state === 'ok' ? stored.user : null;
  return { status: 'authenticated', user, check: Boolean(getRefreshToken() && user) };
}
