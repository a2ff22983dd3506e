import { useRef } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { TRIM_FRAME_SECONDS, TRIM_MIN_SECONDS } from '../../../../contract/trim.js';
import { cn } from '../../../lib/cn';

/** m:ss.cc of a time in seconds (hundredths: a frame at 30 fps is 3.3 of them). */
export function trimTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const m = Math.floor(cs / 6000);
  const s = Math.floor(cs / 100) % 60;
  return `${m}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

/** A time snapped to the nearest frame of the outputs (30 fps). */
const toFrame = (seconds: number) => Math.round(seconds / TRIM_FRAME_SECONDS) * TRIM_FRAME_SECONDS;

export interface TrimRange {
  start: number;
  end: number;
}

export interface TrimSliderProps {
  duration: number;
  value: TrimRange;
  onChange: (next: TrimRange, moved: 'start' | 'end') => void;
  /** Where the player is, drawn as a line on the track. */
  current: number;
  label: string;
  startLabel: string;
  endLabel: string;
  disabled?: boolean;
}

/**
 * The part of an answer kept (issue 31, decision 201): a track with two thumbs, each a `slider` of its
 * own. Keyboard: an arrow moves a thumb by one frame (1/30 s), Shift + arrow or Page Up / Down by one
 * second, Home / End to its bound. What is kept stays at least TRIM_MIN_SECONDS long. A thumb can be
 * dragged, and a press on the track moves the nearer thumb there. Test ids `trim-start`, `trim-end`.
 */
export function TrimSlider({ duration, value, onChange, current, label, startLabel, endLabel, disabled }: TrimSliderProps) {
  const track = useRef<HTMLDivElement>(null);
  const dragging = useRef<'start' | 'end' | null>(null);
  const pct = (seconds: number) => `${(Math.min(Math.max(seconds / duration, 0), 1) * 100).toFixed(3)}%`;

  const move = (thumb: 'start' | 'end', to: number) => {
    if (thumb === 'start') {
      const start = Math.min(Math.max(0, toFrame(to)), value.end - TRIM_MIN_SECONDS);
      if (start !== value.start) onChange({ start: Math.max(0, start), end: value.end }, 'start');
    } else {
      const end = Math.max(Math.min(duration, toFrame(to)), value.start + TRIM_MIN_SECONDS);
      if (end !== value.end) onChange({ start: value.start, end: Math.min(duration, end) }, 'end');
    }
  };

  const onKeyDown = (thumb: 'start' | 'end') => (event: KeyboardEvent<HTMLDivElement>) => {
    const at = value[thumb];
    const step = event.shiftKey ? 1 : TRIM_FRAME_SECONDS;
    const moves: Record<string, number> = {
      ArrowLeft: at - step,
      ArrowDown: at - step,
      ArrowRight: at + step,
      ArrowUp: at + step,
      PageDown: at - 1,
      PageUp: at + 1,
      Home: thumb === 'start' ? 0 : value.start + TRIM_MIN_SECONDS,
      End: thumb === 'start' ? value.end - TRIM_MIN_SECONDS : duration,
    };
    const to = moves[event.key];
    if (to === undefined || disabled) return;
    event.preventDefault();
    move(thumb, to);
  };

  const timeAt = (clientX: number) => {
    const box = track.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return ((clientX - box.left) / box.width) * duration;
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (disabled) return;
    const at = timeAt(event.clientX);
    const thumb = Math.abs(at - value.start) <= Math.abs(at - value.end) ? 'start' : 'end';
    dragging.current = thumb;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    (track.current?.querySelector<HTMLElement>(`[data-thumb="${thumb}"]`))?.focus();
    move(thumb, at);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) move(dragging.current, timeAt(event.clientX));
  };
  const onPointerUp = () => {
    dragging.current = null;
  };

  const thumb = (which: 'start' | 'end', name: string) => (
    <div
      role="slider"
      tabIndex={disabled ? -1 : 0}
      data-thumb={which}
      data-testid={`trim-${which}`}
      aria-label={name}
      aria-valuemin={which === 'start' ? 0 : Number((value.start + TRIM_MIN_SECONDS).toFixed(3))}
      aria-valuemax={which === 'start' ? Number((value.end - TRIM_MIN_SECONDS).toFixed(3)) : Number(duration.toFixed(3))}
      aria-valuenow={Number(value[which].toFixed(3))}
      aria-valuetext={trimTime(value[which])}
      aria-disabled={disabled || undefined}
      onKeyDown={onKeyDown(which)}
      className={cn(
        'absolute top-1/2 z-10 flex h-11 w-6 -translate-x-1/2 -translate-y-1/2 cursor-ew-resize touch-none items-center justify-center',
        'rounded-control focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2',
      )}
      style={{ left: pct(value[which]) }}
    >
      <span className="h-9 w-3 rounded-full border-2 border-white bg-brand-600 shadow-md" aria-hidden="true" />
    </div>
  );

  return (
    <div role="group" aria-label={label} className={cn('select-none px-3', disabled && 'opacity-60')}>
      <div
        ref={track}
        className="relative h-11 touch-none"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        data-testid="trim-track"
      >
        <div className="absolute inset-x-0 top-1/2 h-3 -translate-y-1/2 rounded-full bg-gray-200" aria-hidden="true" />
        <div
          className="absolute top-1/2 h-3 -translate-y-1/2 rounded-full bg-brand-500/80"
          style={{ left: pct(value.start), right: `calc(100% - ${pct(value.end)})` }}
          aria-hidden="true"
          data-testid="trim-kept"
        />
        <div className="absolute top-1/2 h-7 w-0.5 -translate-x-1/2 -translate-y-1/2 bg-gray-900" style={{ left: pct(current) }} aria-hidden="true" />
        {thumb('start', startLabel)}
        {thumb('end', endLabel)}
      </div>
    </div>
  );
}
