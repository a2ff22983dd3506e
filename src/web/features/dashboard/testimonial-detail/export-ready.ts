import type { TTestimonialRequest } from '../../../../contract/api/testimonials.schema.js';

/**
 * The export behind the 'export ready' banner. The exportUrl of the address (spec: export=ready and
 * exportUrl) only says which export: anyone can craft such a link, so the button never opens that
 * value. It opens an export address the API gives, with the same origin and path: the output of the
 * export job named by `exportJob` (the export dialog adds it), or a stored export of this
 * testimonial or of one of its answers. Any other value shows no banner at all.
 */
export function exportFromApi(testimonial: TTestimonialRequest | null, value: string | null, jobOutput: string | null = null): string | null {
  if (!testimonial || !value) return null;
  const parse = (address: string) => {
    try {
      const url = new URL(address, window.location.origin);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
    } catch {
      return null;
    }
  };
  const wanted = parse(value);
  if (!wanted) return null;
  const stored = [testimonial, ...testimonial.testimonial_responses].flatMap((owner) => [
    owner.short_video_url,
    owner.short_video_url_original,
    ...(owner.exports ?? []).map((item) => item.video_url),
  ]);
  for (const address of [jobOutput, ...stored]) {
    const known = address ? parse(address) : null;
    if (known && known.origin === wanted.origin && known.pathname === wanted.pathname) return known.href;
  }
  return null;
}
