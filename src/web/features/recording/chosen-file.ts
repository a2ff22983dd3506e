/**
 * A video chosen from the device instead of recorded on the page (issue 18: a customer whose camera
 * fails can still answer; on a phone the picker offers the camera app). Before the page keeps it, the
 * browser checks what it can, with the server's own limits: the file is a video, not empty, not larger
 * than an upload may be, not longer than an answer may last, and it has a picture where that can be
 * told. The server checks every upload again (duration from the packets, size, picture size, sound),
 * so a check the browser cannot make is left to it rather than guessed: a valid video is never refused
 * here because this browser cannot play it (an iPhone's HEVC video in Chromium on Linux, for one).
 */
import type { TFunction } from 'i18next';
import { RECORDING } from '../../../contract/constants.js';
import { formatDuration } from '../../lib/format';

/**
 * The server's default limit on one answer's file (UPLOAD_MAX_BYTES, the contract's
 * DEFAULT_VIDEO_MAX_BYTES). Written out here because the contract's schema file brings zod, which this
 * page does not load; chosen-file.test.ts checks the two agree. A server configured lower still
 * refuses with its own figure (`answer_too_large`), translated on the page.
 */
export const CHOSEN_VIDEO_MAX_BYTES = 60 * 1024 * 1024;
/** The longest answer the server accepts: the limit plus its tolerance (SAVE_LIMITS.maxDurationSeconds). */
export const CHOSEN_VIDEO_MAX_SECONDS = RECORDING.maxSeconds + RECORDING.durationToleranceSeconds;
/** As for a recorded take: a stray tap is not an answer. */
export const CHOSEN_VIDEO_MIN_SECONDS = 1;

/** Why a chosen file is refused on the page (each has its text under `recording.file.refusals`). */
export type TChosenFileProblem = 'notVideo' | 'empty' | 'tooLarge' | 'tooLong' | 'tooShort' | 'noPicture';

const TYPE_BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  qt: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  '3gp': 'video/3gpp',
  '3g2': 'video/3gpp2',
};

function extensionOf(name: string): string {
  return /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toLowerCase() ?? '';
}

/**
 * The type to keep with a chosen file: the browser's, when it names a video; else one read from the
 * file's name (some Android pickers give no type); else MP4, what phones film.
 */
export function chosenFileType(file: { type: string; name: string }): string {
  if (file.type.startsWith('video/')) return file.type;
  return TYPE_BY_EXTENSION[extensionOf(file.name)] ?? 'video/mp4';
}

/** What can be told from the file alone: a video at all, not empty, not too large. */
export function checkChosenFile(
  file: { type: string; name: string; size: number },
  maxBytes: number = CHOSEN_VIDEO_MAX_BYTES,
): TChosenFileProblem | null {
  const namedVideo = extensionOf(file.name) in TYPE_BY_EXTENSION;
  // A type that names something else (a photo, a PDF, a sound) is refused; no type, or a generic one,
  // is left to the checks below and to the server.
  if (file.type && !file.type.startsWith('video/') && !namedVideo && file.type !== 'application/octet-stream') return 'notVideo';
  if (file.size === 0) return 'empty';
  if (file.size > maxBytes) return 'tooLarge';
  return null;
}

/** What the browser read of a chosen video. */
export interface ChosenVideoInfo {
  /** Seconds, or null when the browser could not tell. */
  durationSeconds: number | null;
  /** The picture's size as the browser shows it (0 × 0: it shows no picture, or cannot decode it). */
  width: number;
  height: number;
  /** Whether the file has a video track: true / false where that can be told, null where it cannot. */
  hasVideo: boolean | null;
}

/** What can be told from the video's metadata, when the browser could read it (null: left to the server). */
export function checkChosenVideo(info: ChosenVideoInfo | null): TChosenFileProblem | null {
  if (!info) return null;
  if (info.hasVideo === false) return 'noPicture';
  const seconds = info.durationSeconds;
  if (seconds !== null && Number.isFinite(seconds)) {
    if (seconds > CHOSEN_VIDEO_MAX_SECONDS) return 'tooLong';
    if (seconds < CHOSEN_VIDEO_MIN_SECONDS) return 'tooShort';
  }
  return null;
}

/** The text of a chosen file refused on the page, in the page's language, with the server's limits. */
export function chosenFileRefusal(problem: TChosenFileProblem, t: TFunction, durationSeconds: number | null = null): string {
  return t(`recording.file.refusals.${problem}`, {
    megabytes: Math.round(CHOSEN_VIDEO_MAX_BYTES / (1024 * 1024)),
    seconds: RECORDING.maxSeconds,
    duration: durationSeconds === null ? '' : formatDuration(durationSeconds),
  });
}

/* ------------------------------------------------------------------ reading the file */

/** First boxes an MP4 or a QuickTime file may start with. */
const ISO_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);
/** Past this, a 'moov' box is not read (real ones are a few hundred KB for a 20 s answer). */
const MOOV_MAX_BYTES = 16 * 1024 * 1024;

function fourCc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

async function bytesOf(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(start, end).arrayBuffer());
}

/**
 * Whether an MP4 or QuickTime file (what phones film) has a video track, from the handler ('hdlr',
 * type 'vide') of a track in its 'moov' box; null when the file is not of that family or its 'moov'
 * cannot be found. Reads only box headers and the 'moov' box, never the media data.
 */
export async function mp4HasVideoTrack(blob: Blob): Promise<boolean | null> {
  let offset = 0;
  for (let box = 0; box < 64 && offset + 8 <= blob.size; box += 1) {
    const head = await bytesOf(blob, offset, offset + 16);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const type = fourCc(head, 4);
    if (box === 0 && !ISO_FIRST_BOXES.has(type)) return null;
    let size = view.getUint32(0);
    let header = 8;
    if (size === 1) {
      if (head.byteLength < 16) return null;
      size = Number(view.getBigUint64(8));
      header = 16;
    } else if (size === 0) {
      size = blob.size - offset;
    }
    if (size < header) return null;
    if (type === 'moov') {
      if (size > MOOV_MAX_BYTES) return null;
      const moov = await bytesOf(blob, offset + header, offset + size);
      // hdlr: size, 'hdlr', version and flags, pre-defined (or QuickTime's component type), handler type.
      for (let i = 4; i + 12 <= moov.length; i += 1) {
        if (moov[i] === 0x68 && fourCc(moov, i) === 'hdlr' && fourCc(moov, i + 12) === 'vide') return true;
      }
      return false;
    }
    offset += size;
  }
  return null;
}

/** What a <video> element tells of a file: `videoTracks` only where the browser lists tracks (Safari). */
export interface VideoMetadata {
  durationSeconds: number | null;
  width: number;
  height: number;
  videoTracks: number | null;
}

/** Past this, a browser that has not read the metadata is not waited for (the server checks). */
const READ_TIMEOUT_MS = 15_000;

/**
 * The duration and picture size of a chosen video, read by a detached <video> element; null when this
 * browser cannot read the file. A WebM without a duration in its header (as recorders write them) is
 * sought to its end once, which makes the browser find its real length.
 */
export function readVideoMetadata(blob: Blob, timeoutMs: number = READ_TIMEOUT_MS): Promise<VideoMetadata | null> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(blob);
    let settled = false;
    const finish = (result: VideoMetadata | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      video.onloadedmetadata = null;
      video.ondurationchange = null;
      video.onerror = null;
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(result);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const result = (): VideoMetadata => ({
      durationSeconds: Number.isFinite(video.duration) && video.duration >= 0 ? video.duration : null,
      width: video.videoWidth,
      height: video.videoHeight,
      videoTracks: (video as HTMLVideoElement & { videoTracks?: { length: number } }).videoTracks?.length ?? null,
    });
    video.onloadedmetadata = () => {
      if (video.duration === Infinity) {
        video.ondurationchange = () => {
          if (Number.isFinite(video.duration)) finish(result());
        };
        video.currentTime = Number.MAX_SAFE_INTEGER;
        return;
      }
      finish(result());
    };
    video.onerror = () => finish(null);
    video.muted = true;
    video.preload = 'metadata';
    video.src = url;
  });
}

/**
 * Everything the page checks of a chosen file, in order: the file itself, then its metadata and its
 * tracks. Returns the problem to show, or the video's facts for the take.
 */
export async function inspectChosenFile(file: File): Promise<{ problem: TChosenFileProblem | null; info: ChosenVideoInfo | null }> {
  const early = checkChosenFile(file);
  if (early) return { problem: early, info: null };
  const [metadata, mp4Video] = await Promise.all([readVideoMetadata(file), mp4HasVideoTrack(file).catch(() => null)]);
  // The MP4 boxes, else the browser's own track list where it has one (Safari). A browser that shows
  // no picture may simply not decode this one (0 × 0), which says nothing of the file.
  const tracks = metadata?.videoTracks ?? null;
  const hasVideo = mp4Video ?? (tracks === null ? null : tracks > 0);
  const info: ChosenVideoInfo | null = metadata
    ? { durationSeconds: metadata.durationSeconds, width: metadata.width, height: metadata.height, hasVideo }
    : mp4Video === false
      ? { durationSeconds: null, width: 0, height: 0, hasVideo: false }
      : null;
  return { problem: checkChosenVideo(info), info };
}
