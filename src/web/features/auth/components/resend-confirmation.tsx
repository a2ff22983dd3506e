import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { MailIcon } from '../../../components/icons';
import { useLanguage } from '../../../i18n/use-language';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { isEmail } from '../form-messages';
import { useResendConfirmationMutation } from '../api/resend-confirmation';

export interface ResendConfirmationProps {
  /** The address to send to, read when the button is pressed (the link's, or the one typed). */
  getEmail: () => string;
  /** Called instead of sending when there is no usable address. */
  onMissingEmail: () => void;
}

/** 'Send a new link': asks for a new confirmation e-mail, then says one is on its way. */
export function ResendConfirmation({ getEmail, onMissingEmail }: ResendConfirmationProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const mutation = useResendConfirmationMutation();

  if (mutation.isSuccess) {
    return (
      <p className="font-medium" data-testid="resend-sent" role="status">
        {t('signin.resend.sent', { email: mutation.variables.email })}
      </p>
    );
  }

  const send = () => {
    const email = getEmail().trim();
    if (!isEmail(email)) {
      onMissingEmail();
      return;
    }
    mutation.mutate({ email, lang: language });
  };

  return (
    <div className="flex flex-col gap-2">
      <div>
        <Button
          variant="secondary"
          size="sm"
          data-testid="resend-confirmation"
          leadingIcon={<MailIcon className="size-4" />}
          loading={mutation.isPending}
          onClick={send}
        >
          {mutation.isPending ? t('signin.resend.sending') : t('signin.resend.button')}
        </Button>
      </div>
      {mutation.isError && <p className="text-error-700">{apiErrorMessage(mutation.error, t)}</p>}
    </div>
  );
}
