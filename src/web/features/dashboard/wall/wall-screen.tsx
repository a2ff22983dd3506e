import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TWall, TWallItem } from '../../../../contract/api/wall.schema.js';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button, ButtonLink, buttonClasses } from '../../../components/button';
import { Card } from '../../../components/card';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { ArrowRightIcon, ExternalIcon, VideoIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Seo } from '../../../components/seo';
import { Skeleton } from '../../../components/skeleton';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { paths } from '../../../lib/paths';
import { CopyField } from '../../../components/copy-field';
import { useWall } from './get-wall';
import { useSetWallMutation } from './set-wall';
import { move, sameOrder, toggle, wallOrderOf } from './wall-order';
import { OffRow, SortableWallList } from './wall-list';

function WallSkeleton() {
  return (
    <div className="flex flex-col gap-6" aria-hidden="true" data-testid="wall-loading">
      <Card padding="none">
        {[0, 1, 2].map((row) => (
          <div key={row} className="flex items-center gap-3 border-b border-gray-100 px-4 py-3 last:border-b-0">
            <Skeleton className="size-6 rounded-full" />
            <Skeleton className="h-[72px] w-[54px]" />
            <div className="flex flex-1 flex-col gap-2">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-3 w-1/2" />
            </div>
            <Skeleton className="h-6 w-10 rounded-full" />
          </div>
        ))}
      </Card>
      <Card>
        <Skeleton className="mb-3 h-4 w-32" />
        <Skeleton className="h-10 w-full" />
      </Card>
    </div>
  );
}

function PreviewLink({ wall }: { wall: TWall }) {
  const { t } = useTranslation();
  return (
    <a href={wall.url} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: 'secondary' })} data-testid="wall-preview">
      <ExternalIcon className="size-4" />
      {t('wall.preview')}
      <span className="sr-only"> {t('wall.list.newTab')}</span>
    </a>
  );
}

/**
 * The Wall screen (issue 19): the company's published videos, with a switch "Show on wall"; the chosen
 * ones in their order, reordered by drag and drop or by keyboard; Save (one PUT, all or nothing) and
 * Discard; the wall's link, its script snippet and its iframe snippet, each with Copy; a preview link.
 * Test ids: `wall-screen`, `wall-loading`, `wall-error`, `wall-empty`, `wall-row` / `wall-off-row`
 * (data-id), `wall-handle`, `wall-switch`, `wall-save`, `wall-discard`, `wall-dirty`, `wall-preview`,
 * `wall-link`, `wall-copy-link`, `wall-snippet`, `wall-copy-snippet`, `wall-iframe`, `wall-copy-iframe`.
 */
export function WallScreen() {
  const { t } = useTranslation();
  const wall = useWall();
  const save = useSetWallMutation();
  const saved = useMemo(() => wallOrderOf(wall.data?.items ?? []), [wall.data]);
  const [order, setOrder] = useState<string[] | null>(null);
  const current = order ?? saved;
  const dirty = order !== null && !sameOrder(order, saved);

  useEffect(() => {
    if (wall.error) console.warn('GET /api/wall failed.', wall.error);
  }, [wall.error]);

  // Leaving with unsaved changes asks first (the browser's own dialog).
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const byId = useMemo(() => new Map((wall.data?.items ?? []).map((item) => [item.publicationId, item])), [wall.data]);
  const onWall = current.map((id) => byId.get(id)).filter((item): item is TWallItem => Boolean(item));
  const offWall = (wall.data?.items ?? []).filter((item) => !current.includes(item.publicationId));

  const onSave = () => {
    if (save.isPending) return;
    save.mutate(
      { items: current },
      {
        onSuccess: () => {
          setOrder(null);
          toast.success(t('wall.saved'));
        },
        onError: (error) => {
          console.warn('PUT /api/wall failed.', error);
          toast.error(apiErrorMessage(error, t));
          void wall.refetch();
        },
      },
    );
  };

  const header = (
    <PageHeader
      title={t('wall.title')}
      description={t('wall.description')}
      actions={wall.data && wall.data.items.length > 0 ? <PreviewLink wall={wall.data} /> : undefined}
    />
  );

  let body;
  if (wall.isPending) {
    body = <WallSkeleton />;
  } else if (wall.isError) {
    body = (
      <ErrorState message={t('wall.loadError')} onRetry={() => void wall.refetch()} retrying={wall.isFetching} data-testid="wall-error" />
    );
  } else if (wall.data.items.length === 0) {
    body = (
      <Card data-testid="wall-empty">
        <EmptyState
          icon={<VideoIcon className="size-6" />}
          title={t('wall.empty.title')}
          description={<p className="text-sm">{t('wall.empty.description')}</p>}
          action={
            <ButtonLink to={paths.dashboard.testimonials} variant="primary" trailingIcon={<ArrowRightIcon className="size-4" />}>
              {t('wall.empty.action')}
            </ButtonLink>
          }
        />
      </Card>
    );
  } else {
    const data = wall.data;
    body = (
      <div className="flex flex-col gap-6">
        <Card padding="none" className="overflow-hidden">
          <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-gray-200 bg-gray-50 px-4 py-3 sm:px-6">
            <div>
              <h2 className="text-sm font-semibold text-gray-900">
                {t('wall.list.onTitle')}
                <span className="ml-2 font-normal text-gray-500 tabular-nums">{onWall.length}</span>
              </h2>
              {onWall.length > 1 && <p className="text-xs text-gray-500">{t('wall.list.dragHint')}</p>}
            </div>
            <div className="flex items-center gap-2">
              {dirty && (
                <Badge tone="pending" dot data-testid="wall-dirty">
                  {t('wall.unsaved')}
                </Badge>
              )}
              <Button variant="ghost" size="sm" onClick={() => setOrder(null)} disabled={!dirty || save.isPending} data-testid="wall-discard">
                {t('wall.discard')}
              </Button>
              <Button size="sm" onClick={onSave} disabled={!dirty} loading={save.isPending} data-testid="wall-save">
                {t('wall.save')}
              </Button>
            </div>
          </div>
          {onWall.length ? (
            <SortableWallList
              items={onWall}
              onReorder={(from, to) => setOrder(move(current, from, to))}
              onToggle={(item, on) => setOrder(toggle(current, item.publicationId, on))}
            />
          ) : (
            <p className="px-4 py-6 text-center text-sm text-gray-600 sm:px-6" data-testid="wall-none-shown">
              {t('wall.list.noneShown')}
            </p>
          )}
          {offWall.length > 0 && (
            <>
              <h2 className="border-y border-gray-200 bg-gray-50 px-4 py-3 text-sm font-semibold text-gray-900 sm:px-6">
                {t('wall.list.offTitle')}
                <span className="ml-2 font-normal text-gray-500 tabular-nums">{offWall.length}</span>
              </h2>
              <ul className="flex flex-col" aria-label={t('wall.list.offLabel')}>
                {offWall.map((item) => (
                  <OffRow key={item.publicationId} item={item} onToggle={(on) => setOrder(toggle(current, item.publicationId, on))} />
                ))}
              </ul>
            </>
          )}
        </Card>

        {save.isError && (
          <Alert tone="error" title={t('wall.saveErrorTitle')}>
            {apiErrorMessage(save.error, t)}
          </Alert>
        )}

        <Card padding="none" className="p-4 sm:p-6">
          <h2 className="text-base font-semibold text-gray-900">{t('wall.share.title')}</h2>
          <p className="mt-1 mb-5 text-sm text-gray-600">{t('wall.share.description')}</p>
          <div className="flex flex-col gap-5">
            <CopyField
              label={t('wall.share.link')}
              hint={t('wall.share.linkHint')}
              value={data.url}
              copyLabel={t('wall.share.copy')}
              testId="wall-link"
              copyTestId="wall-copy-link"
            />
            <CopyField
              label={t('wall.share.snippet')}
              hint={t('wall.share.snippetHint')}
              value={data.snippet}
              copyLabel={t('wall.share.copy')}
              multiline
              testId="wall-snippet"
              copyTestId="wall-copy-snippet"
            />
            <CopyField
              label={t('wall.share.iframe')}
              hint={t('wall.share.iframeHint')}
              value={data.iframeSnippet}
              copyLabel={t('wall.share.copy')}
              multiline
              testId="wall-iframe"
              copyTestId="wall-copy-iframe"
            />
          </div>
        </Card>
      </div>
    );
  }

  return (
    <div data-testid="wall-screen">
      <Seo title={t('wall.title')} description={t('wall.description')} robots="noindex" />
      {header}
      {body}
    </div>
  );
}
