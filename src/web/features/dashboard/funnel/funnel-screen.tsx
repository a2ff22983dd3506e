import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunnelLanguageRow, TFunnelLinkRow, TFunnelRowCounts, TFunnelSection } from '../../../../contract/api/funnel.schema.js';
import { ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { DataTable } from '../../../components/data-table';
import type { DataTableColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { FunnelIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { SelectField } from '../../../components/select-field';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { cn } from '../../../lib/cn';
import { formatDate, formatPercent, intlLocale } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useFunnel, type FunnelFilters } from '../api/get-funnel';
import { FunnelBars } from './funnel-bars';
import { periodFilters, PERIODS, type TPeriod } from './funnel-period';

/**
 * The request funnel (issue 30): a period (7, 30 or 90 days), a link and a language; the invitations'
 * and the collection links' funnels as bars with counts and conversions; the tables per link and per
 * language. Test ids: `funnel-screen`, `funnel-period-<days>`, `funnel-link`, `funnel-language`,
 * `funnel-section-<invitations|links>`, `funnel-by-link`, `funnel-by-language`.
 */
export function FunnelScreen() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<TPeriod>(30);
  const [linkId, setLinkId] = useState('');
  const [language, setLanguage] = useState<'' | 'english' | 'french'>('');
  // The company's today comes with the default view (30 days): the other periods end on that day too.
  const anchor = useFunnel({});
  const filters: FunnelFilters = {
    ...periodFilters(period, anchor.data?.to),
    ...(linkId ? { linkId } : {}),
    ...(language ? { language } : {}),
  };
  const query = useFunnel(filters);
  const title = t('funnel.title');
  const lang = i18n.language;
  const number = (n: number) => new Intl.NumberFormat(intlLocale(lang)).format(n);
  const percent = (ratio: number | null) => (ratio === null ? '—' : formatPercent(ratio * 100, lang));

  const data = query.data;
  const total = data ? data.invitations.steps[0]!.count + data.links.steps[0]!.count + data.links.steps[1]!.count : 0;

  return (
    <>
      <Seo title={title} description={t('funnel.description')} robots="noindex" />
      <PageHeader title={title} description={t('funnel.description')} />
      <div className="mb-6 flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between" data-testid="funnel-toolbar">
        <div role="group" aria-label={t('funnel.period.label')} className="flex flex-col gap-1.5">
          <span className="text-sm font-medium text-gray-900" aria-hidden="true">
            {t('funnel.period.label')}
          </span>
          <div className="inline-flex w-full rounded-control border border-gray-300 bg-white p-0.5 sm:w-auto">
            {PERIODS.map((days) => (
              <button
                key={days}
                type="button"
                aria-pressed={period === days}
                onClick={() => setPeriod(days)}
                data-testid={`funnel-period-${days}`}
                className={cn(
                  'h-10 flex-1 rounded-[calc(var(--radius-control)-2px)] px-4 text-sm font-medium transition-colors sm:h-9 sm:flex-none',
                  'focus-visible:outline-2 focus-visible:outline-offset-2',
                  period === days ? 'bg-brand-600 text-white' : 'text-gray-700 hover:bg-gray-100',
                )}
              >
                {t(`funnel.period.days${days}`)}
              </button>
            ))}
          </div>
        </div>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:w-[28rem]">
          <SelectField
            label={t('funnel.filters.link')}
            value={linkId}
            onChange={(event) => setLinkId(event.target.value)}
            options={[{ value: '', label: t('funnel.filters.allLinks') }, ...(anchor.data?.link_choices ?? []).map((l) => ({ value: l.id, label: l.name }))]}
            data-testid="funnel-link"
          />
          <SelectField
            label={t('funnel.filters.language')}
            value={language}
            onChange={(event) => setLanguage(event.target.value as '' | 'english' | 'french')}
            options={[
              { value: '', label: t('funnel.filters.allLanguages') },
              { value: 'english', label: t('funnel.languages.english') },
              { value: 'french', label: t('funnel.languages.french') },
            ]}
            data-testid="funnel-language"
          />
        </div>
      </div>

      {query.isPending ? (
        <div className="grid gap-6 lg:grid-cols-2" aria-busy="true">
          <Skeleton className="h-80 w-full" />
          <Skeleton className="h-80 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState message={t('funnel.loadError')} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <div className={cn('flex flex-col gap-6 transition-opacity', query.isPlaceholderData && 'opacity-60')} data-testid="funnel-screen" data-from={data!.from} data-to={data!.to}>
          <p className="text-sm text-gray-600" data-testid="funnel-range">
            {t('funnel.period.range', { from: formatDate(`${data!.from}T12:00:00`), to: formatDate(`${data!.to}T12:00:00`) })}
          </p>
          {total === 0 ? (
            <Card>
              <EmptyState
                icon={<FunnelIcon className="size-6" />}
                title={t('funnel.emptyTitle')}
                description={t('funnel.emptyDescription')}
                action={<ButtonLink to={paths.dashboard.requests}>{t('funnel.emptyAction')}</ButtonLink>}
              />
            </Card>
          ) : (
            <div className="grid gap-6 lg:grid-cols-2">
              <FunnelSectionCard id="invitations" section={data!.invitations} number={number} percent={percent} />
              <FunnelSectionCard id="links" section={data!.links} number={number} percent={percent} />
            </div>
          )}
          <BreakdownTable
            kind="link"
            title={t('funnel.byLink.title')}
            rows={data!.by_link}
            empty={t('funnel.byLink.empty')}
            number={number}
            percent={percent}
          />
          <BreakdownTable kind="language" title={t('funnel.byLanguage.title')} rows={data!.by_language} empty="" number={number} percent={percent} />
          <p className="text-xs text-gray-500">{t('funnel.note')}</p>
        </div>
      )}
    </>
  );
}

interface Formatters {
  number: (n: number) => string;
  percent: (ratio: number | null) => string;
}

function FunnelSectionCard({ id, section, number, percent }: { id: 'invitations' | 'links'; section: TFunnelSection } & Formatters) {
  const { t } = useTranslation();
  const heading = t(`funnel.sections.${id}`);
  return (
    <Card data-testid={`funnel-section-${id}`}>
      <h2 className="text-base font-semibold text-gray-950">{heading}</h2>
      <p className="mt-1 text-sm text-gray-600">{t(`funnel.sections.${id}Hint`)}</p>
      <FunnelBars
        className="mt-5"
        label={t('funnel.chartLabel', { section: heading })}
        steps={section.steps.map((s) => ({
          step: s.step,
          label: id === 'links' && s.step === 'sent' ? t('funnel.linkSteps.sent') : t(`funnel.steps.${s.step}`),
          hint: t(`funnel.stepHints.${s.step}`),
          count: s.count,
          countText: number(s.count),
          conversionText: s.conversion === null ? null : t('funnel.ofPrevious', { percent: percent(s.conversion) }),
        }))}
      />
      <p className={cn('mt-4 text-sm', section.bounced > 0 ? 'text-error-700' : 'text-gray-500')} data-testid={`funnel-${id}-bounced`} data-count={section.bounced}>
        {section.bounced > 0 ? t('funnel.bounced', { count: section.bounced }) : t('funnel.noBounce')}
      </p>
    </Card>
  );
}

type BreakdownRow = TFunnelLinkRow | TFunnelLanguageRow;

function BreakdownTable({
  kind,
  title,
  rows,
  empty,
  number,
  percent,
}: { kind: 'link' | 'language'; title: string; rows: BreakdownRow[]; empty: string } & Formatters) {
  const { t } = useTranslation();
  const count = (id: keyof Omit<TFunnelRowCounts, 'conversion'>): DataTableColumn<BreakdownRow> => ({
    id,
    header: t(`funnel.columns.${id}`),
    className: 'text-right tabular-nums',
    cell: (row) => <span data-testid={`cell-${id}`}>{number(row[id])}</span>,
  });
  const columns: DataTableColumn<BreakdownRow>[] = [
    {
      id: 'name',
      header: kind === 'link' ? t('funnel.byLink.name') : t('funnel.byLanguage.language'),
      card: 'title',
      cell: (row) => (
        <span className="font-medium text-gray-900">{'name' in row ? row.name : t(`funnel.languages.${row.language}`)}</span>
      ),
    },
    count('link_opened'),
    count('sent'),
    count('opened'),
    count('device_ok'),
    count('first_answer'),
    count('submitted'),
    count('bounced'),
    {
      id: 'conversion',
      header: t('funnel.columns.conversion'),
      className: 'text-right tabular-nums font-medium',
      cell: (row) => <span data-testid="cell-conversion">{percent(row.conversion)}</span>,
    },
  ];
  return (
    <section aria-labelledby={`funnel-by-${kind}-title`} data-testid={`funnel-by-${kind}`}>
      <h2 id={`funnel-by-${kind}-title`} className="mb-3 text-base font-semibold text-gray-950">
        {title}
      </h2>
      {rows.length === 0 ? (
        <Card tone="muted" padding="sm">
          <p className="text-sm text-gray-600">{empty}</p>
        </Card>
      ) : (
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => ('link_id' in row ? row.link_id : row.language)}
          caption={title}
          rowAttributes={(row) => ({ 'data-testid': `funnel-row`, 'data-key': 'link_id' in row ? row.name : row.language })}
        />
      )}
    </section>
  );
}
