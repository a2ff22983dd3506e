import { Navigate, Outlet, useLocation } from 'react-router';
import { GOOGLE_SIGNUP_STATE, useAuth } from '../lib/auth-context';
import { paths } from '../lib/paths';
import { isGoogleSignupInProgress } from '../lib/session';

/** Where the guard came from, so sign-in can bring the person back. */
export interface TSigninRedirectState {
  from: string;
}

/**
 * The route guard of /dashboard/* (spec §2): nothing while the session is being restored (or while
 * leaving the page a sign-out happened on); during a
 * Google sign-up, exactly /dashboard goes to /signup at step 2 flagged as coming from Google;
 * anonymous visitors go to /signin.
 */
export function RequireAuth() {
  const { status, signedOutFrom } = useAuth();
  const location = useLocation();

  if (status === 'restoring') return null;
  // Signed out here a moment ago: the router is on its way to the home page.
  if (status !== 'authenticated' && signedOutFrom === location.key) return null;
  if (location.pathname.replace(/\/+$/, '') === paths.dashboard.root && isGoogleSignupInProgress()) {
    return <Navigate to={paths.signup} replace state={GOOGLE_SIGNUP_STATE} />;
  }
  if (status !== 'authenticated') {
    const state: TSigninRedirectState = { from: location.pathname + location.search + location.hash };
    return <Navigate to={paths.signin} replace state={state} />;
  }
  return <Outlet />;
}
