import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { EyeIcon } from '../../../components/icons';
import { DownloadLink, RenderStatus, VersionToggle } from './studio-controls';
import { ExportIcon, IntroIcon, RegenerateIcon, SubtitlesIcon } from '../../../components/icons';
import { downloadName, isPreparing, isRunning, responseActions } from './studio-state';
import { Duration, PanelErrorBoundary, VideoPlayer } from './video-player';

export interface ResponseCardProps {
  response: TTestimonialResponse;
  customerName: string;
  /** When the detail was read: the players' timestamp parameter. */
  stamp: number;
  /** A job runs on the testimonial or on any answer: every action is disabled (spec §4). */
  busy: boolean;
  onIntro: () => void;
  onSubtitles: () => void;
  onView: () => void;
  onExport: () => void;
  onRegenerate: () => void;
  onReload: () => void;
}

type TVersion = 'modified' | 'original';

/**
 * One answer: its question and position, its player (the enhanced version when there is one, the
 * original a click away) and the actions of the spec's matrix (§4). Test ids: `response-card` with
 * `data-response-id`, `answer-video`, `action-intro`, `action-subtitles`, `action-view`,
 * `action-download`, `action-download-original`, `action-export`, `action-regenerate`.
 */
export function ResponseCard({
  response,
  customerName,
  stamp,
  busy,
  onIntro,
  onSubtitles,
  onView,
  onExport,
  onRegenerate,
  onReload,
}: ResponseCardProps) {
  const { t } = useTranslation();
  const actions = responseActions(response);
  const preparing = isPreparing(response);
  const [version, setVersion] = useState<TVersion>('modified');
  const [duration, setDuration] = useState<number | null>(null);
  const modifiedUrl = response.modified_video_url;
  const shown: TVersion = version === 'modified' && modifiedUrl ? 'modified' : 'original';
  const url = shown === 'modified' ? modifiedUrl : response.video_url;
  const disabled = busy || preparing;
  const position = t('testimonialDetail.answer.position', {
    position: response.orderPosition,
  });
  const running = isRunning(response.render_state);

  return (
    <Card
      padding="none"
      className="flex flex-col overflow-hidden"
      data-testid="response-card"
      data-response-id={response.id}
      data-has-modified={modifiedUrl ? 'true' : 'false'}
      aria-labelledby={`question-${response.id}`}
      role="group"
    >
      <div className="flex items-start gap-3 px-4 pt-4 pb-3 sm:px-5">
        <span
          className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800 ring-1 ring-brand-200 tabular-nums"
          aria-hidden="true"
        >
          {response.orderPosition}
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium text-gray-500">{position}</p>
          <h3 id={`question-${response.id}`} className="mt-0.5 text-sm font-semibold break-words text-gray-900">
            {response.question.text}
          </h3>
        </div>
      </div>

      <PanelErrorBoundary fallback={<div className="aspect-video w-full bg-gray-950" />}>
        {url ? (
          <VideoPlayer
            url={url}
            stamp={stamp}
            poster={shown === 'original' ? response.poster_url : null}
            label={`${position}: ${response.question.text}`}
            data-testid="answer-video"
            onReload={onReload}
            onDuration={setDuration}
          />
        ) : (
          <div className="flex aspect-video w-full items-center justify-center bg-gray-950 px-6 text-center text-sm text-gray-300">
            {t('testimonialDetail.answer.noVideo')}
          </div>
        )}
      </PanelErrorBoundary>

      <div className="flex flex-1 flex-col gap-3 px-4 py-3 sm:px-5">
        <div className="flex min-h-7 flex-wrap items-center justify-between gap-2">
          {modifiedUrl ? (
            <VersionToggle<TVersion>
              label={t('testimonialDetail.answer.versionLabel')}
              value={shown}
              onChange={setVersion}
              options={[
                {
                  value: 'modified',
                  label: t('testimonialDetail.answer.enhanced'),
                  testId: 'version-modified',
                },
                {
                  value: 'original',
                  label: t('testimonialDetail.answer.original'),
                  testId: 'version-original',
                },
              ]}
            />
          ) : (
            <span className="text-xs text-gray-500">{t('testimonialDetail.answer.originalOnly')}</span>
          )}
          <div className="flex items-center gap-2">
            {response.intro_generated && modifiedUrl && <Badge tone="brand">{t('testimonialDetail.answer.introBadge')}</Badge>}
            {response.has_subtitles && modifiedUrl && <Badge tone="brand">{t('testimonialDetail.answer.subtitlesBadge')}</Badge>}
            <Duration seconds={duration} />
          </div>
        </div>

        <RenderStatus state={response.render_state} preparing={preparing && !running} />

        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          {actions.view && (
            <Button
              size="sm"
              variant="secondary"
              leadingIcon={<EyeIcon className="size-4" />}
              disabled={busy}
              onClick={onView}
              data-testid="action-view"
            >
              {t('testimonialDetail.actions.view')}
            </Button>
          )}
          {actions.download && (
            <DownloadLink
              url={modifiedUrl}
              fileName={downloadName(customerName, `${response.orderPosition}-enhanced`, modifiedUrl ?? '')}
              disabled={busy}
              data-testid="action-download"
            >
              {t('testimonialDetail.actions.download')}
            </DownloadLink>
          )}
          {actions.export && (
            <Button
              size="sm"
              variant="secondary"
              leadingIcon={<ExportIcon className="size-4" />}
              disabled={disabled}
              onClick={onExport}
              data-testid="action-export"
            >
              {t('testimonialDetail.actions.export')}
            </Button>
          )}
          {actions.intro && (
            <Button
              size="sm"
              variant={modifiedUrl ? 'secondary' : 'primary'}
              leadingIcon={<IntroIcon className="size-4" />}
              disabled={disabled}
              onClick={onIntro}
              data-testid="action-intro"
            >
              {t('testimonialDetail.actions.intro')}
            </Button>
          )}
          {actions.subtitles && (
            <Button
              size="sm"
              variant="secondary"
              leadingIcon={<SubtitlesIcon className="size-4" />}
              disabled={disabled}
              onClick={onSubtitles}
              data-testid="action-subtitles"
            >
              {t('testimonialDetail.actions.subtitles')}
            </Button>
          )}
          {actions.regenerate && (
            <Button
              size="sm"
              variant="ghost"
              leadingIcon={<RegenerateIcon className="size-4" />}
              disabled={disabled}
              onClick={onRegenerate}
              data-testid="action-regenerate"
            >
              {t('testimonialDetail.actions.regenerate')}
            </Button>
          )}
        </div>
      </div>

      {actions.downloadOriginal && (
        <div className="border-t border-gray-100 bg-gray-50/60 px-4 py-2 sm:px-5">
          <DownloadLink
            url={response.video_url}
            fileName={downloadName(customerName, `${response.orderPosition}-original`, response.video_url ?? '')}
            variant="ghost"
            className="-ml-3"
            data-testid="action-download-original"
          >
            {t('testimonialDetail.actions.downloadOriginal')}
          </DownloadLink>
        </div>
      )}
    </Card>
  );
}
