import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import { ConfirmDialog } from '../../../components/dialog';
import { isApiError } from '../../../lib/api-client';
import { errorReasonText } from '../../../lib/error-reason-text';
import { useRemindRequestMutation } from '../api/remind-request';

export interface ReminderDialogProps {
  /** The request to remind; null closes the dialog. */
  request: TTestimonialRequestSafe | null;
  companyId: string;
  onClose: () => void;
}

/**
 * Confirms, then sends a reminder (spec §4). On success last_reminder_sent becomes now and a success
 * message shows; on failure the server's message (completed, expired, or already reminded in the
 * last 24 h) or a generic one.
 */
export function ReminderDialog({ request, companyId, onClose }: ReminderDialogProps) {
  const { t } = useTranslation();
  const remind = useRemindRequestMutation();

  const onConfirm = () => {
    if (!request || remind.isPending) return;
    remind.mutate(
      { id: request.id, companyId },
      {
        onSuccess: () => {
          toast.success(t('requests.reminder.success', { name: request.customer_name }));
        },
        onError: (error) => {
          console.warn('Sending the reminder failed.', error);
          const serverText =
            isApiError(error) && error.status >= 400 && error.status < 500 ? (errorReasonText(error.reason, error.params, t) ?? error.message) : '';
          toast.error(serverText || t('requests.reminder.error'));
        },
        onSettled: onClose,
      },
    );
  };

  return (
    <ConfirmDialog
      open={request !== null}
      onOpenChange={(open) => {
        if (!open && !remind.isPending) onClose();
      }}
      title={t('requests.reminder.title')}
      description={
        request ? t('requests.reminder.description', { name: request.customer_name, email: request.customer_email }) : undefined
      }
      confirmLabel={t('requests.reminder.confirm')}
      pending={remind.isPending}
      onConfirm={onConfirm}
      data-testid="reminder-dialog"
    />
  );
}
