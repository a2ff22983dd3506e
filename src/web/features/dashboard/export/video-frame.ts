/**
 * Reads a video's metadata and grabs one frame of it onto a canvas (spec: company dashboard §3 video
 * metadata and frame extraction, §7 'the client loads a video by address, with anonymous
 * cross-origin access', §8 frame and metadata errors, §9 frame at 1 s capped at the duration; issue 17:
 * later in a long answer, see answerFrameTime).
 *
 * Our media addresses are signed /files URLs on the same origin, so the canvas is never tainted.
 */
import { answerFrameTime, frameTime, isUsableSource, PREVIEW_MAX_SIDE, previewSize, type Size } from './crop-math';

/** Duration in seconds (Infinity for a WebM as the browser recorded it), width and height in pixels. */
export interface VideoMetadata {
  duration: number;
  width: number;
  height: number;
}

/** The frame extraction result of §3: a canvas, the original dimensions and the preview dimensions. */
export interface VideoFrame {
  canvas: HTMLCanvasElement;
  original: Size;
  preview: Size;
  metadata: VideoMetadata;
  /** Where the frame was taken, in seconds. */
  time: number;
}

/**
 * What went wrong (§8): `metadata` 'Failed to read video metadata', `dimensions` 'Invalid video
 * dimensions', `frame` 'Failed to load video frame' with the reason, `extract` 'Failed to extract
 * frame' with the reason.
 */
export type VideoFrameErrorKind = 'metadata' | 'dimensions' | 'frame' | 'extract';

export class VideoFrameError extends Error {
  readonly kind: VideoFrameErrorKind;
  /** The browser's reason, when it gave one. */
  readonly reason: string | undefined;

  constructor(kind: VideoFrameErrorKind, reason?: string) {
    const base = {
      metadata: 'Failed to read video metadata',
      dimensions: 'Invalid video dimensions',
      frame: 'Failed to load video frame',
      extract: 'Failed to extract frame',
    }[kind];
    super(reason ? `${base}: ${reason}` : base);
    this.name = 'VideoFrameError';
    this.kind = kind;
    this.reason = reason;
  }
}

const MEDIA_ERROR_REASONS: Record<number, string> = {
  1: 'loading was aborted',
  2: 'a network error occurred',
  3: 'the video could not be decoded',
  4: 'the video format is not supported',
};

function mediaErrorReason(video: HTMLVideoElement): string | undefined {
  const error = video.error;
  if (!error) return undefined;
  return error.message || MEDIA_ERROR_REASONS[error.code];
}

/**
 * Resolves on the first of `events`, rejects on the element's error event, on `signal` and after
 * `timeoutMs`.
 */
function waitFor(
  video: HTMLVideoElement,
  events: string[],
  options: { signal?: AbortSignal | undefined; timeoutMs: number; onError: (reason: string | undefined) => Error },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      for (const name of events) video.removeEventListener(name, done);
      video.removeEventListener('error', failed);
      options.signal?.removeEventListener('abort', aborted);
      clearTimeout(timer);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const failed = () => {
      cleanup();
      reject(options.onError(mediaErrorReason(video)));
    };
    const aborted = () => {
      cleanup();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(options.onError('the video took too long to load'));
    }, options.timeoutMs);
    for (const name of events) video.addEventListener(name, done);
    video.addEventListener('error', failed);
    if (options.signal?.aborted) aborted();
    else options.signal?.addEventListener('abort', aborted);
  });
}

export interface LoadVideoFrameOptions {
  signal?: AbortSignal;
  /** Seconds, capped at the duration; by default the answer's frame (answerFrameTime: 1 s, later in a long clip). */
  time?: number;
  /** The preview's cap on either side, 800 px by default. */
  maxSide?: number;
  /** How much sharper than the preview the canvas is drawn (the screen's pixel ratio). */
  pixelRatio?: number;
  /** Per step (metadata, then the frame). */
  timeoutMs?: number;
}

/** Loads `url` in a detached video element, reads its metadata, seeks and draws the frame. */
export async function loadVideoFrame(url: string, options: LoadVideoFrameOptions = {}): Promise<VideoFrame> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const video = document.createElement('video');
  video.crossOrigin = 'anonymous';
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  try {
    const metadataReady = waitFor(video, ['loadedmetadata'], {
      signal: options.signal,
      timeoutMs,
      onError: (reason) => new VideoFrameError('metadata', reason),
    });
    video.src = url;
    video.load();
    await metadataReady;

    const metadata: VideoMetadata = { duration: video.duration, width: video.videoWidth, height: video.videoHeight };
    const original = { width: metadata.width, height: metadata.height };
    if (!isUsableSource(original)) throw new VideoFrameError('dimensions');

    const time = options.time === undefined ? answerFrameTime(metadata.duration) : frameTime(metadata.duration, options.time);
    const frameError = (reason: string | undefined) => new VideoFrameError('frame', reason ?? 'Unknown error');
    if (Math.abs(video.currentTime - time) > 1e-3) {
      const seeked = waitFor(video, ['seeked'], { signal: options.signal, timeoutMs, onError: frameError });
      video.currentTime = time;
      await seeked;
    }
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) {
      await waitFor(video, ['loadeddata', 'canplay'], { signal: options.signal, timeoutMs, onError: frameError });
    }

    const preview = previewSize(original, { maxSide: options.maxSide ?? PREVIEW_MAX_SIDE });
    const pixelRatio = Math.max(1, options.pixelRatio ?? 1);
    const canvas = document.createElement('canvas');
    // Drawn sharper than shown; the page sizes it.
    canvas.style.display = 'block';
    canvas.style.width = '100%';
    canvas.style.height = '100%';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.width = Math.min(original.width, Math.round(preview.width * pixelRatio));
    canvas.height = Math.min(original.height, Math.round(preview.height * pixelRatio));
    const context = canvas.getContext('2d');
    if (!context) throw new VideoFrameError('extract', 'the canvas is not available');
    try {
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
    } catch (error) {
      throw new VideoFrameError('extract', error instanceof Error ? error.message : 'Unknown error');
    }
    return { canvas, original, preview: { width: preview.width, height: preview.height }, metadata, time };
  } finally {
    video.removeAttribute('src');
    video.load();
  }
}
