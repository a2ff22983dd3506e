import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/dialog';
import { LockIcon, ShieldCheckIcon, TrashIcon } from '../../../components/icons';
import { useAuth } from '../../../lib/auth-context';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { formatDate } from '../../../lib/format';
import { useDeleteMediaMutation } from '../api/delete-media';
import { withdrawnAt } from './customer-control';

/**
 * The customer withdrew their consent (issue 29): said at the top of the detail with its date (the same
 * translated sentence as the server's refusals), when the videos will be deleted or that they were, and
 * "Delete the videos now", asked first. Test ids `consent-withdrawn-banner`, `media-deletion`,
 * `delete-media`, `delete-media-dialog`, `delete-media-confirm`, `delete-media-cancel`, `delete-media-error`.
 */
export function ConsentWithdrawnBanner({ testimonial }: { testimonial: TTestimonialRequest }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const companyId = user?.company_id ?? '';
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteMediaMutation();
  const at = withdrawnAt(testimonial);
  if (!at) return null;
  const control = testimonial.customer_control;
  const deletedAt = control?.media_deleted_at ?? null;
  const dueAt = control?.media_deletion_due_at ?? null;

  const onConfirm = () =>
    remove.mutate(
      { companyId, testimonialId: testimonial.id },
      {
        onSuccess: () => setConfirming(false),
        onError: (error) => console.warn('POST /api/testimonials/{id}/delete-media failed.', error),
      },
    );

  return (
    <>
      <Alert
        tone="warning"
        title={t('testimonialDetail.control.withdrawnTitle')}
        data-testid="consent-withdrawn-banner"
        className="mb-6"
        action={
          deletedAt ? undefined : (
            <Button
              size="sm"
              variant="secondary"
              leadingIcon={<TrashIcon className="size-4" />}
              aria-haspopup="dialog"
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
              data-testid="delete-media"
            >
              {t('testimonialDetail.control.deleteNow')}
            </Button>
          )
        }
      >
        <p data-testid="consent-withdrawn-text">{t('errors.reasons.consent_withdrawn', { date: formatDate(at) })}</p>
        <p className="mt-1" data-testid="media-deletion" data-deleted={deletedAt ? 'true' : 'false'}>
          {deletedAt
            ? t('testimonialDetail.control.deleted', { date: formatDate(deletedAt) })
            : dueAt
              ? t('testimonialDetail.control.deletionDue', { date: formatDate(dueAt) })
              : t('testimonialDetail.control.deletionPending')}{' '}
          {t('testimonialDetail.control.copies')}
        </p>
      </Alert>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title={t('testimonialDetail.control.deleteConfirm.title')}
        description={t('testimonialDetail.control.deleteConfirm.description')}
        confirmLabel={t('testimonialDetail.control.deleteConfirm.confirm')}
        onConfirm={onConfirm}
        pending={remove.isPending}
        tone="danger"
        data-testid="delete-media-dialog"
        buttonTestIds={{ confirm: 'delete-media-confirm', cancel: 'delete-media-cancel' }}
      >
        {remove.isError ? (
          <Alert tone="error" data-testid="delete-media-error">
            {apiErrorMessage(remove.error, t)}
          </Alert>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/** Under a card whose studio is closed by the withdrawal: why its actions are off. Test id `studio-locked`. */
export function StudioLockedNote({ text }: { text: string }) {
  return (
    <p className="flex gap-2 text-xs text-pending-800" data-testid="studio-locked">
      <LockIcon className="mt-px size-3.5 shrink-0 text-pending-700" />
      <span className="min-w-0">{text}</span>
    </p>
  );
}

/**
 * In place of the player of an answer the customer asked to remove: what happened and what it means.
 * Test id `answer-removed`.
 */
export function RemovedAnswer({ at, customerName }: { at: string; customerName: string }) {
  const { t } = useTranslation();
  return (
    <div
      className="flex aspect-video w-full flex-col items-center justify-center gap-2 bg-gray-100 px-6 py-4 text-center ring-1 ring-gray-200 ring-inset"
      data-testid="answer-removed"
    >
      <ShieldCheckIcon className="size-6 text-gray-500" />
      <p className="text-sm font-medium text-gray-900">{t('testimonialDetail.removed.title')}</p>
      <p className="max-w-sm text-xs text-gray-600">{t('testimonialDetail.removed.description', { name: customerName, date: formatDate(at) })}</p>
    </div>
  );
}
