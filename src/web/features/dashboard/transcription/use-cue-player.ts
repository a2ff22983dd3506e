import { useCallback, useEffect, useRef, useState } from 'react';
import type { TTranscription } from '../../../../contract/api/transcription.schema.js';
import { lineAt, showingAt } from './cue-edits';

/** Alt+R replays the current line, wherever the focus is (decision 166). */
export function isReplayShortcut(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'>): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.code === 'KeyR';
}

export interface CuePlayer {
  /** The ref callback of the answer's <video>. */
  attachVideo: (element: HTMLVideoElement | null) => void;
  /** The player's time in seconds, followed every frame while it plays. */
  time: number;
  /** The answer's length once the player knows it. */
  duration: number | null;
  /** The line showing now (-1 between lines). */
  active: number;
  /** Moves the player to a line's start (it keeps playing if it was). */
  seek(index: number): void;
  /** Plays the current line from its start and stops at its end. */
  replay(): void;
}

/**
 * The player of the review (decision 166): follows its time so the showing line is highlighted,
 * seeks to a line, and replays the current one on Alt+R, even while the focus is in a text field
 * (the shortcut types no character, and is taken before the field sees it).
 */
export function useCuePlayer(cues: TTranscription, enabled: boolean): CuePlayer {
  // The element, kept in a ref (its time is set from handlers), and a count of attachments to
  // subscribe again when a new element mounts.
  const videoEl = useRef<HTMLVideoElement | null>(null);
  const [attached, setAttached] = useState(0);
  const attachVideo = useCallback((element: HTMLVideoElement | null) => {
    videoEl.current = element;
    setAttached((n) => n + 1);
  }, []);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState<number | null>(null);
  const stopAt = useRef<number | null>(null);

  useEffect(() => {
    const video = videoEl.current;
    if (!enabled || !video) return;
    let frame = 0;
    const tick = () => {
      if (stopAt.current !== null && video.currentTime >= stopAt.current) {
        stopAt.current = null;
        video.pause();
      }
      setTime(video.currentTime);
      if (!video.paused) frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onTime = () => setTime(video.currentTime);
    const onMeta = () => setDuration(Number.isFinite(video.duration) && video.duration > 0 ? video.duration : null);
    const onPause = () => {
      stopAt.current = null;
      setTime(video.currentTime);
    };
    const listeners: [keyof HTMLMediaElementEventMap, () => void][] = [
      ['play', onPlay],
      ['pause', onPause],
      ['seeked', onTime],
      ['timeupdate', onTime],
      ['loadedmetadata', onMeta],
      ['durationchange', onMeta],
    ];
    for (const [event, listener] of listeners) video.addEventListener(event, listener);
    onMeta();
    return () => {
      cancelAnimationFrame(frame);
      for (const [event, listener] of listeners) video.removeEventListener(event, listener);
    };
  }, [enabled, attached]);

  const seek = useCallback((index: number) => {
    const video = videoEl.current;
    const cue = cues[index];
    if (!video || !cue) return;
    stopAt.current = null;
    video.currentTime = cue.start;
    setTime(cue.start);
  }, [cues]);

  const replay = useCallback(() => {
    const video = videoEl.current;
    const index = video ? lineAt(cues, video.currentTime) : -1;
    const cue = cues[index];
    if (!video || !cue) return;
    video.currentTime = cue.start;
    stopAt.current = cue.end;
    void video.play().catch((error: unknown) => console.warn('The answer could not be played.', error));
  }, [cues]);

  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (!isReplayShortcut(event)) return;
      event.preventDefault();
      event.stopPropagation();
      replay();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled, replay]);

  return { attachVideo, time, duration, active: showingAt(cues, time), seek, replay };
}
