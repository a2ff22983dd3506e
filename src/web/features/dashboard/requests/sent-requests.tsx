import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TTestimonialRequestSafe } from '../../../../contract/api/testimonials.schema.js';
import { Button, ButtonLink } from '../../../components/button';
import { DataTable } from '../../../components/data-table';
import type { DataTableColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { CopyLinkButton } from '../../../components/copy-link-button';
import { BellIcon, EyeIcon, SendIcon } from '../../../components/icons';
import { SelectField } from '../../../components/select-field';
import { Skeleton } from '../../../components/skeleton';
import { cn } from '../../../lib/cn';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { ReminderDialog } from './reminder-dialog';
import { matchesStatusFilter, STATUS_FILTERS } from './status-filter';
import type { TStatusFilter } from './status-filter';
import { RequestStatusBadge } from './request-status-badge';

export interface SentRequestsProps {
  companyId: string;
  /** Named in the share sheet's text. */
  companyName: string;
  requests: readonly TTestimonialRequestSafe[] | undefined;
  loading: boolean;
  error: boolean;
  retrying: boolean;
  onRetry: () => void;
  filter: TStatusFilter;
  onFilterChange: (filter: TStatusFilter) => void;
  /** The empty state's action: go to the new-request form. */
  onNewRequest?: (() => void) | undefined;
  /** Keeps the section title for assistive technology only (the tab already names it). */
  hideTitle?: boolean;
}

function ListSkeleton() {
  return (
    <div className="flex flex-col gap-3 rounded-card border border-gray-200 bg-white p-4" aria-hidden="true" data-testid="requests-loading">
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex items-center gap-4">
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-5 w-20 rounded-full" />
          <Skeleton className="h-8 w-28" />
        </div>
      ))}
    </div>
  );
}

/**
 * The sent requests (spec §2): date sent, customer, status, last reminder ('never' without one) and
 * actions, as a table from 768 px and cards below. Completed rows open the request detail (and have a
 * view link); the others offer a reminder (confirmed first) when the request has an e-mail address, and
 * pending ones their private link to copy or share. Test ids: `requests-list`, `request-row` (data-id,
 * data-status), `request-view`, `request-remind`, `request-copy-link`, `requests-status-filter`, `requests-empty`.
 */
export function SentRequests({
  companyId,
  companyName,
  requests,
  loading,
  error,
  retrying,
  onRetry,
  filter,
  onFilterChange,
  onNewRequest,
  hideTitle = false,
}: SentRequestsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [reminding, setReminding] = useState<TTestimonialRequestSafe | null>(null);
  const all = requests ?? [];
  const visible = all.filter((request) => matchesStatusFilter(request, filter));

  const columns: DataTableColumn<TTestimonialRequestSafe>[] = [
    {
      id: 'date',
      header: t('requests.list.date'),
      cell: (request) => <span data-testid="request-date">{formatDate(request.created_at)}</span>,
      className: 'whitespace-nowrap',
    },
    {
      id: 'customer',
      header: t('requests.list.customer'),
      card: 'title',
      cell: (request) => (
        <div className="min-w-0">
          <p className="truncate font-medium text-gray-900" data-testid="request-customer">
            {request.customer_name}
          </p>
          <p className="truncate text-xs text-gray-500">{request.customer_email ?? t('requests.list.linkOnly')}</p>
        </div>
      ),
      className: 'max-w-64',
    },
    {
      id: 'status',
      header: t('requests.list.status'),
      card: 'badge',
      cell: (request) => <RequestStatusBadge status={request.status} />,
    },
    {
      id: 'reminder',
      header: t('requests.list.lastReminder'),
      cell: (request) => (
        <span data-testid="request-last-reminder" className={request.last_reminder_sent ? undefined : 'text-gray-500'}>
          {request.last_reminder_sent ? formatDate(request.last_reminder_sent) : t('requests.list.never')}
        </span>
      ),
      className: 'whitespace-nowrap',
    },
    {
      id: 'actions',
      header: t('requests.list.actions'),
      card: 'actions',
      className: 'text-right',
      cell: (request) =>
        request.status === 'completed' ? (
          <ButtonLink
            to={paths.dashboard.request(request.id)}
            variant="secondary"
            size="sm"
            leadingIcon={<EyeIcon className="size-4" />}
            data-testid="request-view"
            aria-label={t('requests.list.viewLabel', { name: request.customer_name })}
          >
            {t('requests.list.view')}
          </ButtonLink>
        ) : (
          <div className="flex flex-wrap items-center justify-end gap-2">
            {/* The private link, to send by SMS or WhatsApp while it is valid (issue 27, item 11). */}
            {request.status === 'pending' && (
              <CopyLinkButton
                url={request.link}
                name={request.customer_name}
                shareText={t('requests.link.shareText', { company: companyName })}
                testId="request-copy-link"
              />
            )}
            {request.customer_email && (
              <Button
                variant="secondary"
                size="sm"
                leadingIcon={<BellIcon className="size-4" />}
                onClick={() => setReminding(request)}
                data-testid="request-remind"
                aria-label={t('requests.list.remindLabel', { name: request.customer_name })}
              >
                {t('requests.list.remind')}
              </Button>
            )}
          </div>
        ),
    },
  ];

  let body;
  if (loading) {
    body = <ListSkeleton />;
  } else if (error) {
    body = <ErrorState message={t('requests.loadError')} onRetry={onRetry} retrying={retrying} data-testid="requests-error" />;
  } else if (all.length === 0) {
    body = (
      <div className="rounded-card border border-gray-200 bg-white" data-testid="requests-empty">
        <EmptyState
          icon={<SendIcon className="size-6" />}
          title={t('requests.list.emptyTitle')}
          description={<p className="text-sm">{t('requests.list.emptyDescription')}</p>}
          action={onNewRequest ? <Button onClick={onNewRequest}>{t('requests.list.emptyAction')}</Button> : undefined}
        />
      </div>
    );
  } else if (visible.length === 0) {
    body = (
      <div className="rounded-card border border-gray-200 bg-white" data-testid="requests-empty">
        <EmptyState
          title={t('requests.list.filteredEmptyTitle')}
          description={<p className="text-sm">{t('requests.list.filteredEmptyDescription')}</p>}
          action={
            <Button variant="secondary" onClick={() => onFilterChange('all')}>
              {t('requests.list.showAll')}
            </Button>
          }
        />
      </div>
    );
  } else {
    body = (
      <DataTable
        columns={columns}
        rows={visible}
        rowKey={(request) => request.id}
        caption={t('requests.list.caption')}
        onRowClick={(request) => void navigate(paths.dashboard.request(request.id))}
        isRowClickable={(request) => request.status === 'completed'}
        rowAttributes={(request) => ({ 'data-testid': 'request-row', 'data-id': request.id, 'data-status': request.status })}
        data-testid="requests-list"
      />
    );
  }

  const filterOptions = STATUS_FILTERS.map((value) => ({
    value,
    label: `${t(`requests.filter.${value}`)} (${all.filter((r) => matchesStatusFilter(r, value)).length})`,
  }));

  return (
    <>
      <div className={cn('mb-4 flex flex-wrap items-end gap-3', hideTitle ? 'justify-end' : 'justify-between')}>
        <h2 className={cn('text-base font-semibold text-gray-950', hideTitle && 'sr-only')}>{t('requests.list.title')}</h2>
        <SelectField
          className="w-52"
          label={t('requests.filter.label')}
          hideLabel
          options={filterOptions}
          value={filter}
          onChange={(event) => onFilterChange(event.target.value as TStatusFilter)}
          data-testid="requests-status-filter"
        />
      </div>
      {body}
      <ReminderDialog request={reminding} companyId={companyId} onClose={() => setReminding(null)} />
    </>
  );
}
