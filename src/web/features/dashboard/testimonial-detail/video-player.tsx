import { Component, useEffect, useState } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import { AlertIcon, RefreshIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { formatDuration } from '../../../lib/format';
import { mediaSource } from './studio-state';

/**
 * Only one video plays at a time on the page (spec §2): when any video or audio element starts, every
 * other one is paused, the answers' players, the merged one and those in dialogs alike. 'play' does
 * not bubble, so the listener captures it at the document.
 */
export function useSinglePlayback(): void {
  useEffect(() => {
    const onPlay = (event: Event) => {
      const started = event.target;
      if (!(started instanceof HTMLMediaElement)) return;
      for (const media of document.querySelectorAll<HTMLMediaElement>('video, audio')) {
        if (media !== started && !media.paused) media.pause();
      }
    };
    document.addEventListener('play', onPlay, true);
    return () => document.removeEventListener('play', onPlay, true);
  }, []);
}

export interface VideoPlayerProps {
  /** The signed address (without the timestamp parameter). */
  url: string;
  poster?: string | null;
  /** What the video is, for assistive technology ('Answer 1: What did you like…'). */
  label: string;
  'data-testid'?: string;
  /** Reads the signed addresses again (an expired or refused address). */
  onReload?: () => void;
  /** The length, once the browser knows it. */
  onDuration?: (seconds: number) => void;
  className?: string;
}

/** A 16:9 player on a dark background, the picture contained; a failed load says so and offers a retry. */
export function VideoPlayer({ url, poster, label, 'data-testid': testId, onReload, onDuration, className }: VideoPlayerProps) {
  const { t } = useTranslation();
  const src = mediaSource(url);
  const posterSrc = poster ? mediaSource(poster) : null;
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc !== null && failedSrc === src;

  return (
    <div className={cn('relative aspect-video w-full overflow-hidden bg-gray-950', className)}>
      <video
        data-testid={testId}
        className="size-full object-contain"
        src={src}
        poster={posterSrc ?? undefined}
        controls
        playsInline
        preload="metadata"
        aria-label={label}
        onError={() => setFailedSrc(src)}
        onLoadedMetadata={(event) => {
          const { duration } = event.currentTarget;
          if (Number.isFinite(duration) && duration > 0) onDuration?.(duration);
        }}
      />
      {failed && (
        <div
          role="alert"
          className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-gray-950/90 px-6 text-center text-sm text-gray-100"
        >
          <AlertIcon className="size-6 text-error-500" />
          <p>{t('testimonialDetail.player.loadError')}</p>
          {onReload && (
            <Button variant="inverse" size="sm" leadingIcon={<RefreshIcon className="size-4" />} onClick={onReload}>
              {t('dashboard.common.retry')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** The length of a video as the browser's player shows it (m:ss, formatDuration), in small tabular figures. */
export function Duration({ seconds }: { seconds: number | null }) {
  if (seconds === null) return null;
  return (
    <span className="text-xs text-gray-500 tabular-nums" data-testid="video-duration">
      {formatDuration(seconds)}
    </span>
  );
}

interface BoundaryProps {
  children: ReactNode;
  fallback: ReactNode;
}

/** Keeps a failing player panel from taking the page down (conventions §8: risky panels). */
export class PanelErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A video panel failed to render.', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
