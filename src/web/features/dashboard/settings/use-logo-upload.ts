import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { settingsQueryOptions } from '../api/get-settings';
import { useUploadLogoMutation } from '../api/upload-logo';
import { useJob } from '../jobs/use-job';
import type { JobFollow } from '../jobs/use-job';

/** How a logo job ended: the company's logo as the server now holds it ('' for none). */
export interface LogoOutcome {
  status: 'ready' | 'failed' | 'cancelled';
  /** The address of the file as uploaded, which the form showed while the job ran. */
  previewUrl: string;
  /** The settings' `company_logo_url` once the job is over: the new logo when ready, the one before otherwise. */
  logoUrl: string;
}

export interface LogoUpload {
  /** Uploads the file and follows its `logo` job; resolves with the address of the file as uploaded. */
  start: (file: File) => Promise<string>;
  uploading: boolean;
  /** The latest upload's job (status 'idle' before any upload). */
  follow: JobFollow;
}

/** A logo job already under way when the screen opens (the settings' `logo_job_id`, decision 177). */
export interface PendingLogo {
  id: string;
  /** The settings' `logo_url` then: the file as uploaded. */
  previewUrl: string;
}

/**
 * The logo upload as the settings screen runs it (issue 16): the upload answers at once with the file's
 * address and a `logo` job, which a worker turns into the stored logo. The job is followed with useJob;
 * once it is over, the settings are read again and `onOutcome` gets the company's logo as now stored.
 * Only the latest upload's job is followed (a later upload wins on the server too). `pending`: a job
 * the settings were read during (an upload made before the screen opened), followed the same way.
 */
export function useLogoUpload(onOutcome: (outcome: LogoOutcome) => void, pending: PendingLogo | null = null): LogoUpload {
  const queryClient = useQueryClient();
  const upload = useUploadLogoMutation();
  const [job, setJob] = useState<{ id: string; previewUrl: string } | null>(pending);
  const follow = useJob(job?.id ?? null);
  const callback = useRef(onOutcome);
  useEffect(() => {
    callback.current = onOutcome;
  });
  const handled = useRef<string | null>(null);
  const latest = useRef<string | null>(pending?.id ?? null);

  const { status } = follow;
  useEffect(() => {
    if (!job || handled.current === job.id) return;
    if (status !== 'ready' && status !== 'failed' && status !== 'cancelled') return;
    handled.current = job.id;
    void queryClient
      .fetchQuery({ ...settingsQueryOptions(), staleTime: 0 })
      .then((settings) => settings.company_logo_url ?? '')
      .catch(() => (status === 'ready' ? null : ''))
      .then((logoUrl) => {
        // Dropped when another upload started meanwhile: its own outcome follows.
        if (logoUrl !== null && latest.current === job.id) callback.current({ status, previewUrl: job.previewUrl, logoUrl });
      });
  }, [job, status, queryClient]);

  const { mutateAsync } = upload;
  const start = useCallback(
    async (file: File) => {
      const { logo_url, jobId } = await mutateAsync(file);
      latest.current = jobId;
      setJob({ id: jobId, previewUrl: logo_url });
      return logo_url;
    },
    [mutateAsync],
  );

  return { start, uploading: upload.isPending, follow };
}
