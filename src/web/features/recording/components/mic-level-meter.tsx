import { useEffect, useRef, useState } from 'react';
import { useRecordingT } from '../../../i18n/recording-i18n';
import { cn } from '../../../lib/cn';

/** Level (0–1) above which we say the microphone hears the customer. */
const HEARD_THRESHOLD = 0.08;
/** Silence for this long after the meter starts: suggest checking the microphone. */
const SILENT_AFTER_MS = 5000;

type AudioContextConstructor = typeof AudioContext;

function audioContextClass(): AudioContextConstructor | undefined {
  return (
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext
  );
}

/**
 * The live microphone level (Web Audio AnalyserNode), drawn straight into the DOM on every frame so
 * React does not re-render 60 times a second. 'compact' is the small meter of the recording screen.
 */
export function MicLevelMeter({ stream, compact = false, onDark = false }: { stream: MediaStream | null; compact?: boolean; onDark?: boolean }) {
  const { t } = useRecordingT();
  const barRef = useRef<HTMLDivElement>(null);
  const [heard, setHeard] = useState<'listening' | 'heard' | 'silent'>('listening');

  useEffect(() => {
    const Ctor = audioContextClass();
    if (!stream || !Ctor || stream.getAudioTracks().length === 0) return;
    const context = new Ctor();
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    analyser.smoothingTimeConstant = 0.6;
    source.connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const startedAt = performance.now();
    let level = 0;
    let everHeard = false;
    let reported: 'listening' | 'heard' | 'silent' = 'listening';
    let frame = 0;

    // Browsers may create the context suspended until the page has been interacted with.
    const resume = () => void context.resume().catch(() => undefined);
    resume();
    window.addEventListener('pointerdown', resume);
    window.addEventListener('keydown', resume);

    const tick = () => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      const rms = Math.sqrt(sum / samples.length);
      // Speech RMS sits around 0.02–0.2: map it to a bar that visibly moves, with a quick decay.
      const target = Math.min(1, Math.sqrt(rms) * 2.2 - 0.05);
      level = target > level ? target : level * 0.85 + target * 0.15;
      if (barRef.current) barRef.current.style.transform = `scaleX(${Math.max(0.02, level).toFixed(3)})`;
      if (level > HEARD_THRESHOLD) everHeard = true;
      const next = everHeard ? 'heard' : performance.now() - startedAt > SILENT_AFTER_MS ? 'silent' : 'listening';
      if (next !== reported) {
        reported = next;
        setHeard(next);
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);

    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('pointerdown', resume);
      window.removeEventListener('keydown', resume);
      source.disconnect();
      void context.close().catch(() => undefined);
      setHeard('listening');
    };
  }, [stream]);

  const message = heard === 'heard' ? t('recording.devices.micHeard') : heard === 'silent' ? t('recording.devices.micSilent') : t('recording.devices.micListening');

  if (compact) {
    return (
      <div className="flex items-center gap-2" title={t('recording.devices.micLevel')} data-testid="mic-level-compact">
        <MicIcon className={cn('size-4 shrink-0', onDark ? 'text-white' : 'text-gray-500')} />
        <div className={cn('h-1.5 w-12 overflow-hidden rounded-full sm:w-16', onDark ? 'bg-white/25' : 'bg-gray-200')} role="img" aria-label={`${t('recording.devices.micLevel')}: ${message}`}>
          <div ref={barRef} className="h-full origin-left rounded-full bg-completed-500" style={{ transform: 'scaleX(0.02)' }} />
        </div>
      </div>
    );
  }

  return (
    <div data-testid="mic-level" data-heard={heard === 'heard'}>
      <div className="flex items-center gap-3">
        <MicIcon className="size-5 shrink-0 text-gray-600" />
        <div
          className="h-3 flex-1 overflow-hidden rounded-full bg-gray-200"
          role="img"
          aria-label={t('recording.devices.micLevel')}
        >
          <div ref={barRef} className="h-full origin-left rounded-full bg-completed-500" style={{ transform: 'scaleX(0.02)' }} />
        </div>
      </div>
      <p
        className={cn('mt-2 text-sm', heard === 'silent' ? 'text-pending-800' : heard === 'heard' ? 'text-completed-800' : 'text-gray-600')}
        aria-live="polite"
      >
        {message}
      </p>
    </div>
  );
}

export function MicIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21M8.5 21h7" />
    </svg>
  );
}
