import type { ComponentType, ReactNode, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/button';
import { Card } from '../../../components/card';
import { ArrowRightIcon, CheckCircleIcon, ClockIcon, CoinsIcon, QuestionsIcon, SendIcon, VideoIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { useAuth } from '../../../lib/auth-context';
import { creditForm } from '../../../lib/credits';
import { paths } from '../../../lib/paths';
import { useRole } from '../../../lib/use-role';
import { useStats } from '../api/get-stats';

interface StatCardProps {
  to: string;
  label: string;
  value: number | undefined;
  loading: boolean;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  hint: string;
  testId: string;
}

/** A number that leads to its screen. */
function StatCard({ to, label, value, loading, icon: Icon, hint, testId }: StatCardProps) {
  return (
    <Link
      to={to}
      data-testid={testId}
      className="group flex flex-col rounded-card border border-gray-200 bg-white p-5 transition-colors hover:border-gray-300 hover:bg-gray-50"
    >
      <span className="flex items-center justify-between gap-3">
        <span className="text-sm font-medium text-gray-600">{label}</span>
        <Icon className="size-5 text-gray-400 transition-colors group-hover:text-brand-700" />
      </span>
      <div className="mt-3 text-2xl font-semibold tracking-tight text-gray-950 tabular-nums" aria-busy={loading || undefined}>
        {loading ? <Skeleton className="h-10 w-16" /> : (value ?? '–')}
      </div>
      <span className="mt-2 text-xs text-gray-500">{hint}</span>
    </Link>
  );
}

/** The overview (spec §2): the credit balance and four clickable numbers. Stats errors are only logged. */
export function OverviewScreen() {
  const { t } = useTranslation();
  const { can } = useRole();
  const { user } = useAuth();
  const { data, isPending } = useStats(user?.company_id);
  const loading = isPending && Boolean(user?.company_id);
  const credits = data?.credits;
  const firstname = user?.firstname.trim();

  let balance: ReactNode;
  if (loading) balance = <Skeleton className="h-6 w-56" />;
  else if (credits === undefined) balance = <span className="text-gray-600">{t('dashboard.overview.creditsUnknown')}</span>;
  else balance = t(`dashboard.overview.credits.${creditForm(credits)}`, { count: credits });

  return (
    <>
      <Seo title={t('dashboard.overview.title')} description={t('dashboard.overview.description')} robots="noindex" />
      <PageHeader
        title={firstname ? t('dashboard.overview.welcome', { name: firstname }) : t('dashboard.overview.title')}
        description={t('dashboard.overview.description')}
        actions={
          can('sendRequest') ? (
            <ButtonLink to={paths.dashboard.requests} leadingIcon={<SendIcon className="size-4" />} data-testid="overview-send-request">
              {t('dashboard.overview.sendRequest')}
            </ButtonLink>
          ) : undefined
        }
      />

      <Card padding="none" className="mb-6 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <CoinsIcon className="size-5" />
          </span>
          <div className="min-w-0">
            <div className="text-base font-semibold text-gray-950 tabular-nums" data-testid="credit-balance">
              {balance}
            </div>
            <p className="text-sm text-gray-600">{t('dashboard.overview.creditsHint')}</p>
          </div>
        </div>
        {can('buyCredits') && (
          <ButtonLink to={paths.dashboard.payment} variant="secondary" trailingIcon={<ArrowRightIcon className="size-4" />}>
            {t('dashboard.header.buyCredits')}
          </ButtonLink>
        )}
      </Card>

      <h2 className="sr-only">{t('dashboard.overview.statsTitle')}</h2>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          to={paths.dashboard.questions}
          label={t('dashboard.overview.stats.questions')}
          hint={t('dashboard.overview.stats.questionsHint')}
          value={data?.questions}
          loading={loading}
          icon={QuestionsIcon}
          testId="stat-questions"
        />
        <StatCard
          to={paths.dashboard.testimonials}
          label={t('dashboard.overview.stats.testimonials')}
          hint={t('dashboard.overview.stats.testimonialsHint')}
          value={data?.testimonials}
          loading={loading}
          icon={VideoIcon}
          testId="stat-testimonials"
        />
        <StatCard
          to={paths.dashboard.testimonials}
          label={t('dashboard.overview.stats.pending')}
          hint={t('dashboard.overview.stats.pendingHint')}
          value={data?.requested}
          loading={loading}
          icon={ClockIcon}
          testId="stat-pending"
        />
        <StatCard
          to={paths.dashboard.testimonials}
          label={t('dashboard.overview.stats.completed')}
          hint={t('dashboard.overview.stats.completedHint')}
          value={data?.completed}
          loading={loading}
          icon={CheckCircleIcon}
          testId="stat-completed"
        />
      </div>
    </>
  );
}
