/**
 * Authentication state of the web app (spec: public pages §4, 'Authentication').
 *
 * anonymous → authenticated after sign-in, the Google callback or the Google sign-up; back to
 * anonymous on sign-out (every session key cleared) or when a token refresh fails (the API client
 * clears the session; this provider follows the session store).
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { TUser } from '../../contract/api/auth.schema.js';
import { apiClient } from './api-client';
import { paths } from './paths';
import {
  clearGoogleData,
  clearSession,
  getToken,
  isGoogleSignupInProgress,
  saveSession,
  subscribeSession,
  updateStoredUser,
} from './session';
import type { TSessionInput } from './session';

export type TAuthStatus = 'restoring' | 'authenticated' | 'anonymous';

interface AuthState {
  status: TAuthStatus;
  /** The stored user; null when anonymous, or when only a token was stored. */
  user: TUser | null;
  /**
   * The history entry (location key) the person signed out from. Until the router has left it, the
   * route guard shows nothing there instead of sending the now anonymous person to /signin. Sign-out
   * replaces that entry, so no later visit can carry the same key.
   */
  signedOutFrom?: string | undefined;
}

export interface AuthContextValue extends AuthState {
  /** Stores a new session (tokens where rememberMe says) and marks the person signed in. */
  completeSignIn: (session: TSessionInput) => void;
  /** POST signout (failures ignored), clear every session key, go to the home page. */
  signOut: () => Promise<void>;
  /**
   * Changes the signed-in user in state and in storage (e.g. onboarding_completed after the tour), so
   * the change survives a reload. Does nothing while no user is known.
   */
  updateUser: (update: (user: TUser) => TUser) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Where the start-up redirect of an unfinished Google sign-up goes (spec §4). */
export const GOOGLE_SIGNUP_STATE = { step: 2, fromGoogle: true } as const;

/** Pages the start-up Google redirect leaves alone: the sign-up itself and the callback that starts it. */
const GOOGLE_REDIRECT_EXEMPT = [paths.signup, paths.authCallback] as const;

/** The schema-dependent part (stored user check, GET /me, sign-out call), in its own chunk. */
const loadRestore = () => import('./auth-restore');

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname, key: locationKey } = useLocation();
  const queryClient = useQueryClient();
  // Nothing to restore without a token (most visitors of the landing page): anonymous at once.
  const [state, setState] = useState<AuthState>(() => ({ status: getToken() ? 'restoring' : 'anonymous', user: null }));
  const started = useRef(false);

  // The API client navigates through the router (a failed refresh goes to /signin without a reload).
  useEffect(() => {
    apiClient.configure({ navigate: (path) => void navigate(path) });
  }, [navigate]);

  // Follow the session store: a failed refresh anywhere clears it, and this state follows.
  useEffect(
    () =>
      subscribeSession((event) => {
        if (event === 'cleared') setState((current) => ({ ...current, status: 'anonymous', user: null }));
      }),
    [],
  );

  // Start-up: once per page load (StrictMode runs effects twice in development).
  useEffect(() => {
    if (started.current) return;
    started.current = true;

    if (isGoogleSignupInProgress() && !GOOGLE_REDIRECT_EXEMPT.some((path) => pathname === path)) {
      void navigate(paths.signup, { replace: true, state: GOOGLE_SIGNUP_STATE });
    }

    // No token stored: anonymous from the first render (the state's initial value), without
    // fetching the schema chunk: restoreFromStorage would say the same.
    if (!getToken()) return;

    // Restoring ends once the stored session has been read and checked against the contract.
    void loadRestore()
      .then(({ restoreFromStorage, meQueryOptions }) => {
        const restored = restoreFromStorage();
        setState({ status: restored.status, user: restored.user });
        if (!restored.check) return;
        return queryClient.fetchQuery(meQueryOptions()).then(({ user }) => {
          // Still the same session (no sign-out or failed refresh meanwhile)?
          if (!getToken()) return;
          updateStoredUser(user);
          setState((current) => (current.status === 'authenticated' ? { ...current, user } : current));
        });
      })
      .catch((error: unknown) => {
        // Spec §4: a failed check is only logged; the stored data is kept (a failed refresh, by
        // contrast, has already cleared the session through the API client).
        console.warn('The session check (GET /api/auth/me) failed; keeping the stored session.', error);
        setState((current) => (current.status === 'restoring' ? { status: 'anonymous', user: null } : current));
      });
  }, [navigate, pathname, queryClient]);

  const completeSignIn = useCallback((session: TSessionInput) => {
    saveSession(session);
    clearGoogleData();
    setState({ status: 'authenticated', user: session.user });
  }, []);

  const signOut = useCallback(async () => {
    try {
      const { signout } = await loadRestore();
      await signout();
    } catch (error) {
      // Spec §7: failures of the sign-out call are ignored; the local session ends anyway.
      console.warn('POST /api/auth/signout failed; signing out locally.', error);
    }
    setState({ status: 'anonymous', user: null, signedOutFrom: locationKey });
    clearSession();
    queryClient.clear();
    await navigate(paths.home, { replace: true });
  }, [navigate, queryClient, locationKey]);

  const updateUser = useCallback(
    (update: (user: TUser) => TUser) => {
      if (state.status !== 'authenticated' || !state.user || !getToken()) return;
      const user = update(state.user);
      updateStoredUser(user);
      setState((current) => (current.status === 'authenticated' ? { ...current, user } : current));
    },
    [state.status, state.user],
  );

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, completeSignIn, signOut, updateUser }),
    [state, completeSignIn, signOut, updateUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>.');
  return value;
}
