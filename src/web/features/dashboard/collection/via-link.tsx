import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LinkIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { collectionLinksQueryOptions } from './collection-api';

/**
 * 'Via <link name>' for a testimonial that came through a collection link (issue 30), from the
 * company's links (one cached query for a whole list). Nothing for other testimonials, or once the
 * link is deleted. Test id: `via-link`.
 */
export function ViaLink({ linkId, className }: { linkId: string | null | undefined; className?: string }) {
  const { t } = useTranslation();
  const links = useQuery({ ...collectionLinksQueryOptions(), enabled: Boolean(linkId), staleTime: 60_000 });
  const link = linkId ? links.data?.find((l) => l.id === linkId) : undefined;
  if (!link) return null;
  return (
    <span className={cn('inline-flex max-w-full items-center gap-1 text-xs text-brand-800', className)} data-testid="via-link">
      <LinkIcon className="size-3.5 shrink-0" />
      <span className="truncate">{t('collectionLinks.viaLink', { name: link.name })}</span>
    </span>
  );
}
