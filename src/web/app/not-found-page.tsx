import { useTranslation } from 'react-i18next';
import { Badge } from '../components/badge';
import { ButtonLink } from '../components/button';
import { Card } from '../components/card';
import { EmptyState } from '../components/empty-state';
import { ArrowLeftIcon, CompassIcon } from '../components/icons';
import { PublicShell } from '../components/public-shell';
import { Seo } from '../components/seo';
import { paths } from '../lib/paths';

/** Any unknown path outside the dashboard. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <Seo title={t('notFound.title')} description={t('notFound.description')} robots="noindex" />
      <Card padding="none" className="animate-fade-in">
        <EmptyState
          headingLevel="h1"
          icon={<CompassIcon className="size-6" />}
          eyebrow={<Badge tone="neutral">{t('notFound.code')}</Badge>}
          title={t('notFound.title')}
          description={<p>{t('notFound.description')}</p>}
          action={
            <ButtonLink to={paths.home} variant="primary" leadingIcon={<ArrowLeftIcon className="size-4" />}>
              {t('common.backHome')}
            </ButtonLink>
          }
        />
      </Card>
    </PublicShell>
  );
}
