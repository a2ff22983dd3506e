import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ZAuthErrorKey } from '../../../contract/errors.js';
import type { TAuthErrorKey } from '../../../contract/errors.js';
import { Alert } from '../../components/alert';
import { ButtonLink } from '../../components/button';
import { AlertIcon, ArrowLeftIcon } from '../../components/icons';
import { Spinner } from '../../components/spinner';
import { isApiError } from '../../lib/api-client';
import { GOOGLE_SIGNUP_STATE, useAuth } from '../../lib/auth-context';
import { BRAND_NAME } from '../../lib/brand';
import { paths } from '../../lib/paths';
import { getPendingInvitation } from '../../lib/pending-invitation';
import { getToken, startGoogleSignup } from '../../lib/session';
import { getGoogleAuthAction } from '../../lib/stored-session';
import { useProcessAuthCallbackMutation } from './api/process-auth-callback';
import { AuthLayout } from './components/auth-layout';

type TCallbackStart =
  | { kind: 'process'; accessToken: string }
  | { kind: 'error'; errorKey: TAuthErrorKey | null; description: string }
  | { kind: 'missing' }
  | { kind: 'signed-in' };

/** Reads `access_token` (or `error`, `error_description`) from the query or the address fragment. */
function readCallback(): TCallbackStart {
  const query = new URLSearchParams(window.location.search);
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const get = (name: string) => query.get(name) ?? hash.get(name);
  const error = get('error');
  if (error) {
    const key = ZAuthErrorKey.safeParse(error);
    return { kind: 'error', errorKey: key.success ? key.data : null, description: get('error_description') ?? '' };
  }
  const accessToken = get('access_token')?.trim();
  if (accessToken) return { kind: 'process', accessToken };
  // Spec §4: missing tokens are an error only when no session exists.
  return getToken() ? { kind: 'signed-in' } : { kind: 'missing' };
}

/**
 * The return point of Google (spec §2, §4, §8): trades the one-time code for a session (existing
 * user → /dashboard) or a profile (new user → /signup step 2, flagged as coming from Google).
 */
export function AuthCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { completeSignIn } = useAuth();
  const [start] = useState(readCallback);
  const [failure, setFailure] = useState<string | null>(null);
  const processing = useRef(false);
  const { mutate } = useProcessAuthCallbackMutation();

  useEffect(() => {
    // The code works once: never send it twice (StrictMode runs effects twice in development).
    if (start.kind !== 'process' || processing.current) return;
    processing.current = true;
    mutate(
      { accessToken: start.accessToken, authAction: getGoogleAuthAction() ?? 'signin' },
      {
        onSuccess: (result) => {
          if (!result.user || !result.token) {
            setFailure(t('authCallback.failed'));
            return;
          }
          if (result.isNewUser) {
            startGoogleSignup(result.user, result.token);
            void navigate(paths.signup, { replace: true, state: GOOGLE_SIGNUP_STATE });
            return;
          }
          completeSignIn({
            token: result.token,
            refreshToken: result.refreshToken,
            user: result.user,
            rememberMe: true,
          });
          // Signed in with Google from an invitation (issue 32): back to it, to accept.
          void navigate(getPendingInvitation() ? paths.invitation : paths.dashboard.root, { replace: true });
        },
        onError: (error) => {
          console.warn('Google sign-in could not be completed.', error);
          if (isApiError(error) && error.status !== 0) {
            setFailure(error.errorKey ? t(`auth.errors.${error.errorKey}`) : error.message || t('authCallback.failed'));
          } else {
            setFailure(t('authCallback.failed'));
          }
        },
      },
    );
  }, [start, mutate, navigate, completeSignIn, t]);

  if (start.kind === 'signed-in') return <Navigate to={paths.dashboard.root} replace />;

  let message: string | null = failure;
  if (start.kind === 'missing') message = t('authCallback.missingTokens');
  if (start.kind === 'error') {
    // A key we know, translated; never the address's error_description (anyone can write one).
    message = start.errorKey ? t(`auth.errors.${start.errorKey}`) : t('authCallback.failed');
  }

  const seo = {
    title: t('authCallback.meta.title'),
    description: t('authCallback.meta.description', { brand: BRAND_NAME }),
    robots: 'noindex' as const,
  };

  if (message !== null) {
    return (
      <AuthLayout seo={seo} icon={<AlertIcon className="size-6 text-error-700" />} title={t('authCallback.errorTitle')}>
        <div className="flex flex-col gap-6" data-testid="callback-error">
          <Alert tone="error">{message}</Alert>
          <ButtonLink
            to={paths.signin}
            replace
            size="lg"
            fullWidth
            className="text-sm"
            leadingIcon={<ArrowLeftIcon className="size-4" />}
            data-testid="callback-back"
          >
            {t('authCallback.backToSignin')}
          </ButtonLink>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout seo={seo} icon={<Spinner className="size-6 text-brand-700" />} title={t('authCallback.processing')}>
      <p
        className="text-center text-sm text-gray-600"
        role="status"
        aria-live="polite"
        data-testid="callback-processing"
      >
        {t('authCallback.wait')}
      </p>
    </AuthLayout>
  );
}
