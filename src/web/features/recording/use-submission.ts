import { useCallback, useEffect, useRef, useState } from 'react';
import type { TSaveTestimonialResponse } from '../../../contract/api/public.schema.js';
import { PublicCallError, uploadAnswers } from './public-api';
import type { Refusal, UploadHandle } from './public-api';
import { isRetryableStatus, retryDelayMs } from './retry-policy';

export type TSubmissionState =
  | { phase: 'preparing'; attempt: number }
  | { phase: 'uploading'; attempt: number; loaded: number; total: number }
  /** Every byte sent: the server checks the videos. */
  | { phase: 'processing'; attempt: number; total: number }
  /** Offline: waits for the 'online' event. `loaded`/`total`: how far the interrupted try got. */
  | { phase: 'offline'; attempt: number; loaded: number; total: number }
  /** A retryable failure: the next try starts at `retryAt`. */
  | { phase: 'waiting'; attempt: number; retryAt: number; loaded: number; total: number }
  /** Refused by the server (a 4xx other than 408/429): its reason (translated by the page), and a manual retry. */
  | { phase: 'failed'; refusal: Refusal }
  | { phase: 'done'; attempt: number; response: TSaveTestimonialResponse };

/**
 * Sends the answers while `enabled`, following the retry policy (retry-policy.ts): automatic retries
 * with backoff on network failures, timeouts, 408, 429 and 5xx; waiting for the 'online' event while
 * the browser is offline (an upload under way when the browser goes offline is stopped at once);
 * a manual retry after any other refusal. `retryNow` skips the wait.
 */
export function useSubmission(options: {
  enabled: boolean;
  buildForm: () => FormData | null;
  onSuccess: (response: TSaveTestimonialResponse) => void;
}): { state: TSubmissionState; retryNow: () => void } {
  const { enabled } = options;
  const [state, setState] = useState<TSubmissionState>({ phase: 'preparing', attempt: 0 });
  const [run, setRun] = useState(0);
  const latest = useRef(options);
  const wakeRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    latest.current = options;
  });

  const retryNow = useCallback(() => {
    if (wakeRef.current) wakeRef.current();
    else setRun((n) => n + 1);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let handle: UploadHandle | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onOnline: (() => void) | null = null;

    /** Resolves after `ms`, on 'online', or on retryNow, whichever comes first. */
    const wait = (ms: number | null) =>
      new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          if (onOnline) window.removeEventListener('online', onOnline);
          onOnline = null;
          wakeRef.current = null;
          resolve();
        };
        wakeRef.current = finish;
        onOnline = finish;
        window.addEventListener('online', onOnline);
        if (ms !== null) timer = setTimeout(finish, ms);
      });

    const loop = async () => {
      let failures = 0;
      let last = { loaded: 0, total: 0 };
      for (let attempt = 1; !cancelled; attempt += 1) {
        if (!navigator.onLine) {
          setState({ phase: 'offline', attempt, ...last });
          await wait(null);
          if (cancelled) return;
          failures = 0;
        }
        const form = latest.current.buildForm();
        if (!form) return;
        setState({ phase: 'uploading', attempt, loaded: 0, total: 0 });
        last = { loaded: 0, total: 0 };
        handle = uploadAnswers(form, ({ loaded, total }) => {
          if (cancelled) return;
          last = { loaded, total };
          setState(
            loaded >= total && total > 0
              ? { phase: 'processing', attempt, total }
              : { phase: 'uploading', attempt, loaded, total },
          );
        });
        // The browser says the network is gone: this try is lost, stop it now rather than wait for
        // a dead connection to time out, and start again once the browser is back online.
        const current = handle;
        const onOffline = () => current.abort();
        window.addEventListener('offline', onOffline);
        try {
          const response = await handle.promise;
          if (cancelled) return;
          setState({ phase: 'done', attempt, response });
          latest.current.onSuccess(response);
          return;
        } catch (error) {
          if (cancelled) return;
          const status = error instanceof PublicCallError ? error.status : 0;
          if (!isRetryableStatus(status)) {
            const refusal: Refusal =
              error instanceof PublicCallError ? { status, reason: error.reason, params: error.params } : { status, reason: null, params: {} };
            setState({ phase: 'failed', refusal });
            return;
          }
          if (!navigator.onLine) continue;
          failures += 1;
          const delay = retryDelayMs(failures, error instanceof PublicCallError ? error.retryAfterSeconds : null);
          setState({ phase: 'waiting', attempt, retryAt: Date.now() + delay, ...last });
          await wait(delay);
        } finally {
          window.removeEventListener('offline', onOffline);
        }
      }
    };

    void loop();
    return () => {
      cancelled = true;
      handle?.abort();
      clearTimeout(timer);
      if (onOnline) window.removeEventListener('online', onOnline);
      wakeRef.current = null;
    };
  }, [enabled, run]);

  return { state, retryNow };
}
