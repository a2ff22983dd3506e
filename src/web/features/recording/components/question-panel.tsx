import { useLayoutEffect, useRef, useState } from 'react';
import type { Ref } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { cn } from '../../../lib/cn';

/**
 * The type of a question by its length (decision 159): a long question steps down a size, so that on
 * a phone it shows whole above the camera. Sizes from the interface's scale (20/24, 18/20, 16/18 px).
 */
export function questionTypeClass(length: number): string {
  if (length <= 100) return 'text-xl sm:text-2xl';
  if (length <= 250) return 'text-lg sm:text-xl';
  return 'text-base sm:text-lg';
}

export interface QuestionPanelProps {
  text: string;
  bgColor: string;
  tone: 'light' | 'dark';
  /** The heading (focused when the question opens). */
  headingRef?: Ref<HTMLHeadingElement>;
}

/**
 * The question on the request's colour, above the camera. It may grow to what the stage can give it
 * and still leave the camera its minimum and the buttons in view (decision 159: 26rem is the rest of
 * the stage with the preview's buttons, 10rem of camera included), never less than a third of the
 * screen. A question still longer scrolls inside it, and says so: a fade over its last line and a
 * 'scroll for the rest' cue, both laid over the panel (no layout shift), gone once read to the end.
 */
export function QuestionPanel({ text, bgColor, tone, headingRef }: QuestionPanelProps) {
  const { t } = useRecordingT();
  const scrollerRef = useRef<HTMLElement>(null);
  /** The text is taller than the panel (it scrolls), and what is left below the visible part. */
  const [overflow, setOverflow] = useState({ scrolls: false, more: false });

  // Measured before the first paint, then on every change of size and on scrolling.
  useLayoutEffect(() => {
    const panel = scrollerRef.current;
    if (!panel) return;
    const measure = () => {
      const scrolls = panel.scrollHeight - panel.clientHeight > 1;
      const more = scrolls && panel.scrollHeight - panel.clientHeight - panel.scrollTop > 4;
      setOverflow((now) => (now.scrolls === scrolls && now.more === more ? now : { scrolls, more }));
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(panel);
    if (panel.firstElementChild) observer?.observe(panel.firstElementChild);
    panel.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer?.disconnect();
      panel.removeEventListener('scroll', measure);
    };
  }, [text]);

  return (
    <div className="relative mt-2 overflow-hidden rounded-card sm:mt-3" style={{ backgroundColor: bgColor }}>
      <section
        ref={scrollerRef}
        // Focusable only when it scrolls, so that a keyboard can scroll it too.
        tabIndex={overflow.scrolls ? 0 : undefined}
        aria-label={overflow.scrolls ? t('recording.question.scrollLabel') : undefined}
        className="max-h-[max(32svh,calc(100svh_-_var(--stage-top,7.5rem)_-_26rem))] overflow-y-auto overscroll-contain px-5 py-4 outline-offset-[-3px] sm:px-8"
        data-testid="question-panel"
        data-scrolls={overflow.scrolls || undefined}
      >
        <h1
          ref={headingRef}
          tabIndex={-1}
          className={cn(
            'leading-snug font-semibold tracking-tight outline-none',
            questionTypeClass(text.length),
            tone === 'light' ? 'text-white' : 'text-gray-950',
          )}
          data-testid="question-text"
        >
          {text}
        </h1>
      </section>
      {overflow.more && (
        <div
          className="pointer-events-none absolute inset-x-0 bottom-0 flex h-14 items-end justify-center pb-2"
          style={{ backgroundImage: `linear-gradient(to bottom, transparent, ${bgColor} 70%)` }}
          aria-hidden="true"
          data-testid="question-more"
        >
          <span className="flex items-center gap-1 rounded-full bg-gray-950/75 px-3 py-1 text-xs font-medium text-white">
            {t('recording.question.scrollMore')}
            <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
              <path d="M8 3v10M4 9l4 4 4-4" />
            </svg>
          </span>
        </div>
      )}
    </div>
  );
}
