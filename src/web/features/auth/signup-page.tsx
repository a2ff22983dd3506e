import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import type { TGoogleProfile } from '../../../contract/api/auth.schema.js';
import { PASSWORD_MIN_LENGTH, TIMINGS } from '../../../contract/constants.js';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ArrowLeftIcon, ArrowRightIcon, GoogleIcon } from '../../components/icons';
import { ProgressBar } from '../../components/progress-bar';
import { TextField } from '../../components/text-field';
import { useLanguage } from '../../i18n/use-language';
import { isApiError } from '../../lib/api-client';
import { apiErrorMessage } from '../../lib/api-error-message';
import { useAuth } from '../../lib/auth-context';
import { BRAND_NAME } from '../../lib/brand';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { isGoogleSignupInProgress } from '../../lib/session';
import { getGoogleSignup } from '../../lib/stored-session';
import { useSignupMutation } from './api/signup';
import { AuthFooterLink, AuthLayout, OrDivider } from './components/auth-layout';
import { GoogleButton } from './components/google-button';
import { isEmail, isFilled, messageKey } from './form-messages';
import type { TSigninLocationState } from './signin-page';

type TStep = 1 | 2 | 3;
const TOTAL_STEPS = 3;
/** Spec §2: step 1 fills 0 %, step 2 50 %, step 3 100 %. */
const PROGRESS: Record<TStep, number> = { 1: 0, 2: 50, 3: 100 };

interface TSignupForm {
  firstname: string;
  lastname: string;
  email: string;
  companyName: string;
  password: string;
  confirmPassword: string;
}
type TField = keyof TSignupForm;

const STEP_FIELDS: Record<TStep, TField[]> = {
  1: ['firstname', 'lastname', 'email'],
  2: ['companyName'],
  3: ['password', 'confirmPassword'],
};

/** The spec's §5 rules; the messages are the spec's translation keys. Step 3 is skipped for Google. */
function signupSchema(fromGoogle: boolean) {
  return z
    .object({
      firstname: z.string(),
      lastname: z.string(),
      email: z.string(),
      companyName: z.string(),
      password: z.string(),
      confirmPassword: z.string(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: TField, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!isFilled(v.firstname)) issue('firstname', 'signup.errors.firstname');
      if (!isFilled(v.lastname)) issue('lastname', 'signup.errors.lastname');
      if (!isFilled(v.email)) issue('email', 'signup.errors.email');
      else if (!isEmail(v.email)) issue('email', 'signup.errors.emailInvalid');
      if (!isFilled(v.companyName)) issue('companyName', 'signup.errors.company');
      if (fromGoogle) return;
      if (!isFilled(v.password)) issue('password', 'signup.errors.password');
      else if (v.password.length < PASSWORD_MIN_LENGTH) issue('password', 'signup.errors.passwordShort');
      if (v.confirmPassword !== v.password) issue('confirmPassword', 'signup.errors.confirmPassword');
    });
}

interface TSignupLocationState {
  step?: number;
  fromGoogle?: boolean;
}

function readState(state: unknown): TSignupLocationState {
  return state && typeof state === 'object' ? (state as TSignupLocationState) : {};
}

const toStep = (value: number | undefined, fallback: TStep): TStep =>
  value === 1 || value === 2 || value === 3 ? value : fallback;

/** The step holding a field the server refused. */
function stepOfField(field: string | undefined): TStep | null {
  for (const step of [1, 2, 3] as const) if (STEP_FIELDS[step].includes(field as TField)) return step;
  return null;
}

/**
 * Sign-up in three steps (spec §2, §4, §5): about you, company, account security. A person coming
 * back from Google starts at step 2 with their names and e-mail filled in and locked, and finishes
 * with Complete instead of a password.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const location = useLocation();
  const navigate = useNavigate();
  const { completeSignIn } = useAuth();
  const navState = readState(location.state);

  // The Google variant: flagged by the navigation state or the stored sign-up in progress.
  const [google] = useState(() =>
    navState.fromGoogle === true || isGoogleSignupInProgress() ? getGoogleSignup() : null,
  );
  const fromGoogle = google !== null;
  const profile: TGoogleProfile | undefined = google?.profile;

  const [step, setStep] = useState<TStep>(() => (fromGoogle ? toStep(navState.step, 2) : 1));
  const [exiting, setExiting] = useState(false);
  const [fadingIn, setFadingIn] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const stepRef = useRef<HTMLDivElement>(null);
  const focusOnStepChange = useRef(false);

  const schema = useMemo(() => signupSchema(fromGoogle), [fromGoogle]);
  const {
    register,
    handleSubmit,
    trigger,
    clearErrors,
    formState: { errors },
  } = useForm<TSignupForm>({
    resolver: zodResolver(schema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: {
      firstname: profile?.firstname ?? '',
      lastname: profile?.lastname ?? '',
      email: profile?.email ?? '',
      companyName: '',
      password: '',
      confirmPassword: '',
    },
  });
  const signup = useSignupMutation();

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  // After a step change, put the keyboard on the new step's first field.
  useEffect(() => {
    if (!focusOnStepChange.current) return;
    focusOnStepChange.current = false;
    stepRef.current?.querySelector<HTMLElement>('input:not([disabled]), button[type="submit"]')?.focus();
  }, [step]);

  const later = (ms: number, run: () => void) => {
    timers.current.push(setTimeout(run, ms));
  };

  /** Spec §4: the step changes after a 300 ms exit animation; the fade-in flag then lasts 500 ms. */
  const goTo = (next: TStep) => {
    if (exiting || next === step) return;
    setExiting(true);
    later(TIMINGS.signupStepExitMs, () => {
      focusOnStepChange.current = true;
      setStep(next);
      setExiting(false);
      setFadingIn(true);
      later(TIMINGS.signupFadeInMs, () => setFadingIn(false));
    });
  };

  const next = async () => {
    if (step === 3) return;
    const valid = await trigger(STEP_FIELDS[step]);
    if (valid) goTo((step + 1) as TStep);
  };
  const back = () => {
    if (step > 1) goTo((step - 1) as TStep);
  };

  /** A field Google filled in is shown locked; an empty one stays editable. */
  const locked = (value: string | undefined) => fromGoogle && Boolean(value?.trim());

  const onFailure = (error: unknown) => {
    console.warn('Sign-up failed.', error);
    setServerError(apiErrorMessage(error, t));
    // Send the person back to the step whose field the server refused (company name taken…).
    const fieldStep = isApiError(error) ? stepOfField(error.errorKey === 'emailExists' ? 'email' : error.field) : null;
    if (fieldStep && fieldStep !== step) goTo(fieldStep);
  };

  const onValid = (values: TSignupForm) => {
    setServerError(null);
    const base = {
      firstname: values.firstname.trim(),
      lastname: values.lastname.trim(),
      email: values.email.trim(),
      companyName: values.companyName.trim(),
      lang: language,
    };
    if (google) {
      signup.mutate(
        {
          ...base,
          // Locked fields carry Google's values as they are.
          firstname: locked(google.profile.firstname) ? google.profile.firstname : base.firstname,
          lastname: locked(google.profile.lastname) ? google.profile.lastname : base.lastname,
          email: google.profile.email,
          fromGoogle: true,
          googleId: google.profile.sub,
          picture: google.profile.picture,
          accessToken: google.accessToken,
        },
        {
          onSuccess: ({ user, token, refreshToken }) => {
            if (!token) {
              onFailure(new Error('The Google sign-up answered without a session.'));
              return;
            }
            // Clears the Google keys and stores the session (Google sessions last 30 days).
            completeSignIn({ token, refreshToken, user, rememberMe: true });
            later(TIMINGS.googleSignupRedirectMs, () => void navigate(paths.dashboard.root, { replace: true }));
          },
          onError: onFailure,
        },
      );
      return;
    }
    signup.mutate(
      { ...base, password: values.password },
      {
        onSuccess: ({ user }) => {
          const state: TSigninLocationState = { notice: 'signedUp', email: user.email };
          void navigate(paths.signin, { state });
        },
        onError: onFailure,
      },
    );
  };

  const onFormSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (step < 3) {
      // Enter on steps 1 and 2 means Next.
      event.preventDefault();
      void next();
      return;
    }
    void handleSubmit(onValid)(event);
  };

  const fieldError = (name: TField) => {
    const key = messageKey(errors[name]?.message);
    return key ? t(key) : undefined;
  };
  const field = (name: TField) =>
    register(name, {
      onChange: () => {
        clearErrors(name);
        setServerError(null);
      },
    });

  const stepKey = step === 1 ? 'about' : step === 2 ? 'company' : fromGoogle ? 'googleSecurity' : 'security';
  const busy = signup.isPending || signup.isSuccess;

  return (
    <AuthLayout
      seo={{
        title: t('signup.meta.title'),
        description: t('signup.meta.description', { brand: BRAND_NAME }),
        robots: 'index',
      }}
      title={fromGoogle ? t('signup.googleTitle') : t('signup.title')}
      subtitle={fromGoogle ? t('signup.googleSubtitle') : t('signup.subtitle')}
      footer={
        <AuthFooterLink
          text={t('signup.haveAccount')}
          to={paths.signin}
          label={t('signup.signIn')}
          testId="signin-link"
        />
      }
    >
      <div className="mb-6">
        <div className="mb-2 flex items-baseline justify-between gap-3 text-sm">
          <span className="font-medium text-gray-900">{t(`signup.steps.${stepKey}.title`)}</span>
          <span className="text-gray-500 tabular-nums">{t('signup.stepOf', { step, total: TOTAL_STEPS })}</span>
        </div>
        <ProgressBar
          value={PROGRESS[step]}
          label={t('signup.progressLabel')}
          valueText={t('signup.stepOf', { step, total: TOTAL_STEPS })}
        />
      </div>

      {serverError && (
        <Alert tone="error" className="mb-6" data-testid="auth-error">
          {serverError}
        </Alert>
      )}

      <form noValidate onSubmit={onFormSubmit} aria-label={t('signup.title')}>
        <div
          ref={stepRef}
          data-testid="signup-step"
          data-step={step}
          data-from-google={fromGoogle || undefined}
          data-fade-in={fadingIn || undefined}
          className={cn('flex flex-col gap-5', exiting && 'animate-fade-out', fadingIn && 'animate-fade-in')}
        >
          <p className="text-sm text-gray-600">{t(`signup.steps.${stepKey}.description`)}</p>

          {step === 1 && (
            <>
              <div className="grid gap-5 sm:grid-cols-2">
                <TextField
                  label={t('signup.fields.firstname')}
                  autoComplete="given-name"
                  disabled={locked(profile?.firstname)}
                  error={fieldError('firstname')}
                  {...field('firstname')}
                />
                <TextField
                  label={t('signup.fields.lastname')}
                  autoComplete="family-name"
                  disabled={locked(profile?.lastname)}
                  error={fieldError('lastname')}
                  {...field('lastname')}
                />
              </div>
              <TextField
                label={t('signup.fields.email')}
                type="email"
                inputMode="email"
                autoComplete="email"
                disabled={locked(profile?.email)}
                error={fieldError('email')}
                hint={fromGoogle ? t('signup.prefilledFromGoogle') : undefined}
                {...field('email')}
              />
            </>
          )}

          {step === 2 && (
            <TextField
              label={t('signup.fields.companyName')}
              autoComplete="organization"
              error={fieldError('companyName')}
              hint={t('signup.fields.companyHint')}
              {...field('companyName')}
            />
          )}

          {step === 3 && !fromGoogle && (
            <>
              <TextField
                label={t('signup.fields.password')}
                type="password"
                autoComplete="new-password"
                error={fieldError('password')}
                hint={t('signup.fields.passwordHint', { min: PASSWORD_MIN_LENGTH })}
                {...field('password')}
              />
              <TextField
                label={t('signup.fields.confirmPassword')}
                type="password"
                autoComplete="new-password"
                error={fieldError('confirmPassword')}
                {...field('confirmPassword')}
              />
            </>
          )}

          {step === 3 && fromGoogle && (
            <>
              <div className="flex flex-col gap-1.5">
                <span className="text-sm font-medium text-gray-900">{t('signup.google.emailLabel')}</span>
                <div
                  className="flex h-11 items-center gap-3 rounded-control border border-gray-200 bg-gray-50 px-3 text-sm text-gray-700 sm:h-10"
                  data-testid="google-email"
                >
                  <GoogleIcon className="size-4 shrink-0" />
                  <span className="truncate">{profile?.email}</span>
                </div>
              </div>
              <Alert tone="info">{t('signup.google.note')}</Alert>
            </>
          )}

          <div className={cn('mt-1 flex gap-3', step > 1 ? 'justify-between' : 'justify-end')}>
            {step > 1 && (
              <Button
                variant="secondary"
                size="lg"
                className="text-sm"
                onClick={back}
                disabled={busy || exiting}
                leadingIcon={<ArrowLeftIcon className="size-4" />}
                data-testid="signup-back"
              >
                {t('signup.back')}
              </Button>
            )}
            {step < 3 ? (
              <Button
                type="submit"
                size="lg"
                className={cn('text-sm', step === 1 && 'w-full')}
                disabled={exiting}
                trailingIcon={<ArrowRightIcon className="size-4" />}
                data-testid="signup-next"
              >
                {t('signup.next')}
              </Button>
            ) : (
              <Button
                type="submit"
                size="lg"
                className="flex-1 text-sm sm:flex-none"
                loading={busy}
                disabled={exiting}
                data-testid="signup-submit"
              >
                {fromGoogle
                  ? busy
                    ? t('signup.completing')
                    : t('signup.complete')
                  : busy
                    ? t('signup.submitting')
                    : t('signup.submit')}
              </Button>
            )}
          </div>
        </div>
      </form>

      {step === 1 && !fromGoogle && <GoogleButton action="signup" before={<OrDivider />} />}
    </AuthLayout>
  );
}
