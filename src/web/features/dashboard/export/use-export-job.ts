import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TExportV2Body } from '../../../../contract/api/studio.schema.js';
import { ExportFailedError, useStartExportMutation, type ExportTarget } from '../api/export-video';
import { jobErrorText } from '../jobs/job-reason';
import { useJob } from '../jobs/use-job';
import { paths } from '../../../lib/paths';

/** The testimonial's page with the 'export ready' banner for this export (spec: export=ready&exportUrl=…). */
export function exportLanding(testimonialId: string, url: string, jobId: string | null): string {
  const job = jobId ? `&exportJob=${encodeURIComponent(jobId)}` : '';
  return `${paths.dashboard.testimonial(testimonialId)}?export=ready&exportUrl=${encodeURIComponent(url)}${job}`;
}

export interface UseExportJobOptions {
  testimonialId: string;
  target: ExportTarget;
  /** The export is ready: its address (the job's output) and its job. */
  onReady: (url: string, jobId: string | null) => void;
}

/**
 * An export from start to finish: the start call (answered at once with the job), then its job
 * followed with useJob. `error` says why it did not start (the server's word on a refused field
 * when there is one, else the §8 message) or why its job failed (the job's reason, translated).
 */
export function useExportJob({ testimonialId, target, onReady }: UseExportJobOptions) {
  const { t } = useTranslation();
  const [started, setStarted] = useState<{ jobId: string; since: number } | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const mutation = useStartExportMutation();
  const follow = useJob(started?.jobId);

  const outputUrl = follow.job?.outputUrl ?? null;
  const done = started !== null && follow.status === 'ready' && outputUrl !== null;
  const jobFailed = started !== null && !done && (follow.status === 'ready' || follow.status === 'failed' || follow.status === 'cancelled');
  const jobError = follow.job?.error ?? null;
  const running = mutation.isPending || (started !== null && (follow.status === 'loading' || follow.status === 'active' || follow.status === 'gaveUp'));

  // Told once per job.
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (!done || !started || !outputUrl || told.current === started.jobId) return;
    told.current = started.jobId;
    onReady(outputUrl, started.jobId);
  }, [done, started, outputUrl, onReady]);
  useEffect(() => {
    if (jobFailed) console.error('Export failed', jobError ?? follow.status);
  }, [jobFailed, jobError, follow.status]);

  const start = async (body: TExportV2Body) => {
    setStartError(null);
    setStarted(null);
    const since = Date.now();
    try {
      const result = await mutation.mutateAsync({ testimonialId, target, body });
      if (result.jobId === null) onReady(result.url, null);
      else setStarted({ jobId: result.jobId, since });
    } catch (failure) {
      setStartError(failure instanceof ExportFailedError && failure.fieldMessage ? failure.fieldMessage : t('exportVideo.errors.start'));
    }
  };

  const error = jobFailed ? (follow.status === 'ready' ? t('exportVideo.errors.start') : jobErrorText(t, jobError)) : startError;
  const reset = () => {
    setStartError(null);
    setStarted(null);
  };
  return { start, running, follow, since: started?.since ?? null, error, reset };
}
