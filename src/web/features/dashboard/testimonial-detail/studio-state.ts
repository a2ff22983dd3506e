/**
 * The rules of the testimonial detail page (spec §4, detail screen action matrix), as pure functions
 * of the detail call's answer, so that the screen only renders them and the tests read them directly.
 */
import type { TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';

/** A render that has not finished yet (queued or rendering). */
export function isRunning(state: TRenderState | null | undefined): boolean {
  return state?.phase === 'queued' || state?.phase === 'rendering';
}

/** The job running on the testimonial or on any of its answers, if one runs (the first found). */
export function runningJob(testimonial: TTestimonialRequest): TRenderState | null {
  if (testimonial.render_state && isRunning(testimonial.render_state)) return testimonial.render_state;
  for (const response of testimonial.testimonial_responses) {
    if (response.render_state && isRunning(response.render_state)) return response.render_state;
  }
  return null;
}

/** Spec §4: every action is disabled while any job runs, on the testimonial or on any answer. */
export function anyJobRunning(testimonial: TTestimonialRequest): boolean {
  return runningJob(testimonial) !== null;
}

/**
 * An uploaded answer is transcoded (MP4 with faststart, poster) before the studio can use it; until
 * then the original upload plays and has no poster, and the start calls refuse it.
 */
export function isPreparing(response: TTestimonialResponse): boolean {
  return Boolean(response.video_url) && !response.poster_url;
}

/** What the merged card offers (spec §4). */
export interface MergedActions {
  /** The card shows when a merged video or a subtitled merged video exists. */
  show: boolean;
  /** 'Merge' when answers exist and no merged video exists yet. */
  merge: boolean;
  /** Subtitles for the merged video: only when it has none and a merged video exists. */
  subtitles: boolean;
  /** Download, export and regenerate-merged, on the card. */
  download: boolean;
  export: boolean;
  regenerate: boolean;
}

export function mergedActions(testimonial: TTestimonialRequest): MergedActions {
  const hasMerged = Boolean(testimonial.video_url);
  const show = hasMerged || Boolean(testimonial.video_url_subtitles);
  return {
    show,
    merge: testimonial.testimonial_responses.length > 0 && !hasMerged,
    subtitles: hasMerged && !testimonial.has_subtitles,
    download: show,
    export: show,
    regenerate: hasMerged,
  };
}

/** What an answer's card offers (spec §4). */
export interface ResponseActions {
  intro: boolean;
  subtitles: boolean;
  /** With an enhanced version: view, download, export and regenerate. */
  view: boolean;
  download: boolean;
  export: boolean;
  regenerate: boolean;
  /** The customer's original answer, always. */
  downloadOriginal: boolean;
}

/**
 * - With no enhanced version and no job running on it: generate intro or generate subtitles.
 * - With an enhanced version: view, download, export and regenerate; if only the intro exists, offer
 *   subtitles; if only subtitles exist, offer the intro.
 * - The original download is always there (when the answer has a video).
 */
export function responseActions(response: TTestimonialResponse): ResponseActions {
  const modified = Boolean(response.modified_video_url);
  const running = isRunning(response.render_state);
  const hasVideo = Boolean(response.video_url);
  if (!modified) {
    const offer = hasVideo && !running;
    return { intro: offer, subtitles: offer, view: false, download: false, export: false, regenerate: false, downloadOriginal: hasVideo };
  }
  return {
    intro: !response.intro_generated && response.has_subtitles,
    subtitles: response.intro_generated && !response.has_subtitles,
    view: true,
    download: true,
    export: true,
    regenerate: true,
    downloadOriginal: hasVideo,
  };
}

/** The processing modal's progress (spec §4, §9): +1 every 2 s, up to 30, until the job says more. */
export const FALLBACK_STEP_MS = 2_000;
export const FALLBACK_MAX = 30;

/**
 * The value the progress bar shows: the job's real progress when it reports one beyond the fallback's
 * slow climb (renders report their steps), otherwise the fallback, which grows by one point every
 * 2 s up to 30.
 */
export function displayedProgress(state: TRenderState | null | undefined, elapsedMs: number): number {
  const fallback = Math.min(FALLBACK_MAX, Math.floor(Math.max(0, elapsedMs) / FALLBACK_STEP_MS));
  if (state?.phase === 'ready') return 100;
  const real = state && isRunning(state) ? state.progress : 0;
  return Math.round(Math.min(100, Math.max(real, fallback)));
}

/**
 * A media address with a timestamp parameter, so the browser loads it again when it changes (spec §2:
 * video sources carry a timestamp). Our signed addresses already carry a query string.
 */
export function withTimestamp(url: string, stamp: number): string {
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  return `${base}${base.includes('?') ? '&' : '?'}t=${stamp}${hash}`;
}

/** The stored object an address points to (its path), whatever its signature and expiry. */
export function mediaIdentity(url: string): string {
  try {
    return new URL(url, 'http://local').pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** Seconds since the epoch at which a signed address expires (its `exp` parameter), if it says. */
export function mediaExpiry(url: string): number | null {
  try {
    const exp = Number(new URL(url, 'http://local').searchParams.get('exp'));
    return Number.isFinite(exp) && exp > 0 ? exp : null;
  } catch {
    return null;
  }
}

/**
 * Whether a player should take a freshly signed address: when it shows another object, or when the
 * address it plays expires within `marginSeconds`. Otherwise it keeps its source, so that reading the
 * detail again (every 2 s while a job runs) never interrupts a video being watched.
 */
export function shouldRefreshSource(current: string | null, next: string, nowMs: number, marginSeconds = 600): boolean {
  if (!current) return true;
  if (mediaIdentity(current) !== mediaIdentity(next)) return true;
  const exp = mediaExpiry(current);
  return exp !== null && exp * 1000 - nowMs < marginSeconds * 1000;
}

/** mm:ss for a duration in seconds (hh:mm:ss from an hour). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** A file name for a download: the customer, the answer's position and the version. */
export function downloadName(customerName: string, part: string, url: string): string {
  const slug =
    customerName
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'testimonial';
  const extension = /\.(mp4|webm|mov|m4v)$/i.exec(mediaIdentity(url))?.[1]?.toLowerCase() ?? 'mp4';
  return `${slug}-${part}.${extension}`;
}
