import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PUBLICATION_PAGES, type TPublication } from '../../../../contract/api/publications.schema.js';
import { clock } from '../../../../contract/clock.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useSetPublicationPosterMutation } from '../api/set-publication-poster';

/** Where the slider starts before the video says its length: the automatic frame's moment (posters.ts). */
const AUTO_GUESS_SECONDS = 1.5;

/**
 * The poster of a publication (issue 27 item 12, decision 168): the frame shown before the video plays
 * on its page, in its embed and on the wall. The published video itself is the preview: the slider
 * seeks it, and "Use this frame" asks the server to take that frame as the poster; "Choose
 * automatically" goes back to a moment into the answer. The current poster is shown beside, its address
 * carrying the chosen moment so that a new choice is not hidden by the browser's cache. Test ids:
 * `poster-section`, `poster-current`, `poster-status`, `poster-preview`, `poster-moment`,
 * `poster-position`, `poster-use`, `poster-auto`, `poster-saved`, `poster-error`.
 */
export function PublicationPoster({ publication }: { publication: TPublication }) {
  const { t } = useTranslation();
  const id = useId();
  const video = useRef<HTMLVideoElement>(null);
  const save = useSetPublicationPosterMutation();
  const chosen = publication.posterSeconds ?? null;
  const [duration, setDuration] = useState(publication.durationSeconds ?? 0);
  const [moment, setMoment] = useState(chosen ?? AUTO_GUESS_SECONDS);
  const [ready, setReady] = useState(false);
  const [saved, setSaved] = useState(false);

  const seek = (seconds: number) => {
    setMoment(seconds);
    setSaved(false);
    if (video.current) video.current.currentTime = seconds;
  };
  const use = (seconds: number | null) => save.mutate({ id: publication.id, seconds }, { onSuccess: () => setSaved(true) });
  const max = Math.max(0, Math.floor((duration - 0.1) * 10) / 10);
  const posterUrl = `${PUBLICATION_PAGES.poster(publication.slug)}?t=${chosen ?? 'auto'}-${save.submittedAt}`;

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 border-t border-gray-200 pt-4" data-testid="poster-section">
      <div>
        <h3 id={`${id}-title`} className="text-sm font-medium text-gray-900">
          {t('testimonialDetail.publish.poster.title')}
        </h3>
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-500">
          {t('testimonialDetail.publish.poster.hint')}
        </p>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)_5.5rem] items-start gap-3 sm:grid-cols-[minmax(0,1fr)_7rem]">
        <div className="relative overflow-hidden rounded-control bg-gray-950 ring-1 ring-gray-200">
          <video
            ref={video}
            src={PUBLICATION_PAGES.video(publication.slug)}
            muted
            playsInline
            preload="auto"
            aria-label={t('testimonialDetail.publish.poster.preview', { time: clock(moment) })}
            className="block aspect-video w-full object-contain"
            onLoadedMetadata={(event) => {
              const length = event.currentTarget.duration;
              if (Number.isFinite(length) && length > 0) setDuration(length);
              event.currentTarget.currentTime = Math.min(moment, Number.isFinite(length) ? Math.max(0, length - 0.1) : moment);
            }}
            onSeeked={() => setReady(true)}
            data-testid="poster-preview"
          />
          {!ready ? <p className="absolute inset-0 flex items-center justify-center text-xs text-gray-300">{t('testimonialDetail.publish.poster.loading')}</p> : null}
        </div>
        <figure className="flex flex-col gap-1">
          <img
            src={posterUrl}
            alt={t('testimonialDetail.publish.poster.current')}
            className="aspect-video w-full rounded-control bg-gray-100 object-cover ring-1 ring-gray-200"
            data-testid="poster-current"
          />
          <figcaption className="text-[11px] leading-4 text-gray-600">{t('testimonialDetail.publish.poster.current')}</figcaption>
        </figure>
      </div>
      <div className="flex flex-col gap-1">
        <div className="flex items-baseline justify-between gap-2">
          <label htmlFor={`${id}-moment`} className="text-sm text-gray-800">
            {t('testimonialDetail.publish.poster.moment')}
          </label>
          <span className="text-sm text-gray-600 tabular-nums" data-testid="poster-position">
            {t('testimonialDetail.publish.poster.position', { time: clock(moment), duration: clock(duration) })}
          </span>
        </div>
        <input
          id={`${id}-moment`}
          type="range"
          min={0}
          max={max}
          step={0.1}
          value={Math.min(moment, max)}
          disabled={max <= 0}
          aria-describedby={`${id}-hint`}
          aria-valuetext={clock(moment)}
          onChange={(event) => seek(Number(event.target.value))}
          className="w-full accent-brand-600"
          data-testid="poster-moment"
        />
      </div>
      <p className="text-xs text-gray-600" data-testid="poster-status">
        {chosen === null ? t('testimonialDetail.publish.poster.auto') : t('testimonialDetail.publish.poster.chosen', { time: clock(chosen) })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={() => use(Math.round(moment * 10) / 10)} disabled={save.isPending || max <= 0} data-testid="poster-use">
          {t('testimonialDetail.publish.poster.use')}
        </Button>
        {chosen !== null ? (
          <Button size="sm" variant="ghost" onClick={() => use(null)} disabled={save.isPending} data-testid="poster-auto">
            {t('testimonialDetail.publish.poster.useAuto')}
          </Button>
        ) : null}
      </div>
      <div aria-live="polite">
        {saved && !save.isPending ? (
          <p className="text-xs text-completed-700" data-testid="poster-saved">
            {t('testimonialDetail.publish.poster.saved')}
          </p>
        ) : null}
      </div>
      {save.isError ? (
        <Alert tone="error" data-testid="poster-error">
          {apiErrorMessage(save.error, t)}
        </Alert>
      ) : null}
    </section>
  );
}
