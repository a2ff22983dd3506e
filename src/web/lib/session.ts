/**
 * The session data the web app keeps in the browser (spec: public pages §3, §4).
 *
 * | key                    | where                                                        |
 * |------------------------|--------------------------------------------------------------|
 * | token                  | localStorage when rememberMe is 'true', else sessionStorage  |
 * | refreshToken           | same as token                                                |
 * | user                   | same as token (JSON of the contract's user object)           |
 * | rememberMe             | localStorage, 'true' or 'false' (says where the tokens live) |
 * | googleAuthAction       | sessionStorage, 'signup' or 'signin'                         |
 * | googleUserData         | sessionStorage, JSON { sub, email, firstname, lastname, picture } |
 * | googleAccessToken      | sessionStorage, the sign-up token of process-auth-callback   |
 * | googleSignupInProgress | sessionStorage, 'true' while a Google sign-up is unfinished  |
 *
 * The Google keys live in sessionStorage: they only have to survive the round trip to Google in
 * the same tab, and an abandoned Google sign-up must not follow the person into other tabs.
 *
 * This module is part of the main bundle, so it imports no schema (zod stays out of the landing and
 * recording pages): it reads and writes raw values. `stored-session.ts` checks what it reads against
 * the contract.
 */
import type { TAuthAction, TGoogleProfile, TUser } from '../../contract/api/auth.schema.js';

export const SESSION_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  user: 'user',
  rememberMe: 'rememberMe',
  googleAuthAction: 'googleAuthAction',
  googleUserData: 'googleUserData',
  googleAccessToken: 'googleAccessToken',
  googleSignupInProgress: 'googleSignupInProgress',
} as const;

const TOKEN_KEYS = [SESSION_KEYS.token, SESSION_KEYS.refreshToken, SESSION_KEYS.user] as const;
const GOOGLE_KEYS = [
  SESSION_KEYS.googleAuthAction,
  SESSION_KEYS.googleUserData,
  SESSION_KEYS.googleAccessToken,
  SESSION_KEYS.googleSignupInProgress,
] as const;

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A storage that forgets everything: used where the browser refuses storage (private modes, tests). */
function memoryStorage(): StorageLike {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

function browserStorage(kind: 'localStorage' | 'sessionStorage'): StorageLike {
  try {
    const storage = globalThis[kind];
    if (storage) return storage;
  } catch {
    // Access to storage can throw (blocked cookies); fall through.
  }
  return memoryStorage();
}

/** Looked up on every access so tests (and a page whose storage is replaced) always see the live one. */
const persistent = () => browserStorage('localStorage');
const perTab = () => browserStorage('sessionStorage');

function safeGet(storage: StorageLike, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(storage: StorageLike, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // Quota or blocked storage: the session simply does not survive a reload.
  }
}

function safeRemove(storage: StorageLike, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing to do.
  }
}

/* ------------------------------------------------------------------ change notifications */

export type TSessionEvent = 'saved' | 'tokens' | 'user' | 'cleared';
type Listener = (event: TSessionEvent) => void;
const listeners = new Set<Listener>();

/** Calls `listener` after every change of the stored session; returns the unsubscribe function. */
export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function emit(event: TSessionEvent): void {
  for (const listener of [...listeners]) listener(event);
}

/* ------------------------------------------------------------------ tokens and user */

/** 'true' keeps the tokens in localStorage (they outlive the browser session), otherwise sessionStorage. */
export function getRememberMe(): boolean {
  return safeGet(persistent(), SESSION_KEYS.rememberMe) === 'true';
}

function tokenStorage(): StorageLike {
  return getRememberMe() ? persistent() : perTab();
}

/** Reads a token-side key where rememberMe says it lives, and falls back to the other storage. */
function readTokenKey(key: (typeof TOKEN_KEYS)[number]): string | null {
  const primary = tokenStorage();
  const value = safeGet(primary, key);
  if (value !== null) return value;
  const other = primary === persistent() ? perTab() : persistent();
  return safeGet(other, key);
}

export function getToken(): string | null {
  return readTokenKey(SESSION_KEYS.token) || null;
}

export function getRefreshToken(): string | null {
  return readTokenKey(SESSION_KEYS.refreshToken) || null;
}

/** The stored user as written (JSON), or null. */
export function getStoredUserJson(): string | null {
  return readTokenKey(SESSION_KEYS.user) || null;
}

export interface TSessionInput {
  token: string;
  refreshToken?: string | undefined;
  user: TUser;
  rememberMe: boolean;
}

/** Stores a new session: tokens and user go to the storage rememberMe chooses, and leave the other. */
export function saveSession({ token, refreshToken, user, rememberMe }: TSessionInput): void {
  safeSet(persistent(), SESSION_KEYS.rememberMe, rememberMe ? 'true' : 'false');
  const target = rememberMe ? persistent() : perTab();
  const other = rememberMe ? perTab() : persistent();
  for (const key of TOKEN_KEYS) safeRemove(other, key);
  safeSet(target, SESSION_KEYS.token, token);
  if (refreshToken) safeSet(target, SESSION_KEYS.refreshToken, refreshToken);
  else safeRemove(target, SESSION_KEYS.refreshToken);
  safeSet(target, SESSION_KEYS.user, JSON.stringify(user));
  emit('saved');
}

/** Replaces the tokens after a refresh, in the storage they already live in. */
export function updateTokens({ token, refreshToken }: { token: string; refreshToken?: string | undefined }): void {
  const target = tokenStorage();
  safeSet(target, SESSION_KEYS.token, token);
  if (refreshToken) safeSet(target, SESSION_KEYS.refreshToken, refreshToken);
  emit('tokens');
}

/** Replaces the stored user (after GET /api/auth/me). */
export function updateStoredUser(user: TUser): void {
  safeSet(tokenStorage(), SESSION_KEYS.user, JSON.stringify(user));
  emit('user');
}

/** Drops an unreadable stored user (spec §4: it is discarded). */
export function discardStoredUser(): void {
  safeRemove(persistent(), SESSION_KEYS.user);
  safeRemove(perTab(), SESSION_KEYS.user);
}

/**
 * Sign-out and failed refresh: every key of the session (tokens, user, rememberMe and the Google
 * keys) leaves both storages. The interface language is not session data and stays.
 */
export function clearSession(): void {
  for (const storage of [persistent(), perTab()]) {
    for (const key of Object.values(SESSION_KEYS)) safeRemove(storage, key);
  }
  emit('cleared');
}

/* ------------------------------------------------------------------ Google */

/** Remembers why the person went to Google ('signin' from the sign-in page, 'signup' from sign-up). */
export function setGoogleAuthAction(action: TAuthAction): void {
  safeSet(perTab(), SESSION_KEYS.googleAuthAction, action);
}

/** The stored googleAuthAction as written ('signin' or 'signup' when all is well). */
export function getGoogleAuthActionRaw(): string | null {
  return safeGet(perTab(), SESSION_KEYS.googleAuthAction);
}

/** A new Google user: the provider's profile and the sign-up token, until the company step is done. */
export function startGoogleSignup(profile: TGoogleProfile, accessToken: string): void {
  const storage = perTab();
  safeSet(storage, SESSION_KEYS.googleUserData, JSON.stringify(profile));
  safeSet(storage, SESSION_KEYS.googleAccessToken, accessToken);
  safeSet(storage, SESSION_KEYS.googleSignupInProgress, 'true');
}

export function isGoogleSignupInProgress(): boolean {
  return safeGet(perTab(), SESSION_KEYS.googleSignupInProgress) === 'true';
}

/** The stored Google profile (JSON) and sign-up token as written. */
export function getGoogleSignupRaw(): { userData: string | null; accessToken: string | null } {
  const storage = perTab();
  return {
    userData: safeGet(storage, SESSION_KEYS.googleUserData),
    accessToken: safeGet(storage, SESSION_KEYS.googleAccessToken),
  };
}

/** Forgets every Google key (after the Google sign-up or sign-in is done). */
export function clearGoogleData(): void {
  for (const storage of [persistent(), perTab()]) {
    for (const key of GOOGLE_KEYS) safeRemove(storage, key);
  }
}
