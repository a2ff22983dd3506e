/**
 * Trims of an answer (issue 31, decision 201): PUT /api/testimonials/response/{id}/trim sets the part of
 * the answer every output uses. Times are seconds of the prepared answer; null start is "from the
 * beginning", null end "to the end". The rules against the answer's length are contract/trim.ts's.
 */
import { z } from 'zod';
import { ZId } from './common.js';

const time = (side: string) =>
  z
    .number({ error: `The ${side} must be a time in seconds, or null.` })
    .min(0, { error: `The ${side} cannot be before the answer starts.` })
    .max(3600, { error: `The ${side} must be within the answer.` })
    .nullable();

export const ZTrimBody = z.strictObject({ start: time('start'), end: time('end') });
export type TTrimBody = z.infer<typeof ZTrimBody>;

/** The trim as saved (a start at 0 and an end at the answer's end come back null). */
export const ZTrimResponse = z.object({
  id: ZId,
  trim_start: z.number().min(0).nullable(),
  trim_end: z.number().min(0).nullable(),
});
export type TTrimResponse = z.infer<typeof ZTrimResponse>;
