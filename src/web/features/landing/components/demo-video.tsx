import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLanguage } from '../../../../contract/constants.js';
import { AlertIcon, PlayIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { demoMedia, pauseOtherDemoVideos, POSTER_SIZE, POSTER_SIZES } from '../demo-media';

export interface DemoVideoProps {
  /** Language of the video: picks /media/demo-{lang}.mp4 and its poster. */
  lang: TLanguage;
  /** 'primary' is the hero's large player, 'secondary' the small one in the other language. */
  variant?: 'primary' | 'secondary';
  /** Called once the visitor starts the video (the secondary player grows then). */
  onStart?: () => void;
  className?: string;
}

type TState = 'idle' | 'started' | 'error';

/**
 * A poster with a large play button; pressing it plays the video with its native controls. The
 * poster is an image laid over the video (the `poster` attribute has no `srcset`) until it starts.
 * Each video carries data-demo="{lang}" and the shared `play` handler pauses the other ones.
 * Test ids: the play buttons are `demo-play-en` and `demo-play-fr`.
 */
export function DemoVideo({ lang, variant = 'primary', onStart, className }: DemoVideoProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<TState>('idle');
  const media = demoMedia(lang);
  const primary = variant === 'primary';

  const start = async () => {
    const video = videoRef.current;
    if (!video) return;
    setState('started');
    onStart?.();
    video.focus({ preventScroll: true });
    try {
      await video.play();
    } catch (error) {
      // A pause or a source change interrupting play() is not a failure.
      if (!(error instanceof DOMException && error.name === 'AbortError')) setState('error');
    }
  };

  return (
    <div
      className={cn(
        'relative aspect-video overflow-hidden bg-gray-900 bg-[radial-gradient(ellipse_at_30%_20%,var(--color-gray-700),var(--color-gray-950)_70%)]',
        primary ? 'rounded-control' : 'rounded-[6px]',
        className,
      )}
    >
      <video
        ref={videoRef}
        data-demo={lang}
        lang={lang}
        src={media.video}
        preload="none"
        playsInline
        controls={state === 'started'}
        aria-label={t(`landing.demo.video.${lang}`)}
        tabIndex={state === 'started' ? 0 : -1}
        onPlay={(event) => pauseOtherDemoVideos(event.currentTarget)}
        onError={() => setState('error')}
        className="absolute inset-0 size-full object-cover"
      />
      {state !== 'started' && (
        // The poster, sized for the screen (WebP srcset): the hero's is the page's largest paint on a
        // phone, fetched first (main.tsx preloads it); the other language's waits until it is near.
        <img
          src={media.poster}
          srcSet={media.posterSrcSet}
          sizes={POSTER_SIZES[variant]}
          width={POSTER_SIZE.width}
          height={POSTER_SIZE.height}
          alt=""
          decoding="async"
          loading={primary ? 'eager' : 'lazy'}
          fetchPriority={primary ? 'high' : 'auto'}
          className="absolute inset-0 size-full object-cover"
        />
      )}

      {state === 'idle' && (
        <button
          type="button"
          data-testid={`demo-play-${lang}`}
          aria-label={t(`landing.demo.play.${lang}`)}
          onClick={() => void start()}
          className="group absolute inset-0 flex items-end justify-start bg-linear-to-t from-gray-950/50 via-transparent to-transparent focus-visible:outline-offset-[-4px]"
        >
          {primary ? (
            <span className="m-3 flex items-center gap-3 rounded-full bg-gray-950/75 p-1.5 text-white sm:pr-5 backdrop-blur-sm transition-colors group-hover:bg-gray-950/90 sm:m-6 sm:py-2 sm:pl-2">
              <span className="flex size-10 items-center justify-center rounded-full bg-white text-brand-700 transition-transform duration-200 group-hover:scale-105 motion-reduce:transition-none sm:size-14">
                <PlayIcon className="ml-0.5 size-5 sm:size-6" />
              </span>
              <span aria-hidden="true" className="hidden text-base font-medium sm:inline">
                {t('landing.demo.watch')}
              </span>
            </span>
          ) : (
            <span className="m-1.5 flex size-8 items-center justify-center rounded-full bg-white text-brand-700 ring-1 ring-black/10 transition-transform duration-200 group-hover:scale-105 motion-reduce:transition-none">
              <PlayIcon className="ml-0.5 size-4" />
            </span>
          )}
        </button>
      )}

      {state === 'error' && (
        <div
          role="status"
          className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-gray-950/85 p-4 text-center text-sm text-white"
        >
          <AlertIcon className={primary ? 'size-6' : 'size-4'} />
          {primary && <p className="max-w-xs">{t('landing.demo.unavailable')}</p>}
          {!primary && <span className="sr-only">{t('landing.demo.unavailable')}</span>}
        </div>
      )}
    </div>
  );
}
