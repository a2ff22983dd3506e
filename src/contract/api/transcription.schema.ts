/**
 * Transcription and subtitles (spec: company dashboard §3 transcription segment and per-response
 * transcription, §4 transcription job, §7; issue 8).
 */
import { z } from 'zod';
import { ZId, ZJobId, ZLanguage } from './common.js';
import { ZRenderJobResponse } from './studio.schema.js';

/** Upper bound on one cue's text (two lines of 42 characters, with room for edits). */
export const SEGMENT_TEXT_MAX_LENGTH = 500;

/* ------------------------------------------------------------------ segments */

const seconds = (label: string) =>
  z.number({ error: `${label} must be a number of seconds` }).min(0, `${label} must not be negative`);

const ZTranscriptionSegmentShape = z.object({
  /** Seconds from the start of the clip. */
  start: seconds('Start'),
  end: seconds('End'),
  text: z
    .string({ error: 'Segment text must be text' })
    .max(SEGMENT_TEXT_MAX_LENGTH, `Segment text must be at most ${SEGMENT_TEXT_MAX_LENGTH} characters`),
  /**
   * Issue 31: the cue's timed words (word-by-word captions). Given by the server; on a save they are
   * worked out again from the stored cue (kept and stretched, or re-timed by characters), never taken as sent.
   */
  words: z
    .array(z.object({ start: z.number(), end: z.number(), text: z.string().max(SEGMENT_TEXT_MAX_LENGTH) }), { error: 'Words must be a list' })
    .max(SEGMENT_TEXT_MAX_LENGTH)
    .optional(),
});

/** One subtitle cue: start and end in seconds, and its text. */
export const ZTranscriptionSegment = ZTranscriptionSegmentShape.refine((segment) => segment.end >= segment.start, {
  path: ['end'],
  message: 'A segment cannot end before it starts',
});
export type TTranscriptionSegment = z.infer<typeof ZTranscriptionSegment>;

/** A transcription: its segments in time order. */
export const ZTranscription = z.array(ZTranscriptionSegment);
export type TTranscription = z.infer<typeof ZTranscription>;

/* ------------------------------------------------------------------ POST /api/testimonials/response/{id}/transcribe */

// Params: ZIdParams.
/** No body in the spec; `{ force: true }` runs the engine again instead of returning the stored one. */
export const ZTranscribeBody = z.object({ force: z.boolean().optional() }).nullish();
export type TTranscribeBody = z.infer<typeof ZTranscribeBody>;

/**
 * `{ transcription }`: the stored cues, at once. When the engine must run (none stored yet, or
 * `force`), the call answers 202 with an empty transcription, the job's id and its status: the cues come
 * with that job (GET transcription-job/{jobId}/status, whose merged_url then holds this one answer).
 */
export const ZTranscribeResponse = z.object({
  transcription: ZTranscription,
  jobId: ZJobId.optional(),
  status: z.enum(['queued', 'processing']).optional(),
});
export type TTranscribeResponse = z.infer<typeof ZTranscribeResponse>;

/* ------------------------------------------------------------------ PUT /api/testimonials/response/{id}/transcription */

// Params: ZIdParams.
/**
 * The answer's subtitle lines as the person left them (typed, or corrected). The server also checks
 * them against the answer (contract/typed-cues.ts) and refuses with a reason naming the line.
 */
export const ZSaveTranscriptionBody = z.object({ transcription: ZTranscription });
export type TSaveTranscriptionBody = z.infer<typeof ZSaveTranscriptionBody>;

/** The lines as stored (times rounded to the millisecond, text trimmed). */
export const ZSaveTranscriptionResponse = z.object({ transcription: ZTranscription });
export type TSaveTranscriptionResponse = z.infer<typeof ZSaveTranscriptionResponse>;

/* ------------------------------------------------------------------ per-response transcription */

/** One answer of the merged review. error is set (and transcription empty) when that answer failed. */
export const ZResponseTranscription = z.object({
  responseId: ZId,
  questionText: z.string(),
  orderPosition: z.number().int().min(1),
  transcription: ZTranscription,
  error: z.string().nullable(),
});
export type TResponseTranscription = z.infer<typeof ZResponseTranscription>;

export const ZResponseTranscriptions = z.array(ZResponseTranscription);
export type TResponseTranscriptions = z.infer<typeof ZResponseTranscriptions>;

/* ------------------------------------------------------------------ POST /api/testimonials/{id}/transcribe-merged-responses */

// Params: ZIdParams. Body: ZEmptyBody.

export const ZTranscribeMergedResponse = z.object({ jobId: ZJobId });
export type TTranscribeMergedResponse = z.infer<typeof ZTranscribeMergedResponse>;

/* ------------------------------------------------------------------ GET /api/testimonials/transcription-job/{jobId}/status */

export const ZTranscriptionJobParams = z.object({ jobId: ZJobId });
export type TTranscriptionJobParams = z.infer<typeof ZTranscriptionJobParams>;

/** The job ends as 'done' or 'error'; the client keeps polling on the others. */
export const TRANSCRIPTION_JOB_STATUSES = ['queued', 'processing', 'done', 'error'] as const;
export const ZTranscriptionJobStatus = z.enum(TRANSCRIPTION_JOB_STATUSES);
export type TTranscriptionJobStatus = z.infer<typeof ZTranscriptionJobStatus>;

/**
 * `{ status, merged_url }`: merged_url is a JSON string of ZResponseTranscriptions once done
 * (null before). Read it with parseMergedTranscriptions.
 */
export const ZTranscriptionJobStatusResponse = z.object({
  status: ZTranscriptionJobStatus,
  merged_url: z.string().nullable(),
  /** Why the job failed, when status is 'error'. */
  error: z.string().nullable().optional(),
});
export type TTranscriptionJobStatusResponse = z.infer<typeof ZTranscriptionJobStatusResponse>;

/** Parses merged_url; throws (SyntaxError or ZodError) when it is not the expected JSON. */
export function parseMergedTranscriptions(mergedUrl: string): TResponseTranscriptions {
  return ZResponseTranscriptions.parse(JSON.parse(mergedUrl));
}

/** Writes merged_url from the per-response transcriptions. */
export function stringifyMergedTranscriptions(items: TResponseTranscriptions): string {
  return JSON.stringify(ZResponseTranscriptions.parse(items));
}

/* ------------------------------------------------------------------ POST /api/testimonials/response/{id}/generate-modified/subtitles */

// Params: ZIdParams.
export const ZGenerateSubtitlesBody = z.object({
  transcription: ZTranscription.min(1, 'There are no subtitles to burn in'),
  language: ZLanguage,
});
export type TGenerateSubtitlesBody = z.infer<typeof ZGenerateSubtitlesBody>;

export const ZGenerateSubtitlesResponse = ZRenderJobResponse;
export type TGenerateSubtitlesResponse = z.infer<typeof ZGenerateSubtitlesResponse>;

/* ------------------------------------------------------------------ POST /api/testimonials/{id}/generate-merged-with-all-subtitles */

/** What the merged review sends back per answer: the same object, edited (extra fields optional). */
export const ZMergedSubtitlesItem = ZResponseTranscription.partial({
  questionText: true,
  orderPosition: true,
  error: true,
});
export type TMergedSubtitlesItem = z.infer<typeof ZMergedSubtitlesItem>;

// Params: ZIdParams.
export const ZGenerateMergedSubtitlesBody = z.object({
  transcriptions: z
    .array(ZMergedSubtitlesItem)
    .min(1, 'There are no subtitles to burn in')
    .refine(
      (items) => new Set(items.map((item) => item.responseId)).size === items.length,
      'Each answer can appear only once',
    ),
  language: ZLanguage,
});
export type TGenerateMergedSubtitlesBody = z.infer<typeof ZGenerateMergedSubtitlesBody>;

export const ZGenerateMergedSubtitlesResponse = ZRenderJobResponse;
export type TGenerateMergedSubtitlesResponse = z.infer<typeof ZGenerateMergedSubtitlesResponse>;
