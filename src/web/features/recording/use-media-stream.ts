import { useCallback, useEffect, useRef, useState } from 'react';
import { classifyMediaError, mediaConstraints, recordingUnsupportedReason } from './media-support';
import type { TMediaProblem } from './media-support';

export interface MediaDevicesState {
  status: 'idle' | 'starting' | 'ready' | 'error';
  stream: MediaStream | null;
  problem: TMediaProblem | null;
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  /** The devices actually in use (from the live tracks). */
  cameraId: string | null;
  microphoneId: string | null;
  /** Starts the camera again (after a problem was fixed). */
  retry: () => void;
}

function stopStream(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}

/** Why this browser cannot record at all, or null. */
export function browserRecordingProblem(): TMediaProblem | null {
  if (typeof window === 'undefined') return 'unsupported';
  return recordingUnsupportedReason({
    isSecureContext: window.isSecureContext,
    hasGetUserMedia: typeof navigator.mediaDevices?.getUserMedia === 'function',
    hasMediaRecorder: typeof window.MediaRecorder === 'function',
  });
}

/**
 * The camera and the microphone while `enabled`: one stream shared by the device check and the
 * recorder, restarted when the chosen devices change, stopped when disabled or unmounted.
 * A chosen device that disappeared falls back to the default one before any problem is reported.
 */
export function useMediaStream(options: {
  enabled: boolean;
  cameraId: string | null;
  microphoneId: string | null;
}): MediaDevicesState {
  const { enabled, cameraId, microphoneId } = options;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Omit<MediaDevicesState, 'retry'>>({
    status: 'idle',
    stream: null,
    problem: null,
    cameras: [],
    microphones: [],
    cameraId: null,
    microphoneId: null,
  });
  const streamRef = useRef<MediaStream | null>(null);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  useEffect(() => {
    if (!enabled) return;
    const unsupported = browserRecordingProblem();
    let cancelled = false;
    let stream: MediaStream | null = null;

    const listDevices = async () => {
      try {
        const devices = await navigator.mediaDevices.enumerateDevices();
        return {
          cameras: devices.filter((d) => d.kind === 'videoinput' && d.deviceId),
          microphones: devices.filter((d) => d.kind === 'audioinput' && d.deviceId),
        };
      } catch {
        return { cameras: [], microphones: [] };
      }
    };

    const onDeviceChange = () => {
      void listDevices().then((lists) => {
        if (!cancelled) setState((s) => ({ ...s, ...lists }));
      });
    };

    const onEnded = () => {
      if (cancelled) return;
      setState((s) => ({ ...s, status: 'error', problem: 'device-gone' }));
    };

    const start = async () => {
      if (unsupported) {
        setState((s) => ({ ...s, status: 'error', problem: unsupported, stream: null }));
        return;
      }
      stopStream(streamRef.current);
      streamRef.current = null;
      setState((s) => ({ ...s, status: 'starting', problem: null, stream: null }));
      try {
        try {
          stream = await navigator.mediaDevices.getUserMedia(mediaConstraints(cameraId, microphoneId));
        } catch (error) {
          // A remembered device that is gone: try the default ones before giving up.
          const problem = classifyMediaError(error);
          if ((cameraId || microphoneId) && (problem === 'not-found' || problem === 'in-use')) {
            stream = await navigator.mediaDevices.getUserMedia(mediaConstraints(null, null));
          } else {
            throw error;
          }
        }
        if (cancelled) {
          stopStream(stream);
          return;
        }
        streamRef.current = stream;
        stream.getTracks().forEach((track) => track.addEventListener('ended', onEnded));
        const lists = await listDevices();
        if (cancelled) return;
        const video = stream.getVideoTracks()[0];
        const audio = stream.getAudioTracks()[0];
        setState({
          status: 'ready',
          stream,
          problem: null,
          ...lists,
          cameraId: video?.getSettings().deviceId ?? null,
          microphoneId: audio?.getSettings().deviceId ?? null,
        });
      } catch (error) {
        if (cancelled) return;
        setState((s) => ({ ...s, status: 'error', problem: classifyMediaError(error), stream: null }));
      }
    };

    void start();
    navigator.mediaDevices?.addEventListener?.('devicechange', onDeviceChange);
    return () => {
      cancelled = true;
      navigator.mediaDevices?.removeEventListener?.('devicechange', onDeviceChange);
      stream?.getTracks().forEach((track) => track.removeEventListener('ended', onEnded));
      stopStream(stream);
      if (streamRef.current === stream) streamRef.current = null;
    };
  }, [enabled, cameraId, microphoneId, attempt]);

  useEffect(() => {
    if (enabled) return;
    stopStream(streamRef.current);
    streamRef.current = null;
  }, [enabled]);

  const visible = enabled ? state : { ...state, status: 'idle' as const, stream: null };
  return { ...visible, retry };
}
