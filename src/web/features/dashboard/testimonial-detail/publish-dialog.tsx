import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { Alert } from '../../../components/alert';
import { Button, buttonClasses } from '../../../components/button';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { CheckIcon, ExternalIcon } from '../../../components/icons';
import { Skeleton } from '../../../components/skeleton';
import { Spinner } from '../../../components/spinner';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { cn } from '../../../lib/cn';
import { formatDate } from '../../../lib/format';
import { PublicationQuote } from './publication-quote';
import type { TPublishing } from './use-publishing';
import { UnknownRenderError } from './use-publishing';

/** How long a Copy button says 'Copied'. */
export const COPIED_MS = 2_000;

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
        <div aria-live="polite" className="mt-4 flex flex-col gap-4">
          {failureText ? (
            <Alert
              tone="error"
              title={t('testimonialDetail.publish.errors.title')}
              data-testid="publish-error"
              action={
                <Button size="sm" variant="secondary" onClick={publishing.retry} data-testid="publish-retry">
                  {t('testimonialDetail.publish.retry')}
                </Button>
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
    </>
  );
}

interface CopyFieldProps {
  label: string;
  hint: string;
  value: string;
  copyLabel: string;
  multiline?: boolean;
  testId: string;
  copyTestId: string;
}

/** A read-only value with its label and a Copy button that says 'Copied' for a moment (and announces it). */
function CopyField({ label, hint, value, copyLabel, multiline = false, testId, copyTestId }: CopyFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard access (an insecure origin, a refused permission): select the text for Ctrl+C.
      field.current?.focus();
      field.current?.select();
      setCopied(document.execCommand?.('copy') ?? false);
    }
  };

  const classes = cn(
    'w-full min-w-0 rounded-control border border-gray-300 bg-gray-50 px-3 text-sm text-gray-900',
    'focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600',
    multiline ? 'resize-none py-2 font-mono text-xs leading-5 break-all' : 'h-10',
  );
  const select = () => field.current?.select();

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      {/* On a phone the field takes the whole width (more of the link shows) and its button goes under it. */}
      <div className={cn('flex flex-col gap-2 sm:flex-row', multiline ? 'sm:items-start' : 'sm:items-center')}>
        {multiline ? (
          <textarea ref={field} id={id} readOnly rows={4} value={value} onFocus={select} aria-describedby={`${id}-hint`} className={classes} data-testid={testId} />
        ) : (
          <input ref={field} id={id} readOnly value={value} onFocus={select} aria-describedby={`${id}-hint`} className={classes} data-testid={testId} />
        )}
        <Button
          variant="secondary"
          onClick={() => void copy()}
          leadingIcon={copied ? <CheckIcon className="size-4 text-completed-700" /> : undefined}
          className="shrink-0 self-start sm:self-auto"
          data-testid={copyTestId}
          data-copied={copied ? 'true' : 'false'}
        >
          {copied ? t('testimonialDetail.publish.copied') : copyLabel}
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-gray-500">
        {hint}
      </p>
      <span className="sr-only" aria-live="polite">
        {copied ? t('testimonialDetail.publish.copiedAnnouncement', { what: label }) : ''}
      </span>
    </div>
  );
}
