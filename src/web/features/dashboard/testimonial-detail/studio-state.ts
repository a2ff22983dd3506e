/**
 * The rules of the testimonial detail page (spec §4, detail screen action matrix), as pure functions
 * of the detail call's answer, so that the screen only renders them and the tests read them directly.
 */
import { EXPORT_PLATFORM_SPECS, type TRenderState } from '../../../../contract/api/studio.schema.js';
import type { TStoredExport, TTestimonialRequest, TTestimonialResponse } from '../../../../contract/api/testimonials.schema.js';

/** A render that has not finished yet (queued or running). */
export function isRunning(state: TRenderState | null | undefined): boolean {
  return state?.phase === 'queued' || state?.phase === 'running';
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

/** Where an answer's upload stands on its way to a playable video (its transcode job, issue 16). */
export type TMediaStatus = 'preparing' | 'failed' | 'ready';

/**
 * An uploaded answer is transcoded (MP4 with faststart, poster) before anyone plays it: until then its
 * `video_url` is null and the card says it is being prepared; a failed transcode says why. An answer
 * without `media` (an older server) is preparing while it has a video but no poster yet.
 */
export function mediaStatus(response: TTestimonialResponse): TMediaStatus {
  const { media } = response;
  if (!media) return response.video_url && !response.poster_url ? 'preparing' : 'ready';
  if (media.phase === 'queued' || media.phase === 'running') return 'preparing';
  return media.phase === 'ready' ? 'ready' : 'failed';
}

export function isPreparing(response: TTestimonialResponse): boolean {
  return mediaStatus(response) === 'preparing';
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
 * - The original download is always there (when the answer has a prepared video).
 */
export function responseActions(response: TTestimonialResponse): ResponseActions {
  const modified = Boolean(response.modified_video_url);
  const running = isRunning(response.render_state);
  const hasVideo = Boolean(response.video_url) && mediaStatus(response) === 'ready';
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
 * detail again (when a job ends) never interrupts a video being watched.
 */
export function shouldRefreshSource(current: string | null, next: string, nowMs: number, marginSeconds = 600): boolean {
  if (!current) return true;
  if (mediaIdentity(current) !== mediaIdentity(next)) return true;
  const exp = mediaExpiry(current);
  return exp !== null && exp * 1000 - nowMs < marginSeconds * 1000;
}

/**
 * The timestamp parameter of a signed address: its expiry (`exp`), else a short hash of the address.
 * Derived from the address alone, so a player's source changes exactly when its address does.
 */
export function sourceStamp(url: string): number {
  const exp = mediaExpiry(url);
  if (exp !== null) return exp;
  let hash = 5381;
  for (let i = 0; i < url.length; i++) hash = (hash * 33 + url.charCodeAt(i)) >>> 0;
  return hash;
}

/** The source a player uses: the signed address with its timestamp parameter (spec §2). */
export function mediaSource(url: string): string {
  return withTimestamp(url, sourceStamp(url));
}

/**
 * A new read of the detail with the addresses of the previous one kept where they point to the same
 * object and are not about to expire (shouldRefreshSource): every read signs afresh, and a player
 * given a new signature of the video it shows would load it again and stop. Used as the detail
 * query's structural sharing, so that a read after a job ends never interrupts a video being watched.
 */
export function keepSignedAddresses(previous: unknown, next: unknown, nowMs: number): unknown {
  if (typeof previous === 'string' && typeof next === 'string') {
    return previous !== next && !shouldRefreshSource(previous, next, nowMs) ? previous : next;
  }
  if (Array.isArray(previous) && Array.isArray(next)) return next.map((item, i) => keepSignedAddresses(previous[i], item, nowMs));
  if (isRecord(previous) && isRecord(next)) {
    if ('id' in next && previous.id !== next.id) return next;
    return Object.fromEntries(
      Object.entries(next).map(([key, value]) => [key, MEDIA_FIELDS.has(key) || isRecord(value) || Array.isArray(value) ? keepSignedAddresses(previous[key], value, nowMs) : value]),
    );
  }
  return next;
}

/** The fields of the detail that hold signed media addresses. */
const MEDIA_FIELDS = new Set([
  'video_url',
  'poster_url',
  'modified_video_url',
  'video_url_subtitles',
  'short_video_url',
  'short_video_url_original',
  'modified_poster_url',
  'merged_poster_url',
  'merged_subtitles_poster_url',
  'short_poster_url',
  'short_original_poster_url',
]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The video the export's crop editor takes its frame from (issue 17): the answer as recorded (its
 * prepared `video_url`), whichever version is exported, since an export crops the answer and lays the
 * card out again; for the merged video, the first answer's. Null while that answer is not prepared.
 */
export function cropFrameUrl(testimonial: TTestimonialRequest, response: TTestimonialResponse | null | undefined): string | null {
  if (response) return response.video_url;
  const first = [...testimonial.testimonial_responses].sort((a, b) => a.orderPosition - b.orderPosition)[0];
  return first?.video_url ?? null;
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

/**
 * A stored export's download name (decision 161): the customer, the answer's question number (its
 * position in the request, from 1) or `merged`, and the format, with `-original` for an export of the
 * original version: `grace-hopper-q1-9x16.mp4`, `grace-hopper-merged-16x9-original.mp4`.
 */
export function exportFileName(
  customerName: string,
  owner: { question: number } | 'merged',
  item: Pick<TStoredExport, 'platform' | 'videoType' | 'video_url'>,
): string {
  const format = EXPORT_PLATFORM_SPECS[item.platform].aspect.replace(':', 'x');
  const part = `${owner === 'merged' ? 'merged' : `q${owner.question}`}-${format}${item.videoType === 'original' ? '-original' : ''}`;
  return downloadName(customerName, part, item.video_url);
}
