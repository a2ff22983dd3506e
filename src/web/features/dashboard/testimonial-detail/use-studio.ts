import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TRenderJobResponse } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';
import { useLanguage } from '../../../i18n/use-language';
import { isApiError } from '../../../lib/api-client';
import { apiErrorMessage, errorReasonText } from '../../../lib/api-error-message';
import { useGenerateIntroMutation } from '../api/generate-intro';
import { markRenderStarted, testimonialKeys } from '../api/get-testimonial';
import type { TRenderTarget } from '../api/get-testimonial';
import { useMergeMutation } from '../api/merge';
import { isNoCreditsError, usePayTestimonialMutation } from '../api/pay-testimonial';
import { useRegenerateMutation } from '../api/regenerate';
import { useRegenerateMergedMutation } from '../api/regenerate-merged';
import { jobErrorText } from '../jobs/job-reason';
import { isFollowOver, useJob } from '../jobs/use-job';
import type { TBanner } from './studio-banners';
import type { TStudioAction } from './studio-dialogs';

/** Spec §4, §9: success banners disappear after 10 s. */
export const BANNER_MS = 10_000;

/** The dialog open on the page, if any. */
export type TDialog =
  | { kind: 'intro' | 'regenerate' | 'subtitles' | 'view'; response: TTestimonialResponse }
  | { kind: 'export'; response: TTestimonialResponse | null }
  | { kind: 'trim'; response: TTestimonialResponse }
  | { kind: 'merge' | 'regenerate_merged' | 'merged_subtitles' | 'pay' };

/** The render starts that ask first. */
export type TStartKind = 'intro' | 'regenerate' | 'merge' | 'regenerate_merged';
export const isStartKind = (kind: TDialog['kind'] | undefined): kind is TStartKind =>
  kind === 'intro' || kind === 'regenerate' || kind === 'merge' || kind === 'regenerate_merged';

/** A render started from this page, followed (processing dialog, then banner) until it ends. */
export interface Watch {
  action: TStudioAction;
  jobId: string;
  /** When it was started: the slow climb of the progress counts from there. */
  since: number;
  dismissed: boolean;
}

/** Which §8 message a failed start call shows. */
const START_FAILED = {
  intro: 'testimonialDetail.errors.intro',
  regenerate: 'testimonialDetail.errors.regenerate',
  merge: 'testimonialDetail.errors.merge',
  regenerate_merged: 'testimonialDetail.errors.regenerateMerged',
} as const;

/**
 * The studio's state on the detail page: the open dialog, the banner, the render followed from here
 * (through useJob), and the calls that start renders or pay. The banner of a followed render shows
 * once the detail has been read again after it ended, so that its new video is there with it.
 */
export function useStudio(companyId: string, testimonial: TTestimonialRequest | null) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const queryClient = useQueryClient();
  const [watch, setWatch] = useState<Watch | null>(null);
  const [dialog, setDialog] = useState<TDialog | null>(null);
  const [banner, setBanner] = useState<TBanner | null>(null);
  const watched = useJob(watch?.jobId);
  const testimonialId = testimonial?.id ?? '';

  const generateIntro = useGenerateIntroMutation();
  const regenerate = useRegenerateMutation();
  const merge = useMergeMutation();
  const regenerateMerged = useRegenerateMergedMutation();
  const pay = usePayTestimonialMutation();

  const ended = watch !== null && isFollowOver(watched) && watched.status !== 'gaveUp';
  const { status: endStatus, job: endJob, reread } = watched;
  useEffect(() => {
    if (!ended || !watch) return undefined;
    let current = true;
    // The follower read the testimonial again when the job ended (once): the end is told after that read.
    void reread.finally(() => {
      if (!current) return;
      setWatch(null);
      setBanner(
        endStatus === 'ready'
          ? { id: Date.now(), tone: 'success', title: t(`testimonialDetail.success.${watch.action}`) }
          : {
              id: Date.now(),
              tone: 'error',
              title: t('testimonialDetail.errors.jobFailed'),
              message: endStatus === 'cancelled' ? t('jobs.cancelled') : jobErrorText(t, endJob?.error),
            },
      );
    });
    return () => {
      current = false;
    };
  }, [ended, watch, endStatus, endJob, reread, t]);

  useEffect(() => {
    if (banner?.tone !== 'success') return undefined;
    const timer = window.setTimeout(() => setBanner(null), BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [banner]);

  const showBanner = (next: Omit<TBanner, 'id'>) => setBanner({ ...next, id: Date.now() });

  /** Follows a started render: its queued state in the cached detail at once (every action disabled), then its job. */
  const follow = async (action: TStudioAction, target: TRenderTarget, started: TRenderJobResponse) => {
    if (!testimonial) return;
    await markRenderStarted(queryClient, {
      companyId,
      testimonialId: testimonial.id,
      target,
      state: { ...started.state, jobId: started.state.jobId ?? started.jobId },
    });
    setBanner(null);
    setDialog(null);
    setWatch({ action, jobId: started.jobId, since: Date.now(), dismissed: false });
  };

  const confirmStart = async () => {
    if (!testimonial || !dialog || !isStartKind(dialog.kind)) return;
    const kind = dialog.kind;
    const base = { companyId, testimonialId: testimonial.id, language };
    try {
      if (dialog.kind === 'intro' || dialog.kind === 'regenerate') {
        const target: TRenderTarget = { kind: 'response', id: dialog.response.id };
        const mutation = dialog.kind === 'intro' ? generateIntro : regenerate;
        await follow(dialog.kind, target, await mutation.mutateAsync({ ...base, responseId: dialog.response.id }));
      } else {
        const mutation = kind === 'merge' ? merge : regenerateMerged;
        await follow(kind, { kind: 'testimonial' }, await mutation.mutateAsync(base));
      }
    } catch (error) {
      console.warn(`Starting ${kind} failed.`, error);
      setDialog(null);
      showBanner({ tone: 'error', title: t(START_FAILED[kind]), message: startRefusal(error) });
    }
  };

  /**
   * A refusal with a reason the page knows (consent withdrawn, answer removed…) says it; another 409
   * (a render runs, an answer is being prepared) says so; anything else in its own words.
   */
  const startRefusal = (error: unknown) => {
    const reasoned = isApiError(error) ? errorReasonText(error.reason, error.params, t) : null;
    if (reasoned !== null) return reasoned;
    const conflict = isApiError(error) && error.status === 409;
    return conflict ? t('testimonialDetail.errors.conflict') : apiErrorMessage(error, t);
  };

  /** A transcription review started a subtitles render (its answer, or the merged video). */
  const subtitlesStarted = (action: 'subtitles' | 'merged_subtitles', target: TRenderTarget, started: TRenderJobResponse) =>
    void follow(action, target, started);

  const confirmPay = () => {
    if (!testimonial) return;
    pay.mutate(
      { id: testimonial.id, companyId },
      {
        onSuccess: () => {
          setDialog(null);
          showBanner({ tone: 'success', title: t('testimonialDetail.pay.success') });
          void queryClient.invalidateQueries({ queryKey: testimonialKeys.detail(companyId, testimonialId) });
        },
        onError: (error) => {
          console.warn('POST /api/testimonials/pay/{id} failed.', error);
          setDialog(null);
          showBanner(
            isNoCreditsError(error)
              ? { tone: 'error', title: t('testimonialDetail.noCredits.title'), message: t('testimonialDetail.noCredits.description'), buyLink: true }
              : { tone: 'error', title: t('testimonialDetail.pay.error'), message: apiErrorMessage(error, t) },
          );
        },
      },
    );
  };

  return {
    dialog,
    setDialog,
    closeDialog: () => setDialog(null),
    banner,
    closeBanner: () => setBanner(null),
    watch,
    watched,
    dismissWatch: () => setWatch((current) => current && { ...current, dismissed: true }),
    showWatch: () => setWatch((current) => current && { ...current, dismissed: false }),
    confirmStart: () => void confirmStart(),
    startPending: generateIntro.isPending || regenerate.isPending || merge.isPending || regenerateMerged.isPending,
    subtitlesStarted,
    confirmPay,
    payPending: pay.isPending,
  };
}

export type TStudio = ReturnType<typeof useStudio>;
