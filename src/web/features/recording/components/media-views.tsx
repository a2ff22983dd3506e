import { useEffect, useRef, useState } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { Button } from '../../../components/button';
import { AlertIcon } from '../../../components/icons';
import { cn } from '../../../lib/cn';
import { browserFamily } from '../media-support';
import type { TMediaProblem } from '../media-support';

/** The aspect (width / height) of a stream's camera picture as its track reports it, null when unknown. */
export function trackAspect(stream: MediaStream | null): number | null {
  const settings = stream?.getVideoTracks?.()[0]?.getSettings?.();
  return aspectOf(settings?.width, settings?.height);
}

export function aspectOf(width: number | undefined, height: number | undefined): number | null {
  return width && height && width > 0 && height > 0 ? width / height : null;
}

/**
 * The live camera, mirrored like a mirror (the recording itself is not), and whole: the picture is
 * contained, never cropped, so the preview shows exactly what will be recorded. `onAspect` gets the
 * picture's aspect from the track's settings, then from the element's own size once frames arrive
 * (the authority on a phone, whose portrait feed the settings may still describe in landscape), and
 * again whenever it changes (the phone turned).
 */
export function LiveVideo({ stream, label, className, onAspect }: { stream: MediaStream | null; label: string; className?: string; onAspect?: (aspect: number) => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const onAspectRef = useRef(onAspect);
  useEffect(() => {
    onAspectRef.current = onAspect;
  });
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    video.srcObject = stream;
    if (stream) void video.play().catch(() => undefined);
    const fromTrack = trackAspect(stream);
    if (fromTrack) onAspectRef.current?.(fromTrack);
    const measured = () => {
      const aspect = aspectOf(video.videoWidth, video.videoHeight);
      if (aspect) onAspectRef.current?.(aspect);
    };
    video.addEventListener('loadedmetadata', measured);
    video.addEventListener('resize', measured);
    return () => {
      video.removeEventListener('loadedmetadata', measured);
      video.removeEventListener('resize', measured);
      video.srcObject = null;
    };
  }, [stream]);
  return (
    <video
      ref={ref}
      muted
      playsInline
      autoPlay
      aria-label={label}
      className={cn('size-full -scale-x-100 object-contain', className)}
      data-testid="camera-preview"
    />
  );
}

/** Until the camera says otherwise: the 4:3 of most webcams and of Chromium's default capture. */
export const DEFAULT_CAMERA_ASPECT = 4 / 3;

/**
 * The box of the camera preview: the camera's own aspect, as wide as the column allows and no taller
 * than `--camera-max-h` (set by the caller per breakpoint), centred. A 4:3 webcam gets a 4:3 box, a
 * phone's portrait feed a portrait box: the preview is the frame that will be recorded.
 */
export function cameraBoxStyle(aspect: number | null): CSSProperties {
  const ratio = aspect && Number.isFinite(aspect) && aspect > 0 ? aspect : DEFAULT_CAMERA_ASPECT;
  const rounded = Math.round(ratio * 10_000) / 10_000;
  return { aspectRatio: String(rounded), maxWidth: `min(100%, calc(var(--camera-max-h) * ${rounded}))` };
}

export function CameraBox({ aspect, className, children, ...rest }: { aspect: number | null; className?: string; children: ReactNode; 'data-testid'?: string }) {
  return (
    <div
      className={cn('relative mx-auto w-full overflow-hidden rounded-card bg-gray-950', className)}
      style={cameraBoxStyle(aspect)}
      data-aspect={aspect ? aspect.toFixed(4) : undefined}
      {...rest}
    >
      {children}
    </div>
  );
}

/**
 * A recorded answer, playable. MediaRecorder's WebM carries no duration (the player shows Infinity
 * and cannot seek): seeking far once makes the browser find the real end, then playback rewinds.
 */
export function TakeVideo({ blob, label, className, unplayableText }: { blob: Blob; label: string; className?: string; unplayableText?: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  /** This browser cannot show the video (a chosen file in a format it does not decode): said, not a black box. */
  const [unplayable, setUnplayable] = useState(false);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const url = URL.createObjectURL(blob);
    let fixing = false;
    setUnplayable(false);
    const onError = () => setUnplayable(true);
    const onMetadata = () => {
      if (video.videoWidth === 0) setUnplayable(true);
      if (video.duration === Infinity) {
        fixing = true;
        video.currentTime = Number.MAX_SAFE_INTEGER;
      }
    };
    const onDurationChange = () => {
      if (fixing && Number.isFinite(video.duration)) {
        fixing = false;
        video.currentTime = 0;
      }
    };
    video.addEventListener('loadedmetadata', onMetadata);
    video.addEventListener('durationchange', onDurationChange);
    video.addEventListener('error', onError);
    video.src = url;
    return () => {
      video.removeEventListener('loadedmetadata', onMetadata);
      video.removeEventListener('durationchange', onDurationChange);
      video.removeEventListener('error', onError);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
    };
  }, [blob]);
  return (
    <>
      <video
        ref={ref}
        controls={!unplayable}
        playsInline
        preload="metadata"
        aria-label={label}
        className={cn('size-full bg-black object-contain', className)}
        data-testid="take-preview"
      />
      {unplayable && unplayableText && (
        <div className="absolute inset-0 flex items-center justify-center px-6 text-center text-sm text-gray-100" data-testid="take-unplayable">
          {unplayableText}
        </div>
      )}
    </>
  );
}

const problemKeys = {
  'permission-denied': 'permissionDenied',
  'not-found': 'notFound',
  'in-use': 'inUse',
  insecure: 'insecure',
  unsupported: 'unsupported',
  'device-gone': 'deviceGone',
  unknown: 'unknown',
} as const satisfies Record<TMediaProblem, string>;

/**
 * What went wrong with the camera or the microphone, in plain words, how to fix it on this browser,
 * and a retry. Never a blank page.
 */
export function DeviceProblem({
  problem,
  onRetry,
  className,
  action,
  retryVariant = 'primary',
  actionFirst = false,
  children,
}: {
  problem: TMediaProblem;
  onRetry: () => void;
  className?: string;
  /** Another way forward, beside Try again (a video from the device instead). */
  action?: ReactNode;
  retryVariant?: 'primary' | 'secondary';
  /**
   * The other way forward (with `children`, its explanation) right under the explanation, before how
   * to fix the camera: where answering matters more than the camera (the question itself).
   */
  actionFirst?: boolean;
  /** More text under the explanation, introducing `action`. */
  children?: ReactNode;
}) {
  const { t } = useRecordingT();
  const key = problemKeys[problem];
  const family = typeof navigator === 'undefined' ? 'other' : browserFamily(navigator.userAgent);
  const canRetry = problem !== 'insecure' && problem !== 'unsupported';
  const retry = canRetry && (
    <Button variant={retryVariant} onClick={onRetry} data-testid="device-retry">
      {t('recording.problems.retry')}
    </Button>
  );
  const howTo = problem === 'permission-denied' && (
    <div className="mt-4 rounded-control bg-white/70 px-4 py-3">
      <p className="text-sm font-semibold text-gray-900">{t('recording.problems.howToTitle')}</p>
      <p className="mt-1 text-sm text-gray-800" data-testid="device-error-howto" data-browser={family}>
        {t(`recording.problems.howTo.${family}`)}
      </p>
    </div>
  );
  return (
    <div
      role="alert"
      data-testid="device-error"
      data-problem={problem}
      className={cn('rounded-card border border-error-200 bg-error-50 px-4 py-5 text-error-900 animate-fade-in sm:px-5', className)}
    >
      <div>
        <h2 className="flex items-start gap-2.5 text-lg font-semibold text-error-800">
          <AlertIcon className="mt-0.5 size-6 shrink-0 text-error-700" />
          {t(`recording.problems.${key}.title`)}
        </h2>
        <div className="sm:pl-8.5">
          <p className="mt-2 text-base text-gray-800">{t(`recording.problems.${key}.body`)}</p>
          {actionFirst ? (
            <>
              {children}
              {action && <div className="mt-4 flex flex-col sm:flex-row">{action}</div>}
              {howTo}
              {retry && <div className="mt-4 flex flex-col sm:flex-row">{retry}</div>}
            </>
          ) : (
            <>
              {howTo}
              {children}
              {(retry || action) && (
                <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
                  {action}
                  {retry}
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </div>
  );
}

/** A video camera with an arrow: a video sent from the device. */
export function FilmIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <rect x="3" y="5" width="13" height="14" rx="2" />
      <path d="m16 10 5-3v10l-5-3" />
      <path d="M9.5 9.5v5M7 12l2.5-2.5L12 12" />
    </svg>
  );
}
