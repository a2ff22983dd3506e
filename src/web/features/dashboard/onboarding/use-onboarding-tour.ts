import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS } from '../../../../contract/constants.js';
import { useAuth } from '../../../lib/auth-context';
import { MEDIA } from '../../../lib/use-media-query';
import { useCompleteOnboardingMutation } from '../api/complete-onboarding';
import type { TTourTexts } from './run-tour';

export interface TTourControls {
  /** Opens (true) or closes (false) the sidebar drawer; used on narrow screens only. */
  setDrawerOpen: (open: boolean) => void;
  /** Opens the user menu and keeps it open (true), or lets it go (false). */
  setUserMenuPinned: (pinned: boolean) => void;
}

/** Something the person is using right now (a menu or a dialog other than the drawer): the tour waits. */
const BUSY_SELECTOR = '[role="menu"], [role="dialog"]:not(#dashboard-sidebar), [role="alertdialog"]';
const RETRY_MS = 500;

/** One run per page load, even if the layout mounts again (StrictMode, navigation). */
let runningOrDone = false;

/**
 * Runs the onboarding tour once (spec §2, §4): only when the signed-in user's onboarding_completed
 * is false; about 1200 ms after the dashboard loads (later if a menu or dialog is open then); on
 * narrow screens the drawer opens first. Finishing or leaving calls PUT complete-onboarding and marks
 * the stored user, so a reload does not bring it back.
 */
export function useOnboardingTour(controls: TTourControls): void {
  const { t } = useTranslation();
  const { status, user } = useAuth();
  const complete = useCompleteOnboardingMutation();
  const shouldRun = status === 'authenticated' && user?.onboarding_completed === false;

  // The latest callbacks, read when the tour acts rather than when it was scheduled.
  const latest = useRef({ controls, complete: complete.mutate, t });
  useEffect(() => {
    latest.current = { controls, complete: complete.mutate, t };
  });

  useEffect(() => {
    if (!shouldRun || runningOrDone) return;
    let cancelled = false;
    let dispose: (() => void) | undefined;
    let finished = false;
    let timer: number | undefined;

    const texts = (): TTourTexts => {
      const tr = latest.current.t;
      const progress = (current: number) => tr('onboarding.progress', { current, total: 4 });
      return {
        next: tr('onboarding.next'),
        previous: tr('onboarding.previous'),
        finish: tr('onboarding.finish'),
        skip: tr('onboarding.skip'),
        close: tr('onboarding.close'),
        progress: [progress(1), progress(2), progress(3), progress(4)],
        settings: { title: tr('onboarding.steps.settings.title'), description: tr('onboarding.steps.settings.description') },
        questions: { title: tr('onboarding.steps.questions.title'), description: tr('onboarding.steps.questions.description') },
        requests: { title: tr('onboarding.steps.requests.title'), description: tr('onboarding.steps.requests.description') },
        testimonials: {
          title: tr('onboarding.steps.testimonials.title'),
          description: tr('onboarding.steps.testimonials.description'),
        },
      };
    };

    const start = () => {
      if (cancelled) return;
      if (document.querySelector(BUSY_SELECTOR)) {
        timer = window.setTimeout(start, RETRY_MS);
        return;
      }
      runningOrDone = true;
      const narrow = window.matchMedia(MEDIA.drawer).matches;
      if (narrow) latest.current.controls.setDrawerOpen(true);
      import('./run-tour')
        .then(({ runOnboardingTour }) => {
          if (cancelled) return;
          dispose = runOnboardingTour({
            texts: texts(),
            setUserMenuOpen: (open) => latest.current.controls.setUserMenuPinned(open),
            onEnd: () => {
              finished = true;
              if (window.matchMedia(MEDIA.drawer).matches) latest.current.controls.setDrawerOpen(false);
              latest.current.complete();
            },
          });
        })
        .catch((error: unknown) => {
          // Spec §8: onboarding failures are only logged.
          console.warn('The onboarding tour could not start.', error);
          runningOrDone = false;
        });
    };

    timer = window.setTimeout(start, TIMINGS.onboardingStartMs);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      dispose?.();
      // Stopped before the end (the page went away): it may run again on the next visit.
      if (!finished) runningOrDone = false;
    };
  }, [shouldRun]);
}
