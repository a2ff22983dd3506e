import { useEffect, useState } from 'react';
import { loadVideoFrame, VideoFrameError, type VideoFrame } from './video-frame';

export type VideoFrameState =
  | { status: 'loading' }
  | { status: 'ready'; frame: VideoFrame }
  | { status: 'error'; error: VideoFrameError };

interface Loaded {
  key: string;
  state: Exclude<VideoFrameState, { status: 'loading' }>;
}

/**
 * The crop editor's frame of `url` (answerFrameTime: 1 s, later in a long clip), loaded again when the address or `attempt`
 * changes (a retry). Every failure is logged (§8) and returned as a VideoFrameError.
 */
export function useVideoFrame(url: string, attempt: number): VideoFrameState {
  const key = `${attempt}|${url}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const pixelRatio = typeof window === 'undefined' ? 1 : Math.min(2, window.devicePixelRatio || 1);
    loadVideoFrame(url, { signal: controller.signal, pixelRatio }).then(
      (frame) => setLoaded({ key, state: { status: 'ready', frame } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Video frame extraction failed', error);
        const failure =
          error instanceof VideoFrameError
            ? error
            : new VideoFrameError('frame', error instanceof Error ? error.message : undefined);
        setLoaded({ key, state: { status: 'error', error: failure } });
      },
    );
    return () => controller.abort();
  }, [key, url]);

  return loaded && loaded.key === key ? loaded.state : { status: 'loading' };
}
