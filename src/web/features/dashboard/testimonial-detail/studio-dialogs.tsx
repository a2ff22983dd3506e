import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import { Button } from '../../../components/button';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { ClockIcon, MailIcon } from '../../../components/icons';
import { ProgressBar } from '../../../components/progress-bar';
import { formatPercent } from '../../../lib/format';
import { VideoPlayer } from './video-player';

export interface ActionConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** More detail under the description (what will be rendered, how long it takes). */
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending: boolean;
  'data-testid'?: string;
}

/**
 * Asks before a render starts (intro, regenerate, merge, regenerate merged). Its buttons are
 * `confirm-action` and `cancel-action`; while the start call runs the dialog cannot be closed.
 */
export function ActionConfirmDialog({ pending, ...props }: ActionConfirmDialogProps) {
  return <ConfirmDialog {...props} pending={pending} buttonTestIds={{ confirm: 'confirm-action', cancel: 'cancel-action' }} />;
}

export type TStudioAction = 'intro' | 'subtitles' | 'regenerate' | 'merge' | 'regenerate_merged' | 'merge_subtitles';

export interface ProcessingModalProps {
  open: boolean;
  /** Closing it leaves the job running ('continue in the background'). */
  onDismiss: () => void;
  action: TStudioAction;
  /** The job's state as last read (null until the first read). */
  state: TRenderState | null;
  /** 0 to 100: the job's progress when it reports one, else the spec's slow climb. */
  progress: number;
}

/**
 * Says the render has begun, shows its progress, asks to keep the page open and tells that an e-mail
 * arrives when the video is ready (spec §1, §4). Test id `processing-modal`.
 */
export function ProcessingModal({ open, onDismiss, action, state, progress }: ProcessingModalProps) {
  const { t, i18n } = useTranslation();
  const percent = formatPercent(progress, i18n.language);
  const phase = state?.phase === 'rendering' ? 'rendering' : 'queued';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onDismiss();
      }}
      title={t(`testimonialDetail.processing.title.${action}`)}
      description={t('testimonialDetail.processing.description')}
      size="sm"
      data-testid="processing-modal"
      footer={
        <Button variant="secondary" onClick={onDismiss} data-testid="processing-background">
          {t('testimonialDetail.processing.background')}
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <div>
          <div className="mb-2 flex items-center justify-between text-sm">
            <span className="font-medium text-gray-900" data-testid="processing-phase" data-phase={phase}>
              {t(`testimonialDetail.processing.phase.${phase}`)}
            </span>
            <span className="text-gray-600 tabular-nums" data-testid="processing-progress">
              {percent}
            </span>
          </div>
          <ProgressBar value={progress} label={t('testimonialDetail.processing.progressLabel')} valueText={percent} />
        </div>
        <ul className="flex flex-col gap-2 text-sm text-gray-600">
          <li className="flex gap-2">
            <ClockIcon className="mt-0.5 size-4 shrink-0 text-gray-500" />
            {t('testimonialDetail.processing.keepOpen')}
          </li>
          <li className="flex gap-2">
            <MailIcon className="mt-0.5 size-4 shrink-0 text-gray-500" />
            {t('testimonialDetail.processing.email')}
          </li>
        </ul>
      </div>
    </Dialog>
  );
}

export interface VideoModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  url: string | null;
  stamp: number;
  poster?: string | null;
  onReload?: () => void;
}

/** The enhanced version in a larger player (spec §2: video player modal). Test id `video-modal`. */
export function VideoModal({ open, onOpenChange, title, description, url, stamp, poster, onReload }: VideoModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} size="lg" data-testid="video-modal">
      {url && (
        <VideoPlayer
          url={url}
          stamp={stamp}
          poster={poster}
          label={title}
          data-testid="modal-video"
          onReload={onReload}
          className="rounded-control"
        />
      )}
    </Dialog>
  );
}
