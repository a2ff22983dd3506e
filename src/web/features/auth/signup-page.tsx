import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '../../../contract/constants.js';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ArrowLeftIcon, ArrowRightIcon, GoogleIcon } from '../../components/icons';
import { ProgressBar } from '../../components/progress-bar';
import { TextField } from '../../components/text-field';
import { BRAND_NAME } from '../../lib/brand';
import { cn } from '../../lib/cn';
import { paths } from '../../lib/paths';
import { AuthFooterLink, AuthLayout, OrDivider } from './components/auth-layout';
import { GoogleButton } from './components/google-button';
import { useSignup } from './use-signup';

/**
 * Sign-up in three steps (spec §2, §4, §5): about you, company, account security. A person coming
 * back from Google starts at step 2 with their names and e-mail filled in and locked, and finishes
 * with Complete instead of a password. The steps' machine and the call live in `useSignup`.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const {
    step,
    exiting,
    fadingIn,
    serverError,
    fromGoogle,
    profile,
    stepKey,
    busy,
    stepRef,
    field,
    fieldError,
    locked,
    emailLocked,
    invitation,
    dropInvitation,
    totalSteps,
    shownStep,
    progress,
    back,
    onFormSubmit,
  } = useSignup();

  return (
    <AuthLayout
      seo={{
        title: t('signup.meta.title'),
        description: t('signup.meta.description', { brand: BRAND_NAME }),
        robots: 'index',
      }}
      title={invitation ? t('signup.invitation.title') : fromGoogle ? t('signup.googleTitle') : t('signup.title')}
      subtitle={
        invitation
          ? t('signup.invitation.subtitle', { company: invitation.companyName, brand: BRAND_NAME })
          : fromGoogle
            ? t('signup.googleSubtitle')
            : t('signup.subtitle')
      }
      footer={
        <AuthFooterLink
          text={t('signup.haveAccount')}
          to={paths.signin}
          label={t('signup.signIn')}
          testId="signin-link"
          // Signing up by an invitation: an existing account signs in and comes back to accept it.
          state={invitation ? { from: paths.invitation } : undefined}
        />
      }
    >
      <div className="mb-6">
        <div className="mb-2 flex items-baseline justify-between gap-3 text-sm">
          <span className="font-medium text-gray-900">{t(`signup.steps.${stepKey}.title`)}</span>
          <span className="text-gray-500 tabular-nums">{t('signup.stepOf', { step: shownStep, total: totalSteps })}</span>
        </div>
        <ProgressBar
          value={progress}
          label={t('signup.progressLabel')}
          valueText={t('signup.stepOf', { step: shownStep, total: totalSteps })}
        />
      </div>

      {invitation && (
        <Alert
          tone="info"
          className="mb-6"
          data-testid="signup-invitation"
          action={
            step === 1 && !fromGoogle ? (
              <button
                type="button"
                onClick={dropInvitation}
                className="rounded-sm text-sm font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                data-testid="signup-invitation-drop"
              >
                {t('signup.invitation.ownCompany')}
              </button>
            ) : undefined
          }
        >
          {t('signup.invitation.banner', { company: invitation.companyName, asRole: t(`team.asRole.${invitation.role}`) })}
        </Alert>
      )}

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
                disabled={emailLocked}
                error={fieldError('email')}
                hint={invitation ? t('signup.invitation.emailHint') : fromGoogle ? t('signup.prefilledFromGoogle') : undefined}
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
