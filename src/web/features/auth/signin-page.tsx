import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { ZConfirmEmailOutcome } from '../../../contract/api/auth.schema.js';
import type { TConfirmEmailOutcome } from '../../../contract/api/auth.schema.js';
import { TIMINGS } from '../../../contract/constants.js';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Checkbox } from '../../components/checkbox';
import { TextField } from '../../components/text-field';
import { isApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/api-error-message';
import { useAuth } from '../../lib/auth-context';
import { BRAND_NAME } from '../../lib/brand';
import { paths } from '../../lib/paths';
import { getPendingInvitation } from '../../lib/pending-invitation';
import { useSigninMutation } from './api/signin';
import { AuthFooterLink, AuthLayout, OrDivider } from './components/auth-layout';
import { GoogleButton } from './components/google-button';
import { ResendConfirmation } from './components/resend-confirmation';
import { isEmail, isFilled, messageKey } from './form-messages';

/** What other pages may hand the sign-in page through navigation state. */
export interface TSigninLocationState {
  /**
   * 'signedUp': the account was just created. The page welcomes the new user and says where the
   * confirmation link went, until the person closes the notice (decision 160: not the spec's 3 s).
   */
  notice?: 'signedUp';
  /** The notice was closed; the welcome stays. */
  noticeClosed?: boolean;
  /** Prefills the e-mail field (and names the address in the sign-up notice). */
  email?: string;
  /** Where the route guard came from. */
  from?: string;
}

/**
 * The notices a link may ask for with `/signin?message=<key>`: a key, translated here, never text to
 * show (anyone can send a link to the sign-in page with any words in it). Unknown keys show nothing.
 */
export const SIGNIN_MESSAGE_KEYS = ['sessionExpired', 'passwordChanged'] as const;
export type TSigninMessageKey = (typeof SIGNIN_MESSAGE_KEYS)[number];

export function signinMessageKey(value: string | null): TSigninMessageKey | null {
  return (SIGNIN_MESSAGE_KEYS as readonly string[]).includes(value ?? '') ? (value as TSigninMessageKey) : null;
}

const ZSigninForm = z.object({
  email: z
    .string()
    .refine(isFilled, 'signin.requiredEmail')
    .refine((v) => !isFilled(v) || isEmail(v), 'auth.errors.invalidEmail'),
  password: z.string().refine(isFilled, 'signin.requiredPassword'),
  rememberMe: z.boolean(),
});
type TSigninForm = z.infer<typeof ZSigninForm>;

function readState(state: unknown): TSigninLocationState {
  return state && typeof state === 'object' ? (state as TSigninLocationState) : {};
}

/** After sign-in: back where the guard found the person, if that was the dashboard, or to the invitation. */
function targetAfterSignin(from: string | undefined): string {
  if (from === paths.invitation) return from;
  return from && from.startsWith(paths.dashboard.root) ? from : paths.dashboard.root;
}

export function SigninPage() {
  const { t } = useTranslation();
  const { status, completeSignIn } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const navState = readState(location.state);
  const queryMessage = searchParams.get('message');
  const queryMessageKey = signinMessageKey(queryMessage);
  const signedUp = navState.notice === 'signedUp' && Boolean(navState.email);
  const showSignedUp = signedUp && !navState.noticeClosed;
  const confirmParsed = ZConfirmEmailOutcome.safeParse(searchParams.get('confirm'));
  const confirm: TConfirmEmailOutcome | null = confirmParsed.success ? confirmParsed.data : null;
  // The confirmation link's redirect names the address it confirmed (or failed to): the form starts with it.
  const confirmEmail = searchParams.get('email') ?? '';

  const signin = useSigninMutation();
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    formState: { errors },
    clearErrors,
    setError,
    setFocus,
    getValues,
  } = useForm<TSigninForm>({
    resolver: zodResolver(ZSigninForm),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: {
      email: navState.email ?? confirmEmail,
      password: '',
      rememberMe: false,
    },
  });

  // The query message goes after 5 s, the state message after 3 s (spec §2, §9): they leave the address.
  useEffect(() => {
    if (!queryMessage) return;
    const timer = setTimeout(() => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('message');
          return next;
        },
        { replace: true, state: location.state },
      );
    }, TIMINGS.signinQueryMessageMs);
    return () => clearTimeout(timer);
  }, [queryMessage, setSearchParams, location.state]);

  // Just confirmed, with the address filled in: the password is all that is left to type.
  const prefilledAfterConfirm = confirm === 'confirmed' && Boolean(confirmEmail) && !navState.email;
  useEffect(() => {
    if (prefilledAfterConfirm) setFocus('password');
  }, [prefilledAfterConfirm, setFocus]);

  /** Closes the sign-up notice, in the history entry too, so that a reload does not bring it back. */
  const dismissSignedUp = () => {
    const state: TSigninLocationState = { ...readState(location.state), noticeClosed: true };
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state });
  };

  if (status === 'authenticated') return <Navigate to={targetAfterSignin(navState.from)} replace />;

  const onSubmit = handleSubmit((values) => {
    setUnconfirmedEmail(null);
    const email = values.email.trim();
    signin.mutate(
      { email, password: values.password, rememberMe: values.rememberMe },
      {
        onSuccess: (session) => completeSignIn({ ...session, rememberMe: values.rememberMe }),
        onError: (error) => {
          if (isApiError(error) && error.errorKey === 'emailUnconfirmed') setUnconfirmedEmail(email);
        },
      },
    );
  });

  const fieldError = (message: string | undefined) => {
    const key = messageKey(message);
    return key ? t(key) : undefined;
  };
  const askForEmail = () => {
    setError('email', { message: 'signin.requiredEmail' });
    setFocus('email');
  };
  const onEdit = (name: keyof TSigninForm) => () => clearErrors(name);

  const confirmTone = confirm === 'confirmed' ? 'success' : confirm === 'used' ? 'info' : 'warning';
  const signinError = signin.isError && !(isApiError(signin.error) && signin.error.errorKey === 'emailUnconfirmed');
  // Coming from an invitation (issue 32): say which address accepts it; the page goes back there after.
  const invitation = navState.from === paths.invitation ? getPendingInvitation() : null;
  const hasAlerts = Boolean(queryMessageKey || showSignedUp || confirm || unconfirmedEmail || signinError || invitation);
  // A person who has just created an account, or just confirmed it, is welcomed, not welcomed back.
  const newUser = signedUp || confirm === 'confirmed';
  const subtitle = signedUp
    ? t('signin.welcome.afterSignup')
    : confirm === 'confirmed'
      ? t('signin.welcome.afterConfirm')
      : t('signin.subtitle');

  return (
    <AuthLayout
      seo={{
        title: t('signin.meta.title'),
        description: t('signin.meta.description', { brand: BRAND_NAME }),
        // A dashboard address that sent an anonymous visitor here is not a page to index.
        robots: navState.from ? 'noindex' : 'index',
      }}
      title={newUser ? t('signin.welcome.title', { brand: BRAND_NAME }) : t('signin.title')}
      subtitle={subtitle}
      footer={
        <AuthFooterLink
          text={t('signin.noAccount', { brand: BRAND_NAME })}
          to={paths.signup}
          label={t('signin.createAccount')}
          testId="signup-link"
        />
      }
    >
      {hasAlerts && (
        <div className="mb-6 flex flex-col gap-4">
          {queryMessageKey && (
            <Alert tone="info" data-testid="signin-message">
              {t(`signin.notices.${queryMessageKey}`)}
            </Alert>
          )}
          {invitation && (
            <Alert tone="info" data-testid="signin-invitation">
              {t('signin.invitation.notice', { email: invitation.email, company: invitation.companyName })}
            </Alert>
          )}
          {showSignedUp && (
            <Alert
              tone="success"
              data-testid="signup-notice"
              title={t('signin.signedUp.title')}
              onDismiss={dismissSignedUp}
              dismissLabel={t('signin.dismiss')}
            >
              {t('signin.signedUp.text', { email: navState.email })}
            </Alert>
          )}
          {confirm && (
            <Alert
              tone={confirmTone}
              data-testid="confirm-message"
              title={t(`signin.confirm.${confirm}.title`)}
              action={
                confirm === 'confirmed' ? undefined : (
                  <ResendConfirmation
                    getEmail={() => confirmEmail || getValues('email')}
                    onMissingEmail={askForEmail}
                  />
                )
              }
            >
              {t(`signin.confirm.${confirm}.text`)}
            </Alert>
          )}
          {unconfirmedEmail && (
            <Alert
              tone="warning"
              data-testid="auth-error"
              title={t('auth.errors.emailUnconfirmed')}
              action={<ResendConfirmation getEmail={() => unconfirmedEmail} onMissingEmail={askForEmail} />}
            >
              {t('signin.unconfirmedHint', { email: unconfirmedEmail })}
            </Alert>
          )}
          {signinError && (
            <Alert tone="error" data-testid="auth-error">
              {apiErrorMessage(signin.error, t)}
            </Alert>
          )}
        </div>
      )}

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label={t('signin.title')}>
        <TextField
          label={t('signin.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={fieldError(errors.email?.message)}
          {...register('email', { onChange: onEdit('email') })}
        />
        <TextField
          label={t('signin.password')}
          type="password"
          autoComplete="current-password"
          error={fieldError(errors.password?.message)}
          labelAside={
            <Link
              to={paths.forgotPassword}
              className="rounded-control text-sm font-medium text-brand-700 hover:text-brand-800"
              data-testid="forgot-password-link"
            >
              {t('signin.forgotPassword')}
            </Link>
          }
          {...register('password', { onChange: onEdit('password') })}
        />
        <Checkbox label={t('signin.rememberMe')} data-testid="remember-me" {...register('rememberMe')} />
        <Button
          type="submit"
          size="lg"
          fullWidth
          loading={signin.isPending}
          data-testid="signin-submit"
          className="text-sm"
        >
          {signin.isPending ? t('signin.submitting') : t('signin.submit')}
        </Button>
      </form>

      <GoogleButton action="signin" before={<OrDivider />} />
    </AuthLayout>
  );
}
