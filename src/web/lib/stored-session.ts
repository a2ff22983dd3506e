/**
 * The stored session read through the contract's schemas: a stored value that does not match is
 * treated as unreadable. Kept apart from `session.ts` so the main bundle carries no schema code.
 */
import { ZAuthAction, ZGoogleProfile, ZUser } from '../../contract/api/auth.schema.js';
import type { TAuthAction, TGoogleProfile, TUser } from '../../contract/api/auth.schema.js';
import { getGoogleAuthActionRaw, getGoogleSignupRaw, getStoredUserJson } from './session';

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export type TStoredUser = { state: 'none' } | { state: 'ok'; user: TUser } | { state: 'unreadable' };

/** The stored user object: absent, readable (valid JSON of the contract's user), or unreadable. */
export function readStoredUser(): TStoredUser {
  const raw = getStoredUserJson();
  if (raw === null) return { state: 'none' };
  const parsed = ZUser.safeParse(parseJson(raw));
  return parsed.success ? { state: 'ok', user: parsed.data } : { state: 'unreadable' };
}

/** Why the person went to Google, when stored and valid. */
export function getGoogleAuthAction(): TAuthAction | null {
  const parsed = ZAuthAction.safeParse(getGoogleAuthActionRaw());
  return parsed.success ? parsed.data : null;
}

/** The unfinished Google sign-up, when its profile and token are both stored and readable. */
export function getGoogleSignup(): { profile: TGoogleProfile; accessToken: string } | null {
  const { userData, accessToken } = getGoogleSignupRaw();
  if (!accessToken || !userData) return null;
  const parsed = ZGoogleProfile.safeParse(parseJson(userData));
  return parsed.success ? { profile: parsed.data, accessToken } : null;
}
