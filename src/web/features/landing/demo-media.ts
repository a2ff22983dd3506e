import type { TLanguage } from '../../../contract/constants.js';

/** The demo video and its poster (1280×720) for a language; the files live in public/media. */
export function demoMedia(lang: TLanguage): { video: string; poster: string } {
  return { video: `/media/demo-${lang}.mp4`, poster: `/media/demo-${lang}.jpg` };
}

/** The page's demo videos carry this attribute, valued with their language. */
export const DEMO_VIDEO_SELECTOR = 'video[data-demo]';

/** Shared `play` handler: whichever demo video starts, every other one on the page pauses. */
export function pauseOtherDemoVideos(current: HTMLVideoElement): void {
  document.querySelectorAll<HTMLVideoElement>(DEMO_VIDEO_SELECTOR).forEach((video) => {
    if (video !== current && !video.paused) video.pause();
  });
}
