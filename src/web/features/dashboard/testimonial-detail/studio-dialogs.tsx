import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { MailIcon } from '../../../components/icons';
import { JobProgress } from '../jobs/job-progress';
import type { JobFollow } from '../jobs/use-job';
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

export type TStudioAction = 'intro' | 'subtitles' | 'regenerate' | 'merge' | 'regenerate_merged' | 'merged_subtitles';

export interface ProcessingModalProps {
  open: boolean;
  /** Closing it leaves the job running ('continue in the background'). */
  onDismiss: () => void;
  action: TStudioAction;
  /** The render's job, followed. */
  follow: JobFollow;
  /** When the person started it: the spec's slow climb counts from there until the job reports more. */
  since: number;
}

/**
 * Says the render has begun, shows its progress, asks to keep the page open and tells that an e-mail
 * arrives when the video is ready (spec §1, §4). Test ids `processing-modal`, `processing-progress`
 * (with data-phase), `processing-background`.
 */
export function ProcessingModal({ open, onDismiss, action, follow, since }: ProcessingModalProps) {
  const { t } = useTranslation();
  const phase = follow.job?.phase === 'running' ? 'running' : 'queued';
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
        <JobProgress follow={follow} since={since} size="md" label={t(`testimonialDetail.processing.phase.${phase}`)} data-testid="processing-progress" />
        <ul className="flex flex-col gap-2 text-sm text-gray-600">
          {/* One promise (issue 27): the page may be left, and the e-mail comes to whoever left, however
              short the render (ready-mail.ts: a render nobody follows is always told about). */}
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
  poster?: string | null;
  onReload?: () => void;
}

/** The enhanced version in a larger player (spec §2: video player modal). Test id `video-modal`. */
export function VideoModal({ open, onOpenChange, title, description, url, poster, onReload }: VideoModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} size="lg" data-testid="video-modal">
      {url && (
        <VideoPlayer
          url={url}
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
