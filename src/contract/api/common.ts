/**
 * Building blocks shared by every API schema: identifiers, dates, colours, text and e-mail fields,
 * the company_id query and the small generic responses.
 *
 * Request schemas validate and trim; response schemas only describe (the server's serializer
 * encodes through them, so they carry no transforms and no defaults).
 */
import { z } from 'zod';
import { LANGUAGES, REQUEST_LANGUAGES, REQUEST_STATUSES } from '../constants.js';

/* ------------------------------------------------------------------ limits of free text */

/** Limits of free-text fields that the spec leaves open (kept generous; they only stop abuse). */
export const TEXT_LIMITS = {
  personName: 100,
  companyName: 120,
  position: 150,
  email: 254,
  gift: 500,
  /** Upper bound on passwords so hashing cannot be abused with megabyte inputs. */
  password: 256,
  token: 512,
  url: 2048,
} as const;

/* ------------------------------------------------------------------ identifiers and dates */

/** A database identifier: a UUID string (RFC 9562, as produced by gen_random_uuid / randomUUID). */
export const ZId = z.uuid({ error: 'Invalid identifier' });
export type TId = z.infer<typeof ZId>;

/** `{ id }` path parameters. */
export const ZIdParams = z.object({ id: ZId });
export type TIdParams = z.infer<typeof ZIdParams>;

/** An opaque background-job identifier (pg-boss gives UUIDs, but clients must not rely on it). */
export const ZJobId = z
  .string({ error: 'Job id is required' })
  .trim()
  .min(1, 'Job id is required')
  .max(200, 'Job id is too long');
export type TJobId = z.infer<typeof ZJobId>;

/** ISO 8601 date-time with a zone (`Date.prototype.toISOString()` output, or an explicit offset). */
export const ZIsoDateTime = z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time' });
export type TIsoDateTime = z.infer<typeof ZIsoDateTime>;

/* ------------------------------------------------------------------ colours */

export const HEX_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const HEX_COLOR_MESSAGE = 'Colour must be a hex value like #1a2b3c';

/** A six-digit hex colour with a leading '#' (`#rrggbb`). Upper and lower case digits are accepted. */
export const ZHexColor = z.string({ error: HEX_COLOR_MESSAGE }).regex(HEX_COLOR_PATTERN, HEX_COLOR_MESSAGE);
export type THexColor = z.infer<typeof ZHexColor>;

/* ------------------------------------------------------------------ text */

/**
 * A required text field: trimmed, then non-empty, then at most `max` characters.
 * A missing value and a blank one both give `${label} is required`, unless `requiredMessage` says otherwise.
 */
export function requiredText(label: string, max: number, requiredMessage = `${label} is required`) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, `${label} must be at most ${max} characters`);
}

/** An optional text field: trimmed, possibly empty, at most `max` characters. */
export function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
}

/* ------------------------------------------------------------------ e-mail */

/** The spec's "simple x@y.z pattern": something, an @, something, a dot, something; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_INVALID_MESSAGE = 'Enter a valid e-mail address';

/** An e-mail field (trimmed, required, simple x@y.z pattern) with its own required message. */
export function emailField(requiredMessage = 'E-mail is required') {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(TEXT_LIMITS.email, `E-mail must be at most ${TEXT_LIMITS.email} characters`)
    .regex(EMAIL_PATTERN, EMAIL_INVALID_MESSAGE);
}

/** The e-mail of a request body. Case is kept; the server compares without regard to case. */
export const ZEmail = emailField();
export type TEmail = z.infer<typeof ZEmail>;

/* ------------------------------------------------------------------ URLs */

/** An absolute http(s) URL. */
export const ZHttpUrl = z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' }).max(TEXT_LIMITS.url);
export type THttpUrl = z.infer<typeof ZHttpUrl>;

/**
 * The address of a media file as the server hands it out: an absolute URL or a root-relative path
 * (media are served through short-lived signed URLs of our own, possibly relative to the app).
 */
export const ZMediaUrl = z.string().min(1);
export type TMediaUrl = z.infer<typeof ZMediaUrl>;

/* ------------------------------------------------------------------ enums shared by several capabilities */

/** Interface and e-mail language: en | fr. */
export const ZLanguage = z.enum(LANGUAGES, { error: 'Language must be en or fr' });
export type TLanguageCode = z.infer<typeof ZLanguage>;

/** Language of a testimonial request, as the send payload names it: english | french. */
export const ZRequestLanguage = z.enum(REQUEST_LANGUAGES, { error: 'Language must be english or french' });
export type TRequestLanguageValue = z.infer<typeof ZRequestLanguage>;

/** Status of a testimonial request: pending | completed | expired. */
export const ZRequestStatus = z.enum(REQUEST_STATUSES);
export type TRequestStatusValue = z.infer<typeof ZRequestStatus>;

/* ------------------------------------------------------------------ company scope */

/** `?company_id=` of the dashboard's scoped GET calls. The server checks it is the caller's company. */
export const ZCompanyIdQuery = z.object({ company_id: ZId });
export type TCompanyIdQuery = z.infer<typeof ZCompanyIdQuery>;

/* ------------------------------------------------------------------ generic bodies and answers */

/** A call whose body the spec calls empty or 'none': no body, or `{}`. */
export const ZEmptyBody = z.object({}).nullish();
export type TEmptyBody = z.infer<typeof ZEmptyBody>;

/** The answer of a call whose result the spec does not show. */
export const ZSuccessResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
});
export type TSuccessResponse = z.infer<typeof ZSuccessResponse>;
