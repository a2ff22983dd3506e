import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../lib/paths';
import { Badge } from './badge';
import { ButtonLink } from './button';
import { Card } from './card';
import { EmptyState } from './empty-state';
import { ArrowLeftIcon, SparkleIcon } from './icons';

export interface PlaceholderPageProps {
  title: string;
  description: string;
  /** Icon in the tile above the title (a sparkle by default). */
  icon?: ReactNode;
  /** A small label above the title; 'Coming soon' by default, null for none. */
  label?: string | null;
  /** Where the action leads (home by default) and its text ('Back to home' by default). */
  actionTo?: string;
  actionLabel?: string;
}

/** A tidy page for a screen that arrives soon: title, one sentence and a way back home. */
export function PlaceholderPage({
  title,
  description,
  icon,
  label,
  actionTo = paths.home,
  actionLabel,
}: PlaceholderPageProps) {
  const { t } = useTranslation();
  const badge = label === undefined ? t('common.comingSoon') : label;
  return (
    <Card padding="none" className="animate-fade-in">
      <EmptyState
        headingLevel="h1"
        icon={icon ?? <SparkleIcon className="size-6" />}
        eyebrow={badge ? <Badge tone="neutral">{badge}</Badge> : undefined}
        title={title}
        description={<p>{description}</p>}
        action={
          <ButtonLink to={actionTo} variant="secondary" leadingIcon={<ArrowLeftIcon className="size-4" />}>
            {actionLabel ?? t('common.backHome')}
          </ButtonLink>
        }
      />
    </Card>
  );
}
