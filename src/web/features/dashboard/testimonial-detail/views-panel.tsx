import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TViewCounts, TViewDay } from '../../../../contract/api/views.schema.js';
import { Card } from '../../../components/card';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { EyeIcon } from '../../../components/icons';
import { Skeleton } from '../../../components/skeleton';
import { formatPercent, intlLocale } from '../../../lib/format';
import { useTestimonialViews, VIEW_DAYS } from './views-api';

/** DD/MM of a YYYY-MM-DD day (the dashboard's date order, without the year). */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const share = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : 0);

/**
 * The views of a testimonial's publications (issues 19 and 26): total views, how far they got (started,
 * past 25/50/75 %, completed) and views per day over 30 days, as plain CSS bars. Empty states when nothing
 * is published or nobody watched yet; a skeleton while loading, an error with retry.
 */
export function ViewsPanel({ testimonialId, enabled }: { testimonialId: string; enabled: boolean }) {
  const { t } = useTranslation();
  const query = useTestimonialViews(testimonialId, enabled);

  useEffect(() => {
    if (query.error) console.warn('GET /api/testimonials/{id}/views failed.', query.error);
  }, [query.error]);

  if (!enabled) return null;
  let body;
  if (query.isPending) {
    body = (
      <div className="flex flex-col gap-4" data-testid="views-loading">
        <Skeleton className="h-10 w-32" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  } else if (query.isError || !query.data) {
    body = (
      <ErrorState
        message={t('testimonialDetail.views.loadError')}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        data-testid="views-error"
        className="py-6"
      />
    );
  } else if (query.data.totals.started === 0) {
    const published = query.data.published > 0;
    body = (
      <EmptyState
        icon={<EyeIcon className="size-6" />}
        headingLevel="h3"
        title={t(published ? 'testimonialDetail.views.empty.unwatchedTitle' : 'testimonialDetail.views.empty.unpublishedTitle')}
        description={<p className="text-sm">{t(published ? 'testimonialDetail.views.empty.unwatched' : 'testimonialDetail.views.empty.unpublished')}</p>}
        className="py-6"
      />
    );
  } else {
    body = <ViewsSummary totals={query.data.totals} days={query.data.days} />;
  }

  return (
    <section aria-labelledby="views-title" className="mt-8" data-testid="views-panel">
      <Card padding="md" className="p-4 sm:p-6">
        <div className="mb-4 flex flex-col gap-0.5">
          <h2 id="views-title" className="text-base font-semibold text-gray-900">
            {t('testimonialDetail.views.title')}
          </h2>
          <p className="text-xs text-gray-500">{t('testimonialDetail.views.privacy')}</p>
        </div>
        {body}
      </Card>
    </section>
  );
}

function ViewsSummary({ totals, days }: { totals: TViewCounts; days: TViewDay[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const number = new Intl.NumberFormat(intlLocale(lang));
  const steps: { key: keyof TViewCounts; label: string }[] = [
    { key: 'started', label: t('testimonialDetail.views.funnel.started') },
    ...([25, 50, 75] as const).map((p) => ({ key: `p${p}` as const, label: t('testimonialDetail.views.funnel.past', { percent: formatPercent(p, lang) }) })),
    { key: 'p100', label: t('testimonialDetail.views.funnel.end') },
  ];
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="flex flex-col gap-5">
        <div>
          <p className="text-sm text-gray-600">{t('testimonialDetail.views.total')}</p>
          <p className="text-[32px] font-semibold leading-tight tabular-nums text-gray-900" data-testid="views-total">
            {number.format(totals.started)}
          </p>
          <p className="text-sm text-gray-600" data-testid="views-completion">
            {t('testimonialDetail.views.completion', { percent: formatPercent(Math.round(share(totals.p100, totals.started)), lang) })}
          </p>
        </div>
        <div>
          <h3 className="mb-2 text-sm font-medium text-gray-900">{t('testimonialDetail.views.funnel.title')}</h3>
          <ol className="flex flex-col gap-2" data-testid="views-funnel">
            {steps.map(({ key, label }) => {
              const percent = share(totals[key], totals.started);
              return (
                <li key={key} className="grid grid-cols-[7.5rem_minmax(0,1fr)_4.5rem] items-center gap-2 text-sm" data-step={key}>
                  <span className="truncate text-gray-700">{label}</span>
                  <span className="h-2 overflow-hidden rounded-full bg-gray-100" aria-hidden="true">
                    <span className="block h-full rounded-full bg-gray-700" style={{ width: `${percent}%` }} />
                  </span>
                  <span className="text-right tabular-nums text-gray-900">
                    {number.format(totals[key])} <span className="text-gray-500">· {formatPercent(Math.round(percent), lang)}</span>
                  </span>
                </li>
              );
            })}
          </ol>
        </div>
      </div>
      <DailyChart days={days} />
    </div>
  );
}

/** Views per day as bars (no chart library: 30 flex columns), with the same numbers as a table for screen readers. */
function DailyChart({ days }: { days: TViewDay[] }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const max = Math.max(1, ...days.map((d) => d.started));
  const total = days.reduce((sum, d) => sum + d.started, 0);
  return (
    <div className="flex min-w-0 flex-col" data-testid="views-chart">
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <h3 className="text-sm font-medium text-gray-900">{t('testimonialDetail.views.chart.title', { days: VIEW_DAYS })}</h3>
        <span className="text-xs tabular-nums text-gray-500">{t('testimonialDetail.views.chart.max', { value: number.format(max) })}</span>
      </div>
      <div className="flex h-36 items-end gap-px border-b border-gray-200 sm:gap-0.5" aria-hidden="true">
        {days.map((d) => (
          <div key={d.day} className="flex h-full min-w-0 flex-1 flex-col justify-end" title={`${dayMonth(d.day)}: ${number.format(d.started)}`}>
            <div
              className={d.started ? 'rounded-t-sm bg-gray-700' : 'bg-gray-100'}
              style={{ height: d.started ? `${Math.max(4, (100 * d.started) / max)}%` : '2px' }}
            />
          </div>
        ))}
      </div>
      <div className="mt-1 flex justify-between text-xs tabular-nums text-gray-500" aria-hidden="true">
        <span>{days[0] ? dayMonth(days[0].day) : ''}</span>
        <span>{days.at(-1) ? dayMonth(days.at(-1)!.day) : ''}</span>
      </div>
      <table className="sr-only">
        <caption>{t('testimonialDetail.views.chart.summary', { value: number.format(total), days: VIEW_DAYS })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('testimonialDetail.views.chart.day')}</th>
            <th scope="col">{t('testimonialDetail.views.chart.views')}</th>
          </tr>
        </thead>
        <tbody>
          {days
            .filter((d) => d.started > 0)
            .map((d) => (
              <tr key={d.day}>
                <td>{dayMonth(d.day)}</td>
                <td>{number.format(d.started)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
