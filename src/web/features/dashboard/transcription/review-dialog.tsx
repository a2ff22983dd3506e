import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { shortTime } from '../../../../contract/subtitles.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { PlusIcon, SubtitlesIcon } from '../../../components/icons';
import { ReviewLoading, type ReviewLoadingProps } from './review-loading';
import type { CuePlayer } from './use-cue-player';

/**
 * One transcript review dialog (decision 179), for a single answer and for the merged video: the
 * dialog, its states (a notice, the loading, the lines) and its footer. What differs between the two
 * reviews (titles, the save button, the data, the test ids) comes in as props.
 */

/** A notice in place of the lines: no engine for the language, or a failure with its retry. */
export interface TReviewNotice {
  tone: 'info' | 'error';
  title: string;
  testId: string;
  text: ReactNode;
  action?: { label: string; icon: ReactNode; onClick: () => void; primary?: boolean; loading?: boolean; testId?: string };
}

export function ReviewNotice({ notice }: { notice: TReviewNotice }) {
  const { action } = notice;
  return (
    <Alert
      tone={notice.tone}
      title={notice.title}
      data-testid={notice.testId}
      action={
        action && (
          <Button
            variant={action.primary ? 'primary' : 'secondary'}
            size="sm"
            leadingIcon={action.icon}
            loading={action.loading}
            onClick={action.onClick}
            data-testid={action.testId}
          >
            {action.label}
          </Button>
        )
      }
    >
      {notice.text}
    </Alert>
  );
}

export interface ReviewPlayerProps {
  /** The ref callback of the player's <video> (from `useCuePlayer`). */
  attachVideo: CuePlayer['attachVideo'];
  /** The player's time, for the add-a-line button. */
  time: number;
  videoUrl: string;
  posterUrl?: string | null | undefined;
  /** Adds a line at the player's time (shown when given). */
  onAddLine?: (() => void) | undefined;
  busy?: boolean;
  /** The player sticks to the top of the dialog while the lines scroll (the single answer's review). */
  sticky?: boolean;
}

/**
 * The answer's video above its lines (decision 166): its time highlights the line showing, a line's
 * time seeks to it, Alt+R replays the current line.
 */
export function ReviewPlayer({ attachVideo, time, videoUrl, posterUrl, onAddLine, busy = false, sticky = false }: ReviewPlayerProps) {
  const { t } = useTranslation();
  const shortcut = <kbd className="rounded border border-gray-300 bg-white px-1.5 py-0.5 font-sans text-xs font-semibold text-gray-800">{t('transcription.player.shortcutKeys')}</kbd>;
  return (
    <div className={sticky ? 'sticky -top-1 z-10 -mx-1 flex flex-col gap-2 bg-white px-1 pt-1 pb-2' : 'flex flex-col gap-2'} data-testid="review-player">
      <video
        ref={attachVideo}
        src={videoUrl}
        poster={posterUrl ?? undefined}
        controls
        playsInline
        preload="metadata"
        className="max-h-36 w-full rounded-card bg-gray-950 object-contain sm:max-h-64"
        aria-label={t('transcription.player.label')}
        data-testid="review-video"
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-gray-600" data-testid="replay-hint">
          {t('transcription.player.shortcutBefore')} {shortcut} {t('transcription.player.shortcutAfter')}
        </p>
        {onAddLine && (
          <Button variant="secondary" size="sm" leadingIcon={<PlusIcon className="size-4" />} onClick={onAddLine} disabled={busy} data-testid="add-cue">
            {t('transcription.typed.addAt', { time: shortTime(time) })}
          </Button>
        )}
      </div>
    </div>
  );
}

export interface ReviewDialogProps {
  onOpenChange(open: boolean): void;
  title: string;
  description: string;
  testId: string;
  /** A render or a save is being started: the dialog cannot be closed, Cancel is off. */
  busy: boolean;
  /** In place of everything else when given. */
  notice: TReviewNotice | null;
  /** While the engine listens (when there is no notice). */
  loading: ReviewLoadingProps | null;
  /** The lines, once ready. */
  children: ReactNode;
  /** Buttons between Cancel and the generate button (the single review's save). */
  extraActions?: ReactNode;
  generate: { label: string; testId: string; onClick: () => void; disabled: boolean; loading: boolean; describedBy?: string | undefined };
}

export function ReviewDialog({ onOpenChange, title, description, testId, busy, notice, loading, children, extraActions, generate }: ReviewDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      size="lg"
      busy={busy}
      title={title}
      description={description}
      data-testid={testId}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {t('dashboard.common.cancel')}
          </Button>
          {extraActions}
          <Button
            variant="primary"
            onClick={generate.onClick}
            disabled={generate.disabled}
            aria-describedby={generate.describedBy}
            loading={generate.loading}
            leadingIcon={<SubtitlesIcon className="size-4" />}
            data-testid={generate.testId}
          >
            {generate.label}
          </Button>
        </>
      }
    >
      {notice ? <ReviewNotice notice={notice} /> : loading ? <ReviewLoading {...loading} /> : children}
    </Dialog>
  );
}
