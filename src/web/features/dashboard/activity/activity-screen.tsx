import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { TActivityEvent } from '../../../../contract/api/activity.schema.js';
import { Badge } from '../../../components/badge';
import { Button, ButtonLink } from '../../../components/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { ClockIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { SelectField } from '../../../components/select-field';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { formatDateTime, intlLocale } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { MEDIA, useMediaQuery } from '../../../lib/use-media-query';
import { useActivity } from '../api/list-activity';
import { ACTIVITY_GROUPS, activitySentence, isActivityGroup, kindOf, type TActivityGroup } from './activity-sentence';

/** "3 minutes ago", "yesterday", in the reader's language. */
export function relativeTime(at: string, lang: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(at) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(intlLocale(lang), {
    numeric: 'auto',
  });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  return format.format(seconds, 'second');
}

/** The periods offered, as the days they reach back over (today counts as one). */
const PERIODS = { today: 1, week: 7, month: 30 } as const;
type TPeriod = keyof typeof PERIODS;
const isPeriod = (value: string | null): value is TPeriod => value !== null && value in PERIODS;

/**
 * Where a period starts: the viewer's local midnight, `days - 1` days ago. A whole day keeps the query's
 * key the same all day long (a moving "now" would refetch at every render).
 */
export function periodStart(period: TPeriod, now = new Date()): string {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (PERIODS[period] - 1));
  return start.toISOString();
}

/**
 * The company's activity log (issue 32, decision 220): who did what and when, newest first, filtered
 * by a group of events and a member (both in the address, so a filtered view can be shared), with
 * "load more". A table on wide screens, a list of cards on a phone.
 */
export function ActivityScreen() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const groupParam = search.get('group');
  const group = isActivityGroup(groupParam) ? groupParam : null;
  const actor = search.get('actor') ?? undefined;
  const periodParam = search.get('period');
  const period = isPeriod(periodParam) ? periodParam : null;
  const query = useActivity({
    types: group ? ACTIVITY_GROUPS[group] : [],
    actor,
    from: period ? periodStart(period) : undefined,
  });
  const title = t('activity.title');
  const filtered = Boolean(group || actor || period);
  const events = query.data?.pages.flatMap((page) => page.events) ?? [];
  const members = query.data?.pages[0]?.members ?? [];

  const setFilter = (name: 'group' | 'actor' | 'period', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };

  // On a phone each event is a card: the sentence already names the person, and the testimonial's
  // link sits under it rather than in an empty footer.
  const asCards = useMediaQuery(MEDIA.mobile);
  const testimonialLink = (event: TActivityEvent) =>
    event.subject.testimonialId ? (
      <Link className="font-medium text-brand-700 underline-offset-2 hover:underline" to={paths.dashboard.testimonial(event.subject.testimonialId)}>
        {t('activity.viewTestimonial')}
      </Link>
    ) : null;

  const columns: DataTableColumn<TActivityEvent>[] = [
    {
      id: 'event',
      header: t('activity.columns.event'),
      card: 'title',
      cell: (event) => (
        <span className="flex flex-col gap-1">
          <span className="font-medium text-gray-900" data-testid="activity-sentence">
            {activitySentence(event, t)}
          </span>
          {asCards ? <span className="text-sm">{testimonialLink(event)}</span> : null}
        </span>
      ),
    },
    {
      id: 'who',
      header: t('activity.columns.who'),
      card: 'badge',
      cell: (event) =>
        event.actor ? (
          asCards ? null : (
            <span className="text-gray-700" title={event.actor.email}>
              {event.actor.name}
            </span>
          )
        ) : (
          <Badge tone="neutral">{t(`activity.kinds.${kindOf(event)}`)}</Badge>
        ),
    },
    {
      id: 'when',
      header: t('activity.columns.when'),
      cell: (event) => (
        <time dateTime={event.at} title={formatDateTime(event.at)} className="whitespace-nowrap tabular-nums">
          <span className="text-gray-900">{relativeTime(event.at, i18n.language)}</span>
          <span className="ml-2 text-gray-500">{formatDateTime(event.at)}</span>
        </time>
      ),
    },
    ...(asCards
      ? []
      : [
          {
            id: 'open',
            header: t('activity.columns.open'),
            className: 'text-right',
            cell: testimonialLink,
          } satisfies DataTableColumn<TActivityEvent>,
        ]),
  ];

  return (
    <>
      <Seo title={title} description={t('activity.description')} robots="noindex" />
      <PageHeader title={title} description={t('activity.description')} />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end" role="search" aria-label={t('activity.filters')}>
        <SelectField
          className="sm:w-60"
          label={t('activity.filterType')}
          value={group ?? ''}
          onChange={(e) => setFilter('group', e.target.value)}
          options={[
            { value: '', label: t('activity.groups.all') },
            ...(Object.keys(ACTIVITY_GROUPS) as TActivityGroup[]).map((value) => ({ value, label: t(`activity.groups.${value}`) })),
          ]}
          data-testid="activity-filter-type"
        />
        <SelectField
          className="sm:w-60"
          label={t('activity.filterMember')}
          value={actor ?? ''}
          onChange={(e) => setFilter('actor', e.target.value)}
          options={[{ value: '', label: t('activity.everyone') }, ...members.map((m) => ({ value: m.id, label: m.name }))]}
          data-testid="activity-filter-member"
        />
        <SelectField
          className="sm:w-48"
          label={t('activity.filterPeriod')}
          value={period ?? ''}
          onChange={(e) => setFilter('period', e.target.value)}
          options={[{ value: '', label: t('activity.periods.any') }, ...(Object.keys(PERIODS) as TPeriod[]).map((value) => ({ value, label: t(`activity.periods.${value}`) }))]}
          data-testid="activity-filter-period"
        />
        {filtered ? (
          <Button variant="ghost" onClick={() => setSearch(new URLSearchParams(), { replace: true })}>
            {t('activity.clearFilters')}
          </Button>
        ) : null}
      </div>
      {query.isPending ? (
        <div className="flex flex-col gap-3" data-testid="activity-loading" aria-busy="true">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState message={t('activity.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} data-testid="activity-error" />
      ) : events.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={<ClockIcon className="size-6" />}
            title={t('activity.emptyFilteredTitle')}
            description={t('activity.emptyFilteredDescription')}
            action={<Button onClick={() => setSearch(new URLSearchParams(), { replace: true })}>{t('activity.clearFilters')}</Button>}
          />
        ) : (
          <EmptyState
            icon={<ClockIcon className="size-6" />}
            title={t('activity.emptyTitle')}
            description={t('activity.emptyDescription')}
            action={<ButtonLink to={paths.dashboard.requests}>{t('activity.emptyAction')}</ButtonLink>}
          />
        )
      ) : (
        <>
          <DataTable
            columns={columns}
            rows={events}
            rowKey={(event) => event.id}
            caption={title}
            rowAttributes={(event) => ({
              'data-testid': 'activity-row',
              'data-type': event.type,
            })}
            data-testid="activity-list"
          />
          {query.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} data-testid="activity-load-more">
                {t('activity.loadMore')}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}
