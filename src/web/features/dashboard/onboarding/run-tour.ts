/**
 * The onboarding tour itself (spec §2 and §4), with driver.js. Loaded on demand, so driver.js stays
 * out of every other chunk.
 *
 * Part 1: the user menu is opened and its settings entry highlighted (one step, button 'Next').
 * Part 2, 500 ms later: the sidebar's questions, requests and testimonials items (Next, Previous,
 * Finish). A close button and a 'Skip the tour' button end it at any step; so do Escape and a click
 * on the overlay. Overlay opacity 0.7; the highlighted elements cannot be used during the tour.
 */
import { driver } from 'driver.js';
import type { Config, Driver, DriveStep, PopoverDOM } from 'driver.js';
import 'driver.js/dist/driver.css';
import { TIMINGS } from '../../../../contract/constants.js';
import './tour.css';

export interface TTourStepText {
  title: string;
  description: string;
}

export interface TTourTexts {
  next: string;
  previous: string;
  finish: string;
  skip: string;
  close: string;
  /** 'Step {current} of {total}', already filled in, one per step (4 steps). */
  progress: readonly [string, string, string, string];
  settings: TTourStepText;
  questions: TTourStepText;
  requests: TTourStepText;
  testimonials: TTourStepText;
}

export type TTourEnd = 'finished' | 'skipped';

export interface TRunTourOptions {
  texts: TTourTexts;
  /** Opens (true) the user menu and keeps it open for the first step, or closes it (false). */
  setUserMenuOpen: (open: boolean) => void;
  /** Called once when the person finishes or leaves the tour (not when it is disposed). */
  onEnd: (how: TTourEnd) => void;
}

/** Test hooks and selectors of the highlighted elements. */
export const TOUR_TARGETS = {
  settings: '[data-testid="user-menu-settings"]',
  questions: '[data-tour="nav-questions"]',
  requests: '[data-tour="nav-requests"]',
  testimonials: '[data-tour="nav-testimonials"]',
} as const;

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Resolves once `selector` is in the page (or after `timeoutMs`, whatever happens). */
function whenPresent(selector: string, timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const check = () => {
      if (document.querySelector(selector) || Date.now() - started > timeoutMs) resolve();
      else window.requestAnimationFrame(check);
    };
    check();
  });
}

/** Starts the tour; the returned function stops it without calling onEnd (the page is going away). */
export function runOnboardingTour({ texts, setUserMenuOpen, onEnd }: TRunTourOptions): () => void {
  let active: Driver | null = null;
  let disposed = false;
  let ended = false;
  let pending: number | undefined;
  /** Leaves the tour from the 'Skip the tour' button of the current part. */
  let skip: () => void = () => undefined;

  const end = (how: TTourEnd) => {
    if (ended || disposed) return;
    ended = true;
    onEnd(how);
  };

  /** Adds the 'Skip the tour' button and test attributes to each popover. */
  const decorate = (stepIndex: number) => (popover: PopoverDOM) => {
    popover.wrapper.setAttribute('data-testid', 'tour-popover');
    popover.wrapper.setAttribute('data-step', String(stepIndex + 1));
    popover.closeButton.setAttribute('aria-label', texts.close);
    popover.closeButton.setAttribute('data-testid', 'tour-close');
    popover.nextButton.setAttribute('data-testid', 'tour-next');
    popover.previousButton.setAttribute('data-testid', 'tour-previous');
    const skipButton = document.createElement('button');
    skipButton.type = 'button';
    skipButton.className = 'vr-tour-skip';
    skipButton.textContent = texts.skip;
    skipButton.setAttribute('data-testid', 'tour-skip');
    skipButton.addEventListener('click', () => skip());
    popover.footer.insertBefore(skipButton, popover.footer.firstChild);
  };

  const baseConfig = (): Config => ({
    animate: !prefersReducedMotion(),
    overlayOpacity: 0.7,
    disableActiveInteraction: true,
    allowClose: true,
    showProgress: true,
    stagePadding: 4,
    stageRadius: 8,
    popoverClass: 'vr-tour',
    nextBtnText: texts.next,
    prevBtnText: texts.previous,
    doneBtnText: texts.finish,
  });

  const step = (element: string, text: TTourStepText, index: number, extra: Partial<DriveStep['popover']> = {}): DriveStep => ({
    element,
    popover: {
      title: text.title,
      description: text.description,
      progressText: texts.progress[index],
      onPopoverRender: decorate(index),
      ...extra,
    },
  });

  /**
   * Ends a part of the tour and says what comes next. Every way out goes through here: the buttons,
   * the skip button, and (through onDestroyStarted) the close button, Escape and the overlay. driver.js
   * calls its own onDestroyed only once a highlight has finished animating, so it is not relied on.
   */
  const leave = (tour: Driver, then: () => void) => {
    if (active !== tour) return;
    active = null;
    tour.destroy();
    if (!disposed) then();
  };

  /** Part 1: the user menu and its settings entry. */
  async function startUserMenuStep(): Promise<void> {
    setUserMenuOpen(true);
    await whenPresent(TOUR_TARGETS.settings);
    if (disposed) return;
    const toSidebar = () => {
      setUserMenuOpen(false);
      pending = window.setTimeout(startSidebarSteps, TIMINGS.onboardingSidebarDelayMs);
    };
    const skipped = () => {
      setUserMenuOpen(false);
      end('skipped');
    };
    const tour: Driver = driver({
      ...baseConfig(),
      // One step whose button reads 'Next': it leads to the sidebar part.
      doneBtnText: texts.next,
      steps: [step(TOUR_TARGETS.settings, texts.settings, 0, { side: 'left', align: 'start', showButtons: ['next', 'close'] })],
      onDoneClick: () => leave(tour, toSidebar),
      onDestroyStarted: () => leave(tour, skipped),
    });
    active = tour;
    skip = () => leave(tour, skipped);
    tour.drive();
  }

  /** Part 2: the sidebar items. Previous on its first step goes back to the user menu. */
  function startSidebarSteps(): void {
    if (disposed) return;
    const tour: Driver = driver({
      ...baseConfig(),
      steps: [
        // Previous stays enabled on this first sidebar step: it leads back to the user-menu step.
        step(TOUR_TARGETS.questions, texts.questions, 1, { side: 'right', align: 'center', disableButtons: [] }),
        step(TOUR_TARGETS.requests, texts.requests, 2, { side: 'right', align: 'center' }),
        step(TOUR_TARGETS.testimonials, texts.testimonials, 3, { side: 'right', align: 'center' }),
      ],
      onPrevClick: () => {
        if (tour.isFirstStep()) leave(tour, () => void startUserMenuStep());
        else tour.movePrevious();
      },
      onDoneClick: () => leave(tour, () => end('finished')),
      onDestroyStarted: () => leave(tour, () => end('skipped')),
    });
    active = tour;
    skip = () => leave(tour, () => end('skipped'));
    tour.drive();
  }

  void startUserMenuStep();

  return () => {
    disposed = true;
    window.clearTimeout(pending);
    const current = active;
    active = null;
    current?.destroy();
    setUserMenuOpen(false);
  };
}
