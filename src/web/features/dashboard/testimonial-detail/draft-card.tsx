import type { TFunction } from 'i18next';
import type { TDraft, TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';
import { SparkleIcon } from '../../../components/icons';
import { publishAction, publishOf, type TCommon } from './card-content';
import { StudioLockedNote } from './consent-banner';
import { RenderStatus } from './media-status';
import { downloadName } from './studio-state';
import type { VideoCardProps } from './video-card';

export interface DraftCardInput extends TCommon {
  testimonial: TTestimonialRequest;
  draft: TDraft;
  /** Another render of this testimonial is running: every action waits for it (spec §4), as on the other cards. */
  busy?: boolean;
}

/**
 * The draft's card (issue 31, decision 206), first on the detail screen: the video the worker made
 * without being asked, its progress while it renders (followed live), playable and downloadable once
 * ready, and published in one click (the publications call with its job, like any render). Test ids
 * `draft-card`, `draft-video`, `draft-version`, `action-draft-download`, `action-draft-publish`.
 */
export function draftCard(t: TFunction, input: DraftCardInput): VideoCardProps {
  const { testimonial, draft, onReload, locked } = input;
  const busy = Boolean(input.busy);
  const publishing = locked ? undefined : input.publishing;
  const title = t('testimonialDetail.draft.title');
  const ready = draft.phase === 'ready' && Boolean(draft.video_url);
  return {
    'data-testid': 'draft-card',
    data: { 'data-phase': draft.phase },
    layout: 'wide',
    heading: {
      id: 'draft-title',
      level: 'h2',
      title,
      eyebrow: t('testimonialDetail.draft.eyebrow'),
      mark: (
        <span className="flex size-8 shrink-0 items-center justify-center rounded-control bg-brand-50 text-brand-700 ring-1 ring-brand-200">
          <SparkleIcon className="size-4" />
        </span>
      ),
    },
    description: t(draft.subtitled ? 'testimonialDetail.draft.descriptionSubtitled' : 'testimonialDetail.draft.description'),
    versions: [
      {
        value: 'draft',
        label: t('testimonialDetail.draft.version'),
        url: draft.video_url,
        poster: draft.poster_url,
        duration: draft.duration_seconds,
        fileName: downloadName(testimonial.customer_name, 'draft', draft.video_url ?? ''),
        testId: 'draft-version',
        publish: publishOf(publishing, draft.video_url ? { kind: 'render', url: draft.video_url } : null, title, t('testimonialDetail.draft.version')),
      },
    ],
    versionLabel: t('testimonialDetail.answer.versionLabel'),
    singleVersionNote: t('testimonialDetail.draft.single'),
    badges: [t('testimonialDetail.draft.draftBadge'), ...(draft.subtitled ? [t('testimonialDetail.answer.subtitlesBadge')] : [])],
    videoTestId: 'draft-video',
    playerLabel: title,
    noVideoText: t(locked ? 'testimonialDetail.control.noVideo' : draft.phase === 'failed' ? 'testimonialDetail.draft.noVideo' : 'testimonialDetail.draft.making'),
    status: locked ? (
      <StudioLockedNote text={locked} />
    ) : draft.phase !== 'ready' ? (
      <RenderStatus state={{ output: 'draft', jobId: draft.job_id, phase: draft.phase, progress: draft.progress, error: draft.error }} />
    ) : undefined,
    actions: ready ? [{ testId: 'action-draft-download', label: t('testimonialDetail.actions.download'), disabled: Boolean(locked) || busy, downloadShown: true }] : [],
    publishAction: publishAction(t, 'action-draft-publish', Boolean(locked) || busy || !publishing?.ready),
    onReload,
  };
}
