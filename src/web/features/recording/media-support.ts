/**
 * What the browser can do with the camera and the microphone, and plain names for what went wrong.
 * Pure functions (no React), unit-tested in media-support.test.ts.
 */

/**
 * MediaRecorder types in order of preference (decision 120). H.264 in MP4 first, because the server
 * can then store the answer without re-encoding its picture: with AAC sound where the browser encodes
 * it (Safari; Chrome builds with the proprietary codecs), else with Opus (Chromium 126+ without an AAC
 * encoder, such as Debian's). Then WebM (Firefox, older Chromium), and a bare MP4 for older Safari.
 * Checked with `MediaRecorder.isTypeSupported`, in this order: the first the browser accepts wins.
 */
export const PREFERRED_MIME_TYPES = [
  'video/mp4;codecs=avc1,mp4a.40.2',
  'video/mp4;codecs=avc1.42E01E,mp4a.40.2',
  'video/mp4;codecs=avc1,opus',
  'video/webm;codecs=vp9,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm',
  'video/mp4',
] as const;

/** Bitrates that keep a 20 s answer at a few MB (≈ 4 MB) while staying sharp at 720p. */
export const RECORDER_BITRATES = { videoBitsPerSecond: 1_500_000, audioBitsPerSecond: 96_000 } as const;

/** The best type this browser records, or '' to let it choose (it then reports its choice). */
export function pickMimeType(isSupported: (type: string) => boolean): string {
  for (const type of PREFERRED_MIME_TYPES) {
    try {
      if (isSupported(type)) return type;
    } catch {
      // Some browsers throw on unknown types instead of answering false.
    }
  }
  return '';
}

/**
 * The extension of an answer's file name in the upload (`video0.mp4`, `video1.webm`): MP4 for the
 * ISO/QuickTime family (a recorder's MP4, an iPhone's MOV, an Android's 3GP), WebM otherwise. The
 * server identifies every upload by probing it, never by this name: it only has to be one of the two.
 */
export function extensionFor(mimeType: string): 'webm' | 'mp4' {
  return /mp4|quicktime|m4v|3gpp/i.test(mimeType) ? 'mp4' : 'webm';
}

/** The camera and microphone request: 720p ideal, front camera, the chosen devices when known. */
export function mediaConstraints(cameraId?: string | null, microphoneId?: string | null): MediaStreamConstraints {
  return {
    video: {
      width: { ideal: 1280 },
      height: { ideal: 720 },
      frameRate: { ideal: 30, max: 30 },
      ...(cameraId ? { deviceId: { exact: cameraId } } : { facingMode: 'user' }),
    },
    audio: {
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
      ...(microphoneId ? { deviceId: { exact: microphoneId } } : {}),
    },
  };
}

/** Every way the camera can fail, each with its own explanation on the page. */
export type TMediaProblem =
  | 'permission-denied'
  | 'not-found'
  | 'in-use'
  | 'insecure'
  | 'unsupported'
  | 'device-gone'
  | 'unknown';

/** getUserMedia's DOMException names → what to tell the customer. */
export function classifyMediaError(error: unknown): TMediaProblem {
  const name = error && typeof error === 'object' && 'name' in error ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'permission-denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'not-found';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'in-use';
    case 'TypeError':
      return 'unsupported';
    default:
      return 'unknown';
  }
}

/** Whose instructions to show for re-allowing the camera. */
export type TBrowserFamily = 'chromium' | 'safari' | 'ios' | 'firefox' | 'other';

export function browserFamily(userAgent: string): TBrowserFamily {
  if (/iPhone|iPad|iPod/i.test(userAgent) || (/Macintosh/.test(userAgent) && /Mobile\//.test(userAgent))) return 'ios';
  if (/Firefox\/|FxiOS/i.test(userAgent)) return 'firefox';
  if (/Edg\/|OPR\/|SamsungBrowser|Chrome\/|Chromium\/|CriOS/i.test(userAgent)) return 'chromium';
  if (/Safari\//.test(userAgent) && /Version\//.test(userAgent)) return 'safari';
  return 'other';
}

/** Why this browser cannot record at all, or null when it can. */
export function recordingUnsupportedReason(env: {
  isSecureContext: boolean;
  hasGetUserMedia: boolean;
  hasMediaRecorder: boolean;
}): TMediaProblem | null {
  if (!env.isSecureContext) return 'insecure';
  if (!env.hasGetUserMedia || !env.hasMediaRecorder) return 'unsupported';
  return null;
}

/** Readable text colour (white or near-black) on a request's background colour. */
export function textColorOn(background: string): 'light' | 'dark' {
  const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(background.trim())?.[1];
  if (!hex) return 'light';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const channel = (i: number) => {
    const v = parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // White text wins when its contrast ratio beats near-black's (#0f172a, luminance ≈ 0.009).
  return (1.05 / (luminance + 0.05)) >= (luminance + 0.05) / 0.059 ? 'light' : 'dark';
}

/** '0:07' */
export function formatSeconds(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** '1.4 MB' ('1,4 Mo' in French: the units come from the translations). */
export function formatBytes(bytes: number, locale: string, units: { mb: string; kb: string }): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 0.1) {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(mb)}\u00a0${units.mb}`;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, bytes / 1024))}\u00a0${units.kb}`;
}
