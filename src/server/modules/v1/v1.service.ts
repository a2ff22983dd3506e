import type { TPublication } from '../../../contract/api/publications.schema.js';
import type { TTestimonialRequest } from '../../../contract/api/testimonials.schema.js';
import type { TV1Publication, TV1Testimonial, TV1Transcript } from '../../../contract/api/v1.schema.js';
import type { AppContext } from '../../context.js';
import { storedTranscripts, type StoredTranscript } from '../transcription/transcription.service.js';

/**
 * The API's shape of a testimonial, from the dashboard's (the same rules made it: signed, short-lived
 * media addresses, null while unpaid, withdrawn or removed), in snake_case throughout. An answer carries
 * its stored transcript only where its media are shown: an unpaid, withdrawn or removed answer has none.
 */
export function toV1Testimonial(t: TTestimonialRequest, transcripts: ReadonlyMap<string, StoredTranscript> = new Map()): TV1Testimonial {
  return {
    id: t.id,
    customer_name: t.customer_name,
    customer_email: t.customer_email,
    customer_position: t.customer_position,
    status: t.status,
    language: t.language,
    paid: t.paid,
    created_at: t.created_at,
    submitted_at: t.submitted_at ?? null,
    consent_withdrawn_at: t.consent_withdrawn_at ?? null,
    video_url: t.video_url,
    video_url_subtitles: t.video_url_subtitles,
    poster_url: t.merged_poster_url ?? null,
    answers: t.testimonial_responses.map((r) => {
      const stored = r.video_url ? transcripts.get(r.id) : undefined;
      return {
        id: r.id,
        question: r.question,
        order_position: r.orderPosition,
        video_url: r.video_url,
        poster_url: r.poster_url ?? null,
        modified_video_url: r.modified_video_url,
        duration_seconds: r.duration_seconds ?? null,
        removal_requested_at: r.removal_requested_at ?? null,
        transcript: stored ? toV1Transcript(stored) : null,
      };
    }),
  };
}

const toV1Transcript = (stored: StoredTranscript): TV1Transcript => ({
  language: stored.language,
  edited: stored.edited,
  segments: stored.segments.map((s) => ({ start: s.start, end: s.end, text: s.text, ...(s.words ? { words: s.words } : {}) })),
});

/** The testimonials in the API's shape, with their answers' transcripts read in one query through the transcription service. */
export async function toV1Testimonials(ctx: AppContext, companyId: string, testimonials: TTestimonialRequest[]): Promise<TV1Testimonial[]> {
  const answerIds = testimonials.flatMap((t) => t.testimonial_responses.filter((r) => r.video_url).map((r) => r.id));
  const transcripts = await storedTranscripts(ctx, companyId, answerIds);
  return testimonials.map((t) => toV1Testimonial(t, transcripts));
}

/** The API's shape of a publication, from the dashboard's list. */
export const toV1Publication = (p: TPublication): TV1Publication => ({
  id: p.id,
  testimonial_id: p.testimonialId,
  job_id: p.jobId,
  response_id: p.responseId,
  slug: p.slug,
  url: p.url,
  embed_url: p.embedUrl,
  embed_html: p.embedHtml,
  created_at: p.createdAt,
  quote: p.quote,
  duration_seconds: p.durationSeconds ?? null,
  views: p.views,
});
