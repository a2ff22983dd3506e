import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Alert } from '../../../components/alert';
import { Button, buttonClasses } from '../../../components/button';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { CopyField } from '../../../components/copy-field';
import { ExternalIcon, ShieldCheckIcon } from '../../../components/icons';
import { isApiError } from '../../../lib/api-client';
import { Skeleton } from '../../../components/skeleton';
import { Spinner } from '../../../components/spinner';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { formatDate } from '../../../lib/format';
import { PublicationPoster } from './publication-poster';
import { PublicationQuote } from './publication-quote';
import type { TPublishing } from './use-publishing';
import { UnknownRenderError } from './use-publishing';

/**
 * The dialog of one published video (issue 19): while it is being published, the step; then its public
 * link and its `<iframe>` snippet, each with a Copy button, the page to open, and Unpublish (asked
 * first). Test ids: `publish-dialog`, `publish-pending`, `publish-error`, `publish-retry`, `publish-link`,
 * `publish-copy-link`, `publish-embed`, `publish-copy-embed`, `publish-open`, `publish-unpublish`,
 * `unpublish-dialog`, `unpublish-confirm`, `unpublish-cancel`.
 */
export function PublishDialog({ publishing }: { publishing: TPublishing }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const { item, publication, failure } = publishing;
  const open = item !== null;
  const pending = publishing.publishing || (!publication && !failure);

  const close = () => {
    setConfirming(false);
    publishing.close();
  };

  const failureText =
    failure instanceof UnknownRenderError ? t('testimonialDetail.publish.errors.unknownRender') : failure ? apiErrorMessage(failure, t) : null;
  // Refused because the customer must approve it first (issue 29): the reason, and the way to ask.
  const askable = isApiError(failure) && (failure.reason === 'approval_required' || failure.reason === 'approval_changes_requested');
  // Trying again cannot help until the customer answers.
  const waitsForCustomer = askable || (isApiError(failure) && failure.reason === 'approval_pending');

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!next) close();
        }}
        title={publication ? t('testimonialDetail.publish.publishedTitle') : t('testimonialDetail.publish.title')}
        description={t('testimonialDetail.publish.description')}
        data-testid="publish-dialog"
        footer={
          publication ? (
            <>
              <Button
                variant="ghost"
                className="text-error-700! hover:bg-error-50! hover:text-error-800! sm:mr-auto"
                onClick={() => setConfirming(true)}
                data-testid="publish-unpublish"
              >
                {t('testimonialDetail.publish.unpublish')}
              </Button>
              <a
                href={publication.url}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses({ variant: 'secondary' })}
                data-testid="publish-open"
              >
                <ExternalIcon className="size-4" />
                {t('testimonialDetail.publish.openPage')}
                <span className="sr-only"> {t('testimonialDetail.publish.newTab')}</span>
              </a>
              <Button variant="primary" onClick={close} data-testid="publish-done">
                {t('testimonialDetail.publish.done')}
              </Button>
            </>
          ) : undefined
        }
      >
        {item && (
          <p className="rounded-control bg-gray-50 px-3 py-2 text-sm text-gray-800 ring-1 ring-gray-200" data-testid="publish-item">
            <span className="font-medium">{item.title}</span>
            {item.version ? ` · ${item.version}` : null}
          </p>
        )}
        {item?.note && (
          <p className="mt-2 text-sm text-gray-600" data-testid="publish-note">
            {item.note}
          </p>
        )}
        <div aria-live="polite" className="mt-4 flex flex-col gap-4">
          {failureText ? (
            <Alert
              tone="error"
              title={t('testimonialDetail.publish.errors.title')}
              data-testid="publish-error"
              action={
                <>
                  {askable && item && (
                    <Button
                      size="sm"
                      leadingIcon={<ShieldCheckIcon className="size-4" />}
                      onClick={() => publishing.askApproval(item)}
                      data-testid="publish-ask-approval"
                    >
                      {t('testimonialDetail.approval.ask')}
                    </Button>
                  )}
                  {!waitsForCustomer && (
                    <Button size="sm" variant="secondary" onClick={publishing.retry} data-testid="publish-retry">
                      {t('testimonialDetail.publish.retry')}
                    </Button>
                  )}
                </>
              }
            >
              {failureText}
            </Alert>
          ) : pending ? (
            <div data-testid="publish-pending" aria-busy="true" className="flex flex-col gap-4">
              <p className="flex items-center gap-2 text-sm text-gray-700">
                <Spinner className="size-4 text-brand-700" />
                {t('testimonialDetail.publish.pending')}
              </p>
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-20 w-full" />
            </div>
          ) : publication ? (
            <>
              <CopyField
                label={t('testimonialDetail.publish.link')}
                hint={t('testimonialDetail.publish.linkHint', { date: formatDate(publication.createdAt) })}
                value={publication.url}
                copyLabel={t('testimonialDetail.publish.copyLink')}
                testId="publish-link"
                copyTestId="publish-copy-link"
              />
              <CopyField
                label={t('testimonialDetail.publish.embed')}
                hint={t('testimonialDetail.publish.embedHint')}
                value={publication.embedHtml}
                copyLabel={t('testimonialDetail.publish.copyEmbed')}
                multiline
                testId="publish-embed"
                copyTestId="publish-copy-embed"
              />
              <PublicationPoster publication={publication} />
              <PublicationQuote publication={publication} />
            </>
          ) : null}
        </div>
      </Dialog>
      <ConfirmDialog
        open={open && confirming && publication !== null}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title={t('testimonialDetail.publish.confirm.title')}
        description={t('testimonialDetail.publish.confirm.description')}
        confirmLabel={t('testimonialDetail.publish.confirm.confirm')}
        onConfirm={() =>
          publishing.unpublish(() => {
            setConfirming(false);
            toast.success(t('testimonialDetail.publish.unpublished'));
          })
        }
        pending={publishing.unpublishing}
        tone="danger"
        data-testid="unpublish-dialog"
        buttonTestIds={{ confirm: 'unpublish-confirm', cancel: 'unpublish-cancel' }}
      >
        {publishing.unpublishError ? (
          <Alert tone="error" data-testid="unpublish-error">
            {apiErrorMessage(publishing.unpublishError, t)}
          </Alert>
        ) : null}
      </ConfirmDialog>
      <AskApprovalDialog publishing={publishing} />
    </>
  );
}

/**
 * Asks the customer to approve one video (issue 29): what they receive and what happens next, then the
 * call; a refusal says its translated reason (no e-mail address, consent withdrawn…). Test ids
 * `ask-approval-dialog`, `ask-approval-confirm`, `ask-approval-cancel`, `ask-approval-error`.
 */
function AskApprovalDialog({ publishing }: { publishing: TPublishing }) {
  const { t } = useTranslation();
  const item = publishing.asking;
  const failure = publishing.askFailure;
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(next) => {
        if (!next) publishing.closeAsk();
      }}
      title={t('testimonialDetail.approval.askDialog.title')}
      description={t('testimonialDetail.approval.askDialog.description')}
      confirmLabel={t('testimonialDetail.approval.askDialog.confirm')}
      onConfirm={() => publishing.confirmAsk(() => toast.success(t('testimonialDetail.approval.askDialog.sent')))}
      pending={publishing.askPending}
      data-testid="ask-approval-dialog"
      buttonTestIds={{ confirm: 'ask-approval-confirm', cancel: 'ask-approval-cancel' }}
    >
      {item && (
        <p className="rounded-control bg-gray-50 px-3 py-2 text-sm text-gray-800 ring-1 ring-gray-200" data-testid="ask-approval-item">
          <span className="font-medium">{item.title}</span>
          {item.version ? ` · ${item.version}` : null}
        </p>
      )}
      {failure ? (
        <Alert tone="error" className="mt-4" data-testid="ask-approval-error">
          {failure instanceof UnknownRenderError ? t('testimonialDetail.publish.errors.unknownRender') : apiErrorMessage(failure, t)}
        </Alert>
      ) : null}
    </ConfirmDialog>
  );
}
