import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TConsentEventKind } from '../../../../contract/api/consent.schema.js';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Alert } from '../../../components/alert';
import { Button, ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { ErrorState } from '../../../components/error-state';
import { DownloadIcon, ReceiptIcon } from '../../../components/icons';
import { Skeleton } from '../../../components/skeleton';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useConsentRecord } from '../api/get-consent-record';
import { useTestimonialJobs } from '../api/list-jobs';
import { approvalVideoLabel } from './approval-panel';
import { downloadConsentRecord, eventDetails, recordEvents } from './consent-record';

/** The dot of each kind of moment: the customer's own acts stand out, the company's are quieter. */
export const EVENT_DOTS: Record<TConsentEventKind, string> = {
  given: 'bg-completed-500',
  withdrawn: 'bg-error-500',
  removal_requested: 'bg-pending-500',
  approval_requested: 'bg-gray-400',
  approval_reminded: 'bg-gray-400',
  approved: 'bg-completed-500',
  changes_requested: 'bg-pending-500',
  media_deleted: 'bg-gray-700',
};

/**
 * The consent record on the detail screen (issue 29): the consent given and everything after it, each
 * with its date and time, the JSON download (read afresh through the authenticated client) and the way
 * to the printable page. Test ids `consent-record`, `consent-event` (data-kind), `consent-record-json`,
 * `consent-record-print`, `consent-record-error`, `consent-record-download-error`.
 */
export function ConsentRecordSection({ testimonial }: { testimonial: TTestimonialRequest }) {
  const { t } = useTranslation();
  const record = useConsentRecord(testimonial.id);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);

  const onDownload = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadConsentRecord(testimonial.id);
    } catch (error) {
      console.warn('GET /api/testimonials/{id}/consent-record failed.', error);
      setDownloadError(error);
    } finally {
      setDownloading(false);
    }
  };

  const events = record.data ? recordEvents(record.data) : [];
  // The video an approval event is about, named as the approval panel names it.
  const approvals = testimonial.customer_control?.approvals ?? [];
  const jobs = useTestimonialJobs(testimonial.id, approvals.length > 0);
  const videoOf = (approvalId: string | null) => {
    const approval = approvals.find((candidate) => candidate.id === approvalId);
    return approval ? approvalVideoLabel(t, testimonial, jobs.data?.jobs ?? [], approval) : null;
  };

  return (
    <Card padding="none" className="mt-8" data-testid="consent-record" aria-labelledby="consent-record-title">
      <div className="flex flex-col gap-3 border-b border-gray-100 px-4 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-5">
        <div className="min-w-0">
          <h2 id="consent-record-title" className="text-base font-semibold text-gray-900">
            {t('testimonialDetail.record.title')}
          </h2>
          <p className="mt-1 text-sm text-gray-600">{t('testimonialDetail.record.description')}</p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            leadingIcon={<DownloadIcon className="size-4" />}
            loading={downloading}
            onClick={() => void onDownload()}
            data-testid="consent-record-json"
          >
            {t('testimonialDetail.record.json')}
          </Button>
          <ButtonLink
            to={paths.dashboard.consentRecord(testimonial.id)}
            size="sm"
            variant="secondary"
            leadingIcon={<ReceiptIcon className="size-4" />}
            data-testid="consent-record-print"
          >
            {t('testimonialDetail.record.print')}
          </ButtonLink>
        </div>
      </div>
      <div className="px-4 py-4 sm:px-5" aria-live="polite">
        {downloadError ? (
          <Alert tone="error" title={t('testimonialDetail.record.downloadError')} className="mb-4" data-testid="consent-record-download-error">
            {apiErrorMessage(downloadError, t)}
          </Alert>
        ) : null}
        {record.isPending ? (
          <div aria-busy="true" className="flex flex-col gap-3">
            <Skeleton className="h-4 w-64 max-w-full" />
            <Skeleton className="h-4 w-56 max-w-full" />
          </div>
        ) : record.isError ? (
          <ErrorState
            message={t('testimonialDetail.record.loadError')}
            onRetry={() => void record.refetch()}
            retrying={record.isFetching}
            data-testid="consent-record-error"
          />
        ) : events.length === 0 ? (
          <p className="text-sm text-gray-600" data-testid="consent-record-empty">
            {t('testimonialDetail.record.empty')}
          </p>
        ) : (
          <ol className="relative flex flex-col gap-4">
            {events.map((event, index) => {
              const video = videoOf(event.approvalId);
              const details = [...(video ? [t('testimonialDetail.record.video', { video })] : []), ...eventDetails(t, event)];
              return (
                <li key={`${event.kind}-${event.at}-${index}`} className="relative flex gap-3" data-testid="consent-event" data-kind={event.kind}>
                  {index < events.length - 1 && <span aria-hidden="true" className="absolute top-4 bottom-[-1rem] left-[5px] w-px bg-gray-200" />}
                  <span aria-hidden="true" className={cn('relative mt-1.5 size-2.75 shrink-0 rounded-full ring-2 ring-white', EVENT_DOTS[event.kind])} />
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
                      <span className="text-sm font-medium text-gray-900">{t(`testimonialDetail.record.events.${event.kind}`)}</span>
                      <time dateTime={event.at} className="text-xs text-gray-500 tabular-nums">
                        {formatDateTime(event.at)}
                      </time>
                    </p>
                    {details.map((detail) => (
                      <p key={detail} className="mt-0.5 text-sm break-words text-gray-600">
                        {detail}
                      </p>
                    ))}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </Card>
  );
}
