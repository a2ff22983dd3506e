import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAuthAction } from '../../../../contract/api/auth.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { GoogleIcon } from '../../../components/icons';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useGoogleEnabled } from '../../../lib/api/get-app-config';
import { useGoogleSigninMutation } from '../api/signin-google';

/**
 * 'Continue with Google': stores googleAuthAction and leaves for Google. Renders nothing unless the
 * server says Google sign-in is configured.
 */
export interface GoogleButtonProps {
  action: TAuthAction;
  /** Shown above and below the button, only when the button shows (an 'or' divider, for instance). */
  before?: ReactNode;
  after?: ReactNode;
}

export function GoogleButton({ action, before, after }: GoogleButtonProps) {
  const { t } = useTranslation();
  const enabled = useGoogleEnabled();
  const mutation = useGoogleSigninMutation();
  const { reset } = mutation;

  // Coming back with the browser's Back button restores this page from memory: un-busy the button.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  if (!enabled) return null;
  return (
    <>
      {before}
      <Button
        variant="secondary"
        size="lg"
        fullWidth
        data-testid="google-button"
        leadingIcon={<GoogleIcon className="size-5" />}
        loading={mutation.isPending}
        onClick={() => mutation.mutate(action)}
        className="text-sm"
      >
        {mutation.isPending
          ? t('auth.google.redirecting')
          : t(action === 'signup' ? 'auth.google.signup' : 'auth.google.signin')}
      </Button>
      {mutation.isError && (
        <Alert tone="error" className="mt-3" data-testid="google-error">
          {apiErrorMessage(mutation.error, t)}
        </Alert>
      )}
      {after}
    </>
  );
}
