import type { TTestimonialRequest } from '../../../contract/api/testimonials.schema.js';
import type { TV1Testimonial } from '../../../contract/api/v1.schema.js';

/**
 * The API's shape of a testimonial, from the dashboard's (the same rules made it: signed, short-lived
 * media addresses, null while unpaid, withdrawn or removed), in snake_case throughout.
 */
export function toV1Testimonial(t: TTestimonialRequest): TV1Testimonial {
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
    answers: t.testimonial_responses.map((r) => ({
      id: r.id,
      question: r.question,
      order_position: r.orderPosition,
      video_url: r.video_url,
      poster_url: r.poster_url ?? null,
      modified_video_url: r.modified_video_url,
      duration_seconds: r.duration_seconds ?? null,
      removal_requested_at: r.removal_requested_at ?? null,
    })),
  };
}
