/**
 * Media jobs (issue 16): every piece of media work (the transcode of an upload, a studio render, a
 * transcription) is one row of `jobs`, owned by a company, about one testimonial or one of its answers.
 * Every call that starts work answers at once with its `jobId`; the client follows the job through
 * GET /api/jobs/{id} (or the list of one subject's jobs) until it is ready, failed or cancelled.
 *
 * A failed job carries a stable `reason` key with its parameters: the English text is defined here, and
 * the web shows its own translation (`jobs.reasons.<reason>`).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime, ZMediaUrl } from './common.js';

export const JOB_KINDS = [
  'transcode',
  'intro',
  'subtitles',
  'merge',
  'merged_subtitles',
  'export',
  'transcription',
  'merged_transcription',
  // The company's logo made into its normalised PNG (issue 16: the API process decodes no picture).
  'logo',
  // Issue 31: the testimonial's draft, made without being asked once it is paid and its answers prepared.
  'draft',
] as const;
export const ZJobKind = z.enum(JOB_KINDS);
export type TJobKind = z.infer<typeof ZJobKind>;

/** The studio renders: at most one of them runs at a time for one answer or one testimonial. */
export const RENDER_JOB_KINDS = ['intro', 'subtitles', 'merge', 'merged_subtitles', 'export', 'draft'] as const satisfies readonly TJobKind[];

export const JOB_PHASES = ['queued', 'running', 'ready', 'failed', 'cancelled'] as const;
export const ZJobPhase = z.enum(JOB_PHASES);
export type TJobPhase = z.infer<typeof ZJobPhase>;

/** Phases after which a job changes no more. */
export const FINAL_JOB_PHASES = ['ready', 'failed', 'cancelled'] as const satisfies readonly TJobPhase[];
export const isFinalJobPhase = (phase: TJobPhase) => (FINAL_JOB_PHASES as readonly TJobPhase[]).includes(phase);

/**
 * Why a job failed, with the English message ({{name}} are the parameters). The keys are stable: the
 * web translates them under `jobs.reasons.<key>`.
 */
export const JOB_REASON_MESSAGES = {
  unreadable_upload: 'The recording could not be read. Ask the customer to record this answer again.',
  transcode_failed: 'This answer could not be prepared for playback.',
  render_failed: 'The video could not be generated.',
  no_subtitles: 'This answer has no subtitles to burn in yet.',
  nothing_to_export: 'There is no video to export yet.',
  source_missing: 'A video this job needs is no longer available.',
  transcription_failed: 'The speech could not be transcribed.',
  transcription_unavailable: 'Automatic transcription is not available on this installation.',
  transcription_type_it: 'Automatic transcription is not set up for this language: type this answer’s subtitles from its card.',
  transcription_too_long: 'This video is too long to transcribe automatically (at most {{minutes}} minutes).',
  interrupted: 'The job was interrupted before it finished.',
  logo_damaged: 'This image is damaged or incomplete. Please select another file.',
  logo_failed: 'Your logo could not be prepared. Please upload it again.',
} as const;
export type TJobReason = keyof typeof JOB_REASON_MESSAGES;
export const JOB_REASONS = Object.keys(JOB_REASON_MESSAGES) as [TJobReason, ...TJobReason[]];
export const ZJobReason = z.enum(JOB_REASONS);

export const ZJobError = z.object({
  reason: ZJobReason,
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The English message, for logs and for clients that do not translate. */
  message: z.string(),
});
export type TJobError = z.infer<typeof ZJobError>;

/** The English message of a reason with its parameters filled in. */
export function jobReasonMessage(reason: TJobReason, params: Record<string, string | number> = {}): string {
  return JOB_REASON_MESSAGES[reason].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** One job as the company sees it. */
export const ZJob = z.object({
  id: ZId,
  kind: ZJobKind,
  /** The testimonial the job belongs to; null for a logo job, whose subject is the company. */
  testimonialId: ZId.nullable(),
  /** The answer, for jobs about one answer (transcode, intro, subtitles, export of an answer, transcription). */
  responseId: ZId.nullable(),
  /** What was asked (language, platform, videoType, cropArea…), as given to the start call. */
  params: z.record(z.string(), z.unknown()),
  phase: ZJobPhase,
  /** Percent, 0 to 100. */
  progress: z.number().int().min(0).max(100),
  error: ZJobError.nullable(),
  /** A short-lived signed address of the output, once ready (null for jobs whose output is data). */
  outputUrl: ZMediaUrl.nullable(),
  attempts: z.number().int().min(0),
  createdAt: ZIsoDateTime,
  startedAt: ZIsoDateTime.nullable(),
  finishedAt: ZIsoDateTime.nullable(),
});
export type TJob = z.infer<typeof ZJob>;

// GET /api/jobs/{id} → ZJob (another company's id: 404)
export const ZJobParams = z.object({ id: ZId });

// GET /api/jobs?testimonialId=…[&responseId=…] → { jobs: ZJob[] }, newest first
export const ZJobListQuery = z.object({ testimonialId: ZId, responseId: ZId.optional() });
export type TJobListQuery = z.infer<typeof ZJobListQuery>;
export const ZJobListResponse = z.object({ jobs: z.array(ZJob) });
export type TJobListResponse = z.infer<typeof ZJobListResponse>;

// POST /api/jobs/{id}/retry (no body) → 202 ZJob: the new job. Only a failed job is retried (409 conflict otherwise).
