import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { LockIcon } from '../../components/icons';
import { TextField } from '../../components/text-field';
import { useLanguage } from '../../i18n/use-language';
import { isApiError } from '../../lib/api-client';
import { BRAND_NAME } from '../../lib/brand';
import { paths } from '../../lib/paths';
import { useForgotPasswordMutation } from './api/forgot-password';
import { AuthFooterLink, AuthLayout } from './components/auth-layout';
import { isEmail, isFilled, messageKey } from './form-messages';

const ZForgotForm = z.object({
  email: z
    .string()
    .refine(isFilled, 'forgotPassword.required')
    .refine((v) => !isFilled(v) || isEmail(v), 'auth.errors.invalidEmail'),
});
type TForgotForm = z.infer<typeof ZForgotForm>;

/** Request a reset link (spec §2, §5, §8). The answer is the same whether the account exists or not. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const mutation = useForgotPasswordMutation();
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = useForm<TForgotForm>({
    resolver: zodResolver(ZForgotForm),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(({ email }) => mutation.mutate({ email: email.trim(), lang: language }));

  /** Spec §8: the server's message, else 'Failed to send reset link. Please try again.' */
  const failure = (): string => {
    const error = mutation.error;
    if (isApiError(error) && error.status !== 0) {
      if (error.errorKey) return t(`auth.errors.${error.errorKey}`);
      if (error.message) return error.message;
    }
    return t('forgotPassword.failed');
  };
  const emailError = messageKey(errors.email?.message);

  return (
    <AuthLayout
      seo={{
        title: t('forgotPassword.meta.title'),
        description: t('forgotPassword.meta.description', { brand: BRAND_NAME }),
        robots: 'index',
      }}
      icon={<LockIcon className="size-6" />}
      title={t('forgotPassword.title')}
      subtitle={mutation.isSuccess ? undefined : t('forgotPassword.subtitle')}
      footer={
        <AuthFooterLink
          text={t('forgotPassword.remembered')}
          to={paths.signin}
          label={t('forgotPassword.backToSignin')}
          testId="signin-link"
        />
      }
    >
      {mutation.isSuccess ? (
        <Alert tone="success" data-testid="forgot-success" title={t('forgotPassword.successTitle')}>
          {t('forgotPassword.success', { email: mutation.variables.email })}
        </Alert>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label={t('forgotPassword.title')}>
          {mutation.isError && (
            <Alert tone="error" data-testid="auth-error">
              {failure()}
            </Alert>
          )}
          <TextField
            label={t('forgotPassword.email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            error={emailError ? t(emailError) : undefined}
            {...register('email', { onChange: () => clearErrors('email') })}
          />
          <Button
            type="submit"
            size="lg"
            fullWidth
            className="text-sm"
            loading={mutation.isPending}
            data-testid="forgot-submit"
          >
            {mutation.isPending ? t('forgotPassword.sending') : t('forgotPassword.submit')}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
