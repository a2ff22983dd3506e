import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, TIMINGS } from '../../../contract/constants.js';
import { Alert } from '../../components/alert';
import { Button, ButtonLink } from '../../components/button';
import { LockIcon } from '../../components/icons';
import { TextField } from '../../components/text-field';
import { isApiError } from '../../lib/api-client';
import { BRAND_NAME } from '../../lib/brand';
import { paths } from '../../lib/paths';
import { useResetPasswordMutation } from './api/reset-password';
import { AuthFooterLink, AuthLayout } from './components/auth-layout';
import { isFilled, messageKey } from './form-messages';

const ZResetForm = z.object({ password: z.string(), confirmPassword: z.string() }).superRefine((v, ctx) => {
  if (!isFilled(v.password)) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'resetPassword.required' });
  } else if (v.password.length < PASSWORD_MIN_LENGTH) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'resetPassword.tooShort' });
  }
  if (v.confirmPassword !== v.password) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'resetPassword.mismatch' });
  }
});
type TResetForm = z.infer<typeof ZResetForm>;

/** The token of the e-mailed link: `#access_token=…` (the query is accepted too). */
function readResetToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('access_token');
  const fromQuery = new URLSearchParams(window.location.search).get('access_token');
  const token = (fromHash ?? fromQuery ?? '').trim();
  return token || null;
}

/** Set a new password from the e-mailed link, then go to /signin after 3 s (spec §2, §4, §5, §8). */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [token] = useState(readResetToken);
  const mutation = useResetPasswordMutation();
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = useForm<TResetForm>({
    resolver: zodResolver(ZResetForm),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { password: '', confirmPassword: '' },
  });

  useEffect(() => {
    if (!mutation.isSuccess) return;
    const timer = setTimeout(() => void navigate(paths.signin, { replace: true }), TIMINGS.resetRedirectMs);
    return () => clearTimeout(timer);
  }, [mutation.isSuccess, navigate]);

  const onSubmit = handleSubmit(({ password }) => {
    if (token) mutation.mutate({ access_token: token, new_password: password });
  });
  const linkExpired = isApiError(mutation.error) && mutation.error.errorKey === 'tokenExpired';
  const fieldError = (message: string | undefined) => {
    const key = messageKey(message);
    return key ? t(key) : undefined;
  };
  const requestNewLink = (
    <ButtonLink to={paths.forgotPassword} variant="secondary" size="sm" data-testid="request-new-link">
      {t('resetPassword.requestNew')}
    </ButtonLink>
  );

  let content;
  if (!token || linkExpired) {
    content = (
      <Alert tone="error" data-testid="reset-invalid" action={requestNewLink}>
        {t('resetPassword.invalidLink')}
      </Alert>
    );
  } else if (mutation.isSuccess) {
    content = (
      <Alert
        tone="success"
        data-testid="reset-success"
        title={t('resetPassword.success')}
        action={
          <ButtonLink to={paths.signin} replace variant="secondary" size="sm">
            {t('resetPassword.signinNow')}
          </ButtonLink>
        }
      >
        {t('resetPassword.redirecting')}
      </Alert>
    );
  } else {
    content = (
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label={t('resetPassword.title')}>
        {mutation.isError && (
          <Alert tone="error" data-testid="auth-error">
            {t('resetPassword.failed')}
          </Alert>
        )}
        <TextField
          label={t('resetPassword.password')}
          type="password"
          autoComplete="new-password"
          error={fieldError(errors.password?.message)}
          hint={t('resetPassword.hint', { min: PASSWORD_MIN_LENGTH })}
          {...register('password', { onChange: () => clearErrors('password') })}
        />
        <TextField
          label={t('resetPassword.confirmPassword')}
          type="password"
          autoComplete="new-password"
          error={fieldError(errors.confirmPassword?.message)}
          {...register('confirmPassword', { onChange: () => clearErrors('confirmPassword') })}
        />
        <Button
          type="submit"
          size="lg"
          fullWidth
          className="text-sm"
          loading={mutation.isPending}
          data-testid="reset-submit"
        >
          {mutation.isPending ? t('resetPassword.submitting') : t('resetPassword.submit')}
        </Button>
      </form>
    );
  }

  return (
    <AuthLayout
      seo={{
        title: t('resetPassword.meta.title'),
        description: t('resetPassword.meta.description', { brand: BRAND_NAME }),
        robots: 'noindex',
      }}
      icon={<LockIcon className="size-6" />}
      title={t('resetPassword.title')}
      subtitle={token && !linkExpired && !mutation.isSuccess ? t('resetPassword.subtitle') : undefined}
      footer={
        <AuthFooterLink
          text={t('resetPassword.remembered')}
          to={paths.signin}
          label={t('resetPassword.backToSignin')}
          testId="signin-link"
        />
      }
    >
      {content}
    </AuthLayout>
  );
}
