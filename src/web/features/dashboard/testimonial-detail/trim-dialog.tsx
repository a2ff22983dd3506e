import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { trimProblem } from '../../../../contract/trim.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { PlayIcon, RefreshIcon } from '../../../components/icons';
import { apiErrorMessage, errorReasonText } from '../../../lib/api-error-message';
import { useSetTrimMutation } from '../api/set-trim';
import { mediaSource } from './studio-state';
import { TrimSlider, trimTime, type TrimRange } from './trim-slider';

export interface TrimDialogProps {
  response: TTestimonialResponse;
  onOpenChange: (open: boolean) => void;
  /** Reads the testimonial again once the trim is saved. */
  onSaved: () => void;
}

/** Whether the answer already has outputs, which keep their old length until they are made again. */
const hasOutputs = (r: TTestimonialResponse) => Boolean(r.modified_video_url || r.short_video_url || r.short_video_url_original || r.exports?.length);

/**
 * Trims an answer (issue 31, decision 201): the recording plays above a range slider of the part kept
 * (TrimSlider: a frame per arrow, a second with Shift); moving a thumb shows its frame, "Play the kept
 * part" plays from the start and stops at the end. Save stores it (PUT …/trim), Reset goes back to the
 * whole answer. The recording itself is kept; videos already made are made again by the company.
 * Test ids `trim-dialog`, `trim-video`, `trim-play`, `trim-save`, `trim-reset`, `trim-error`.
 */
export function TrimDialog({ response, onOpenChange, onSaved }: TrimDialogProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [duration, setDuration] = useState<number | null>(response.duration_seconds ?? null);
  const saved: TrimRange | null = duration ? { start: response.trim_start ?? 0, end: response.trim_end ?? duration } : null;
  const [edited, setRange] = useState<TrimRange | null>(null);
  // The saved trim (or the whole answer) until the person moves a thumb.
  const range = edited ?? saved;
  const [current, setCurrent] = useState(response.trim_start ?? 0);
  const [preview, setPreview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mutation = useSetTrimMutation();
  const position = t('testimonialDetail.answer.position', { position: response.orderPosition });

  // The kept part's preview stops at its end, checked every frame the browser paints.
  useEffect(() => {
    if (!preview || !range) return undefined;
    let frame = 0;
    const tick = () => {
      const v = video.current;
      if (!v) return;
      if (v.currentTime >= range.end || v.paused) {
        v.pause();
        if (v.currentTime >= range.end) v.currentTime = range.end;
        setPreview(false);
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [preview, range]);

  const seek = (seconds: number) => {
    const v = video.current;
    if (v) {
      v.pause();
      v.currentTime = seconds;
    }
    setPreview(false);
    setCurrent(seconds);
  };

  const change = (next: TrimRange, moved: 'start' | 'end') => {
    setRange(next);
    setError(null);
    seek(next[moved]);
  };

  const playKept = () => {
    const v = video.current;
    if (!v || !range) return;
    v.currentTime = range.start;
    setPreview(true);
    void v.play().catch(() => setPreview(false));
  };

  const save = () => {
    if (!range || !duration) return;
    const body = { start: range.start, end: range.end };
    const problem = trimProblem(body, duration);
    if (problem) {
      setError(errorReasonText(problem.reason, problem.params, t));
      return;
    }
    mutation.mutate(
      { responseId: response.id, body },
      {
        onSuccess: () => {
          onSaved();
          onOpenChange(false);
        },
        onError: (e) => setError(apiErrorMessage(e, t)),
      },
    );
  };

  const whole = range && duration ? range.start <= 0.0005 && range.end >= duration - 0.0005 : true;
  const unchanged = range && saved ? Math.abs(range.start - saved.start) < 0.0005 && Math.abs(range.end - saved.end) < 0.0005 : true;

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={t('testimonialDetail.trim.title', { position: response.orderPosition })}
      description={t('testimonialDetail.trim.description')}
      size="lg"
      busy={mutation.isPending}
      data-testid="trim-dialog"
      footer={
        <div className="flex w-full flex-col-reverse gap-2 sm:flex-row sm:justify-between">
          <Button variant="ghost" leadingIcon={<RefreshIcon className="size-4" />} onClick={() => duration && change({ start: 0, end: duration }, 'start')} disabled={whole || mutation.isPending} data-testid="trim-reset">
            {t('testimonialDetail.trim.reset')}
          </Button>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={mutation.isPending}>
              {t('testimonialDetail.trim.cancel')}
            </Button>
            <Button onClick={save} disabled={!range || unchanged} loading={mutation.isPending} data-testid="trim-save">
              {t('testimonialDetail.trim.save')}
            </Button>
          </div>
        </div>
      }
    >
      <div className="flex flex-col gap-4">
        <div className="relative aspect-video w-full overflow-hidden rounded-control bg-gray-950">
          {response.video_url && (
            <video
              ref={video}
              data-testid="trim-video"
              className="size-full object-contain"
              src={mediaSource(response.video_url)}
              poster={response.poster_url ? mediaSource(response.poster_url) : undefined}
              controls
              playsInline
              preload="auto"
              aria-label={`${position}: ${response.question.text}`}
              onLoadedMetadata={(event) => {
                const d = event.currentTarget.duration;
                if (!duration && Number.isFinite(d) && d > 0) setDuration(d);
                if (range) event.currentTarget.currentTime = range.start;
              }}
              onTimeUpdate={(event) => setCurrent(event.currentTarget.currentTime)}
              onSeeked={(event) => setCurrent(event.currentTarget.currentTime)}
            />
          )}
        </div>
        {range && duration ? (
          <>
            <TrimSlider
              duration={duration}
              value={range}
              onChange={change}
              current={current}
              label={t('testimonialDetail.trim.range')}
              startLabel={t('testimonialDetail.trim.startThumb')}
              endLabel={t('testimonialDetail.trim.endThumb')}
              disabled={mutation.isPending}
            />
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
              {[
                ['start', range.start],
                ['end', range.end],
                ['kept', range.end - range.start],
                ['now', current],
              ].map(([key, seconds]) => (
                <div key={key} className="rounded-control bg-gray-50 px-3 py-2 ring-1 ring-gray-200 ring-inset">
                  <dt className="text-xs text-gray-500">{t(`testimonialDetail.trim.${key as 'start' | 'end' | 'kept' | 'now'}`)}</dt>
                  <dd className="font-medium text-gray-900 tabular-nums" data-testid={`trim-${key}-time`}>
                    {trimTime(seconds as number)}
                  </dd>
                </div>
              ))}
            </dl>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <Button variant="secondary" size="sm" leadingIcon={<PlayIcon className="size-4" />} onClick={playKept} data-testid="trim-play">
                {t('testimonialDetail.trim.playKept')}
              </Button>
              <p className="text-xs text-gray-500">{t('testimonialDetail.trim.keyboard')}</p>
            </div>
          </>
        ) : null}
        {hasOutputs(response) && (
          <Alert tone="info" data-testid="trim-remake">
            {t('testimonialDetail.trim.remake')}
          </Alert>
        )}
        {error && (
          <Alert tone="error" data-testid="trim-error">
            {error}
          </Alert>
        )}
      </div>
    </Dialog>
  );
}
