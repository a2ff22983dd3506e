import type { TLanguage } from '../../../contract/constants.js';

/** The widths of each poster's WebP files in public/media (scripts/render-demo-assets.ts writes them). */
export const POSTER_WIDTHS = [320, 640, 960, 1280] as const;

/** The posters' frame (16:9): the `width`/`height` of their images, so nothing shifts while they load. */
export const POSTER_SIZE = { width: 1280, height: 720 } as const;

/**
 * How wide each player shows its poster, for the browser's choice in the `srcset`: the hero's player
 * spans the column (max-w-5xl, less the page's and the frame's padding), the other language's is a
 * thumbnail (w-28, sm:w-36).
 */
export const POSTER_SIZES = {
  primary: '(min-width: 1088px) 1006px, calc(100vw - 46px)',
  secondary: '(min-width: 640px) 144px, 112px',
} as const;

/** The demo video, its poster (1280×720 JPEG) and the poster's WebP `srcset` for a language; files in public/media. */
export function demoMedia(lang: TLanguage): { video: string; poster: string; posterSrcSet: string } {
  return {
    video: `/media/demo-${lang}.mp4`,
    poster: `/media/demo-${lang}.jpg`,
    posterSrcSet: POSTER_WIDTHS.map((w) => `/media/demo-${lang}-${w}.webp ${w}w`).join(', '),
  };
}

/**
 * Starts the download of the hero's poster (the landing page's largest paint on a phone) as soon as
 * the app knows the language, before the page's code and messages have arrived. The `<img>` of the
 * hero has the same `srcset` and `sizes`, so the browser uses this response.
 */
export function preloadHeroPoster(lang: TLanguage): void {
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.type = 'image/webp';
  link.setAttribute('imagesrcset', demoMedia(lang).posterSrcSet);
  link.setAttribute('imagesizes', POSTER_SIZES.primary);
  link.setAttribute('fetchpriority', 'high');
  document.head.append(link);
}

/** The page's demo videos carry this attribute, valued with their language. */
export const DEMO_VIDEO_SELECTOR = 'video[data-demo]';

/** Shared `play` handler: whichever demo video starts, every other one on the page pauses. */
export function pauseOtherDemoVideos(current: HTMLVideoElement): void {
  document.querySelectorAll<HTMLVideoElement>(DEMO_VIDEO_SELECTOR).forEach((video) => {
    if (video !== current && !video.paused) video.pause();
  });
}
