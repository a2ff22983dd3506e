import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { DownloadLink, RenderStatus, VersionToggle } from './studio-controls';
import { ExportIcon, MergeIcon, RegenerateIcon, SubtitlesIcon } from '../../../components/icons';
import { downloadName, isPreparing, mergedActions } from './studio-state';
import { Duration, PanelErrorBoundary, VideoPlayer } from './video-player';

export interface MergedCardProps {
  testimonial: TTestimonialRequest;
  stamp: number;
  busy: boolean;
  onSubtitles: () => void;
  onExport: () => void;
  onRegenerate: () => void;
  onReload: () => void;
}

type TMergedVersion = 'subtitles' | 'plain';

/**
 * The merged video of every answer (spec §2, §4): shown when a merged video or a subtitled one exists;
 * play, download, export, regenerate, and subtitles when it has none. Test ids: `merged-card`,
 * `merged-video`, `action-merged-subtitles`, `action-merged-download`, `action-merged-export`,
 * `action-regenerate-merged`.
 */
export function MergedCard({ testimonial, stamp, busy, onSubtitles, onExport, onRegenerate, onReload }: MergedCardProps) {
  const { t } = useTranslation();
  const actions = mergedActions(testimonial);
  const [version, setVersion] = useState<TMergedVersion>('subtitles');
  const [duration, setDuration] = useState<number | null>(null);
  const both = Boolean(testimonial.video_url && testimonial.video_url_subtitles);
  const shown: TMergedVersion =
    testimonial.video_url_subtitles && (version === 'subtitles' || !testimonial.video_url) ? 'subtitles' : 'plain';
  const url = shown === 'subtitles' ? testimonial.video_url_subtitles : testimonial.video_url;
  const title = t('testimonialDetail.merged.title');

  return (
    <Card padding="none" className="overflow-hidden" data-testid="merged-card" role="group" aria-labelledby="merged-title">
      <div className="grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PanelErrorBoundary fallback={<div className="aspect-video w-full bg-gray-950" />}>
          {url && (
            <VideoPlayer
              url={url}
              stamp={stamp}
              label={title}
              data-testid="merged-video"
              onReload={onReload}
              onDuration={setDuration}
              className="lg:h-full lg:aspect-auto lg:min-h-64"
            />
          )}
        </PanelErrorBoundary>
        <div className="flex flex-col gap-4 p-4 sm:p-5">
          <div>
            <div className="flex flex-wrap items-center gap-2">
              <span className="flex size-8 items-center justify-center rounded-control bg-brand-50 text-brand-700 ring-1 ring-brand-200">
                <MergeIcon className="size-4" />
              </span>
              <h2 id="merged-title" className="text-base font-semibold text-gray-900">
                {title}
              </h2>
              {testimonial.has_subtitles && <Badge tone="brand">{t('testimonialDetail.answer.subtitlesBadge')}</Badge>}
              <span className="ml-auto">
                <Duration seconds={duration} />
              </span>
            </div>
            <p className="mt-2 text-sm text-gray-600">
              {t('testimonialDetail.merged.description', {
                count: testimonial.testimonial_responses.length,
              })}
            </p>
          </div>
          {both && (
            <VersionToggle<TMergedVersion>
              label={t('testimonialDetail.answer.versionLabel')}
              value={shown}
              onChange={setVersion}
              options={[
                {
                  value: 'subtitles',
                  label: t('testimonialDetail.merged.withSubtitles'),
                  testId: 'merged-version-subtitles',
                },
                {
                  value: 'plain',
                  label: t('testimonialDetail.merged.withoutSubtitles'),
                  testId: 'merged-version-plain',
                },
              ]}
            />
          )}
          <RenderStatus state={testimonial.render_state} />
          <div className="mt-auto flex flex-wrap gap-2">
            {actions.subtitles && (
              <Button
                size="sm"
                leadingIcon={<SubtitlesIcon className="size-4" />}
                disabled={busy || testimonial.testimonial_responses.some(isPreparing)}
                onClick={onSubtitles}
                data-testid="action-merged-subtitles"
              >
                {t('testimonialDetail.actions.mergedSubtitles')}
              </Button>
            )}
            {actions.download && (
              <DownloadLink
                url={url}
                fileName={downloadName(testimonial.customer_name, shown === 'subtitles' ? 'merged-subtitles' : 'merged', url ?? '')}
                disabled={busy}
                data-testid="action-merged-download"
              >
                {t('testimonialDetail.actions.download')}
              </DownloadLink>
            )}
            {actions.export && (
              <Button
                size="sm"
                variant="secondary"
                leadingIcon={<ExportIcon className="size-4" />}
                disabled={busy}
                onClick={onExport}
                data-testid="action-merged-export"
              >
                {t('testimonialDetail.actions.export')}
              </Button>
            )}
            {actions.regenerate && (
              <Button
                size="sm"
                variant="ghost"
                leadingIcon={<RegenerateIcon className="size-4" />}
                disabled={busy}
                onClick={onRegenerate}
                data-testid="action-regenerate-merged"
              >
                {t('testimonialDetail.actions.regenerate')}
              </Button>
            )}
          </div>
        </div>
      </div>
    </Card>
  );
}

/** Before any merge: what merging does and the button that starts it (spec §4: 'Merge'). */
export function MergePrompt({ count, busy, onMerge }: { count: number; busy: boolean; onMerge: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      className="flex flex-col gap-4 rounded-card border border-dashed border-gray-300 bg-white p-4 sm:flex-row sm:items-center sm:p-5"
      data-testid="merge-prompt"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-card bg-brand-50 text-brand-700 ring-1 ring-brand-200">
        <MergeIcon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 className="text-base font-semibold text-gray-900">{t('testimonialDetail.merged.promptTitle')}</h2>
        <p className="mt-1 text-sm text-gray-600">{t('testimonialDetail.merged.promptDescription', { count })}</p>
      </div>
      <Button
        leadingIcon={<MergeIcon className="size-4" />}
        disabled={busy}
        onClick={onMerge}
        data-testid="action-merge"
        className="shrink-0"
      >
        {t('testimonialDetail.actions.merge')}
      </Button>
    </div>
  );
}
