import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/alert';
import { Button, ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyLinkButton } from '../../../components/copy-link-button';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { ArrowLeftIcon, BellIcon, CompassIcon, VideoIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { isApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useRole } from '../../../lib/use-role';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useRequest } from '../api/get-request';
import { ReminderDialog } from './reminder-dialog';
import { RequestStatusBadge } from './request-status-badge';
import { RequestTimeline } from './request-timeline';

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link
      to={paths.dashboard.requests}
      data-testid="request-detail-back"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-gray-600 hover:text-gray-900"
    >
      <ArrowLeftIcon className="size-4" />
      {t('requests.detail.back')}
    </Link>
  );
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col gap-1 border-b border-gray-100 px-4 py-3 last:border-b-0 sm:flex-row sm:items-center sm:gap-4 sm:px-6">
      <dt className="text-sm text-gray-500 sm:w-44 sm:shrink-0">{label}</dt>
      <dd className="min-w-0 text-sm break-words text-gray-900 tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * A request (spec §2): status, customer e-mail, position, date sent, last reminder, and a reminder
 * button unless it is completed or has no address; while pending, its private link to copy or share
 * (issue 27, item 11); back to /dashboard/requests. Loading, error (with retry) and not-found states.
 * Test ids: `request-detail`, `request-detail-status`, `request-detail-remind`, `request-detail-link`,
 * `request-detail-link-value`, `request-detail-copy-link`, `request-detail-back`, `request-detail-not-found`.
 */
export function RequestDetailScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { user } = useAuth();
  const companyId = user?.company_id ?? '';
  const { can } = useRole();
  const query = useRequest(companyId, id);
  const [reminding, setReminding] = useState(false);
  const request = query.data?.testimonial;
  const notFound = isApiError(query.error) && (query.error.status === 404 || query.error.status === 400);

  useEffect(() => {
    if (query.error) console.warn('GET /api/testimonials/request-safe failed.', query.error);
  }, [query.error]);

  let content: ReactNode;
  if (query.isPending) {
    content = (
      <>
        <PageHeader eyebrow={<BackLink />} title={t('requests.detail.title')} />
        <Card padding="none" aria-hidden="true">
          {[0, 1, 2, 3, 4].map((row) => (
            <div key={row} className="flex gap-4 border-b border-gray-100 px-6 py-4 last:border-b-0">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-4 w-48" />
            </div>
          ))}
        </Card>
      </>
    );
  } else if (notFound) {
    content = (
      <Card padding="none" data-testid="request-detail-not-found">
        <EmptyState
          headingLevel="h1"
          icon={<CompassIcon className="size-6" />}
          title={t('requests.detail.notFoundTitle')}
          description={<p className="text-sm">{t('requests.detail.notFound')}</p>}
          action={
            <ButtonLink to={paths.dashboard.requests} variant="secondary" leadingIcon={<ArrowLeftIcon className="size-4" />}>
              {t('requests.detail.back')}
            </ButtonLink>
          }
        />
      </Card>
    );
  } else if (query.isError || !request) {
    content = (
      <>
        <PageHeader eyebrow={<BackLink />} title={t('requests.detail.title')} />
        <ErrorState
          message={t('requests.loadError')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
          data-testid="request-detail-error"
        />
      </>
    );
  } else {
    const completed = request.status === 'completed';
    content = (
      <>
        <PageHeader
          eyebrow={<BackLink />}
          title={request.customer_name}
          description={t('requests.detail.description')}
          actions={
            completed ? (
              <ButtonLink to={paths.dashboard.testimonial(request.id)} leadingIcon={<VideoIcon className="size-4" />}>
                {t('requests.detail.viewTestimonial')}
              </ButtonLink>
            ) : request.customer_email && !request.email_unsubscribed_at && can('sendRequest') ? (
              <Button
                onClick={() => setReminding(true)}
                leadingIcon={<BellIcon className="size-4" />}
                data-testid="request-detail-remind"
              >
                {t('requests.list.remind')}
              </Button>
            ) : undefined
          }
        />
        {request.email_unsubscribed_at && (
          <Alert tone="warning" title={t('reminders.unsubscribed.title')} className="mb-4" data-testid="request-detail-unsubscribed">
            {t('reminders.unsubscribed.body', { date: formatDate(request.email_unsubscribed_at) })}
          </Alert>
        )}
        <Card padding="none" data-testid="request-detail">
          <dl>
            <Field label={t('requests.list.status')} testId="request-detail-status">
              <RequestStatusBadge status={request.status} />
            </Field>
            <Field label={t('requests.form.email')} testId="request-detail-email">
              {request.customer_email ?? <span className="text-gray-500">{t('requests.detail.noEmail')}</span>}
            </Field>
            {request.status === 'pending' && (
              <Field label={t('requests.link.label')} testId="request-detail-link">
                <span className="block font-mono text-xs break-all text-gray-900" data-testid="request-detail-link-value">
                  {request.link}
                </span>
                <span className="mt-1 block text-xs text-gray-500">{t('requests.link.detailHint')}</span>
                <CopyLinkButton
                  url={request.link}
                  name={request.customer_name}
                  shareText={t('requests.link.shareText', { company: user?.company?.name ?? '' })}
                  className="mt-2"
                  testId="request-detail-copy-link"
                />
              </Field>
            )}
            <Field label={t('requests.form.position')} testId="request-detail-position">
              {request.customer_position || <span className="text-gray-500">{t('requests.detail.noPosition')}</span>}
            </Field>
            <Field label={t('requests.list.date')} testId="request-detail-date">
              {formatDate(request.created_at)}
            </Field>
            <Field label={t('requests.list.lastReminder')} testId="request-detail-last-reminder">
              {request.last_reminder_sent ? (
                formatDate(request.last_reminder_sent)
              ) : (
                <span className="text-gray-500">{t('requests.list.never')}</span>
              )}
            </Field>
          </dl>
        </Card>
        <RequestTimeline requestId={request.id} />
        <ReminderDialog request={reminding ? request : null} companyId={companyId} onClose={() => setReminding(false)} />
      </>
    );
  }

  return (
    <>
      <Seo title={request?.customer_name ?? t('requests.detail.title')} description={t('requests.detail.description')} robots="noindex" />
      {content}
    </>
  );
}
