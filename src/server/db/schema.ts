import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TJobKind, TJobPhase, TJobReason } from '../../contract/api/jobs.schema.js';

/**
 * Every entity of both spec documents. Company-owned rows carry `company_id` and are always read and
 * written through the company of the verified token. Media columns hold storage keys, never URLs:
 * URLs are signed when a response is built.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();


export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    mailLanguage: text('mail_language').notNull().default('en'),
    logoKey: text('logo_key'),
    /** The logo's opaque pixels, measured by the logo job (decision 172): mean relative luminance (0–1)… */
    logoLuminance: real('logo_luminance'),
    /** …and the width-to-height ratio of their bounding box. Null until measured. */
    logoAspect: real('logo_aspect'),
    credits: integer('credits').notNull().default(0),
    /** Issue 29: the customer approves the final cut before anything of their testimonial is published (off by default). */
    approvalRequired: boolean('approval_required').notNull().default(false),
    /**
     * Issue 30: the days after sending at which a pending request is reminded automatically (up to 3,
     * ascending; [] turns automatic reminders off). New requests take the company's time zone.
     */
    reminderDays: jsonb('reminder_days').$type<number[]>().notNull().default(sql`'[3, 7]'::jsonb`),
    /** The IANA time zone of the company's new requests (reminders go out between 9:00 and 18:00 there). */
    timeZone: text('time_zone').notNull().default('Europe/Paris'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`),
    check('companies_credits_nonnegative', sql`${t.credits} >= 0`),
    check('companies_mail_language_ck', sql`${t.mailLanguage} in ('en', 'fr')`),
    check('companies_logo_luminance_ck', sql`${t.logoLuminance} is null or (${t.logoLuminance} >= 0 and ${t.logoLuminance} <= 1)`),
    check('companies_logo_aspect_ck', sql`${t.logoAspect} is null or ${t.logoAspect} > 0`),
    check('companies_reminder_days_ck', sql`jsonb_typeof(${t.reminderDays}) = 'array' and jsonb_array_length(${t.reminderDays}) <= 3`),
  ],
);

/** The `company_id` of a company-owned row: deleting the company deletes the row. */
const companyReference = () => uuid('company_id').references(() => companies.id, { onDelete: 'cascade' });
/** The owner of a row that is one of a company's many (a user, a request, a job…). */
const ownerCompany = () => companyReference().notNull();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    avatarUrl: text('avatar_url'),
    googleSub: text('google_sub'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    language: text('language').notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_sub_uq').on(t.googleSub),
    index('users_company_idx').on(t.companyId),
  ],
);

/** A refresh-token family: one sign-in. Rotation keeps the family; reuse of a rotated token revokes it. */
export const refreshTokenFamilies = pgTable(
  'refresh_token_families',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The company this sign-in works in (issue 32): the one its access tokens name, changed by a switch.
     * Null only for rows older than migration 0030 (it fills them with the user's own company).
     */
    companyId: companyReference(),
    rememberMe: boolean('remember_me').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_families_user_idx').on(t.userId)],
);

/** One token of a family, stored only as a SHA-256 hash. `rotatedAt` is set when it was exchanged. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => refreshTokenFamilies.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Single-use links sent by e-mail (confirmation, password reset), stored only as hashes. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_tokens_hash_uq').on(t.tokenHash),
    index('email_tokens_user_idx').on(t.userId, t.purpose),
    check('email_tokens_purpose_ck', sql`${t.purpose} in ('confirm_email', 'reset_password')`),
  ],
);

export const questions = pgTable(
  'questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    /** The text in English and in French (decision 165): either may be null, never both. */
    textEn: text('text_en'),
    textFr: text('text_fr'),
    orderPosition: integer('order_position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('questions_company_position_idx').on(t.companyId, t.orderPosition),
    check('questions_text_ck', sql`coalesce(${t.textEn}, '') <> '' or coalesce(${t.textFr}, '') <> ''`),
  ],
);

export const testimonialRequests = pgTable(
  'testimonial_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    /** The private link's token (a capability, 256 random bits). */
    token: text('token').notNull(),
    customerName: text('customer_name').notNull(),
    /** Null only for a request whose link the company sends itself (delivery 'link', decision 173). */
    customerEmail: text('customer_email'),
    /** How the link reached the customer: 'email' (our invitation) or 'link' (copied by the company). */
    delivery: text('delivery').notNull().default('email'),
    customerPosition: text('customer_position'),
    language: text('language').notNull().default('english'),
    gift: text('gift'),
    backgroundColor: text('background_color').notNull().default('#000000'),
    status: text('status').notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastReminderSent: timestamp('last_reminder_sent', { withTimezone: true }),
    reminderCount: integer('reminder_count').notNull().default(0),
    paid: boolean('paid').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    submitterName: text('submitter_name'),
    submitterTitle: text('submitter_title'),
    /** Fingerprint of the submitted answers, so that a retried identical submission returns the first result. */
    submissionHash: text('submission_hash'),
    mergedKey: text('merged_key'),
    mergedSubtitlesKey: text('merged_subtitles_key'),
    shortKey: text('short_key'),
    shortOriginalKey: text('short_original_key'),
    /** When the last 'video ready' e-mail about this testimonial was queued (at most one per READY_MAIL_INTERVAL). */
    readyMailSentAt: timestamp('ready_mail_sent_at', { withTimezone: true }),
    /**
     * Issue 31: the draft the worker made without being asked once the testimonial was paid and every answer
     * prepared (a `draft` job: the merged video with its cards, and subtitles when there are any). Decision 206.
     */
    draftKey: text('draft_key'),
    /**
     * Issue 29: the SHA-256 of the customer's own page token (`/my-testimonial/{token}`, 256 random bits,
     * sent in the receipt), distinct from the recording link's token. Null before the submission.
     */
    customerPageTokenHash: text('customer_page_token_hash'),
    /** The customer withdrew their consent (issue 29): nothing of this testimonial may be published, rendered or downloaded. */
    consentWithdrawnAt: timestamp('consent_withdrawn_at', { withTimezone: true }),
    /** This testimonial's own approval switch: null follows the company's setting (companies.approval_required). */
    approvalRequired: boolean('approval_required'),
    /** When the media of a withdrawn testimonial were deleted (by the retention job, or earlier by the company). */
    mediaDeletedAt: timestamp('media_deleted_at', { withTimezone: true }),
    /** Issue 30: the collection link the customer came through (delivery 'collection'); null for an invitation. */
    collectionLinkId: uuid('collection_link_id').references((): AnyPgColumn => collectionLinks.id, { onDelete: 'set null' }),
    /** The IANA time zone the request's automatic reminders keep to civil hours in (the company's at sending time). */
    timeZone: text('time_zone').notNull().default('Europe/Paris'),
    /** How many automatic reminders went out (reminderCount counts them with the manual ones). */
    autoReminderCount: integer('auto_reminder_count').notNull().default(0),
    /** A link with e-mail confirmation: the SHA-256 of the code sent, its end, the wrong tries, and when it was confirmed. */
    emailCodeHash: text('email_code_hash'),
    emailCodeExpiresAt: timestamp('email_code_expires_at', { withTimezone: true }),
    emailCodeAttempts: integer('email_code_attempts').notNull().default(0),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('testimonial_requests_token_uq').on(t.token),
    index('testimonial_requests_link_idx').on(t.collectionLinkId, t.createdAt),
    index('testimonial_requests_pending_idx').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    uniqueIndex('testimonial_requests_customer_page_uq').on(t.customerPageTokenHash),
    index('testimonial_requests_withdrawn_idx').on(t.consentWithdrawnAt).where(sql`${t.consentWithdrawnAt} is not null and ${t.mediaDeletedAt} is null`),
    index('testimonial_requests_company_idx').on(t.companyId, t.createdAt),
    check('testimonial_requests_status_ck', sql`${t.status} in ('pending', 'completed', 'expired')`),
    check('testimonial_requests_language_ck', sql`${t.language} in ('english', 'french')`),
    check('testimonial_requests_delivery_ck', sql`${t.delivery} in ('email', 'link', 'collection')`),
    check('testimonial_requests_collection_ck', sql`${t.delivery} <> 'collection' or ${t.customerEmail} is not null`),
    check('testimonial_requests_email_delivery_ck', sql`${t.delivery} = 'link' OR ${t.customerEmail} IS NOT NULL`),
  ],
);

/** The questions chosen for a request, with their text (in the request's language, decision 165) and order frozen at sending time. */
export const requestQuestions = pgTable(
  'request_questions',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'restrict' }),
    questionText: text('question_text').notNull(),
    orderPosition: integer('order_position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.questionId] }), index('request_questions_question_idx').on(t.questionId)],
);

export const testimonialResponses = pgTable(
  'testimonial_responses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    companyId: ownerCompany(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'restrict' }),
    questionText: text('question_text').notNull(),
    orderPosition: integer('order_position').notNull(),
    bgColor: text('bg_color').notNull().default('#000000'),
    /** The file as uploaded (WebM or MP4). */
    originalKey: text('original_key').notNull(),
    originalSha256: text('original_sha256').notNull(),
    /** H.264/AAC MP4 with faststart, made by the transcode job. */
    videoKey: text('video_key'),
    posterKey: text('poster_key'),
    durationSeconds: real('duration_seconds'),
    width: integer('width'),
    height: integer('height'),
    modifiedKey: text('modified_key'),
    introGenerated: boolean('intro_generated').notNull().default(false),
    hasSubtitles: boolean('has_subtitles').notNull().default(false),
    shortKey: text('short_key'),
    shortOriginalKey: text('short_original_key'),
    /** The customer asked for this answer to be removed (issue 29): it is left out of every output and publication. */
    removalRequestedAt: timestamp('removal_requested_at', { withTimezone: true }),
    /**
     * Issue 31: the part of the answer every output uses, in seconds of the transcoded answer (the file
     * itself is kept whole). Null start: from the beginning; null end: to the end.
     */
    trimStart: real('trim_start'),
    trimEnd: real('trim_end'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('testimonial_responses_trim_ck', sql`(${t.trimStart} is null or ${t.trimStart} >= 0) and (${t.trimEnd} is null or ${t.trimEnd} > coalesce(${t.trimStart}, 0))`),
    uniqueIndex('testimonial_responses_request_question_uq').on(t.requestId, t.questionId),
    index('testimonial_responses_company_idx').on(t.companyId),
    index('testimonial_responses_question_idx').on(t.questionId),
  ],
);

export interface TranscriptionSegment {
  start: number;
  end: number;
  text: string;
  /** Issue 31: the cue's timed words (word-by-word captions), inside the same jsonb. */
  words?: { start: number; end: number; text: string }[];
}

export const transcriptions = pgTable(
  'transcriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    responseId: uuid('response_id')
      .notNull()
      .references(() => testimonialResponses.id, { onDelete: 'cascade' }),
    companyId: ownerCompany(),
    engine: text('engine').notNull(),
    language: text('language').notNull(),
    segments: jsonb('segments').$type<TranscriptionSegment[]>().notNull(),
    /**
     * The engine's own words, written with every engine run and never by an edit (migration 0018, decision
     * 154): what a quote is checked against to be the customer's words. Null when the engine's words are
     * not known (cues the company wrote, or edited before the column existed); a row never edited has them
     * in `segments`.
     */
    originalSegments: jsonb('original_segments').$type<TranscriptionSegment[]>(),
    edited: boolean('edited').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('transcriptions_response_uq').on(t.responseId)],
);

/**
 * One piece of media work (issue 16): the transcode of an upload, a studio render or a transcription,
 * about a testimonial (`request_id`) or one of its answers (`response_id`). The row is inserted in the
 * same transaction as the queue's job that runs it; the worker moves it queued → running → ready or
 * failed. Outputs are storage keys; a transcription's result is data (`result`).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    kind: text('kind').$type<TJobKind>().notNull(),
    /** The testimonial the job is about; null only for a logo job, whose subject is the company. */
    requestId: uuid('request_id').references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    responseId: uuid('response_id').references(() => testimonialResponses.id, { onDelete: 'cascade' }),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    phase: text('phase').$type<TJobPhase>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    errorReason: text('error_reason').$type<TJobReason>(),
    errorParams: jsonb('error_params').$type<Record<string, string | number>>(),
    /** What went wrong, for the operator (never shown to the company). */
    errorDetail: text('error_detail'),
    outputKey: text('output_key'),
    result: jsonb('result'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
    /** Last time the web app followed this job (GET /api/jobs/{id}), written at most every few seconds: the owner is on the page. */
    watchedAt: timestamp('watched_at', { withTimezone: true }),
    /** What a finished render's output is, for its 'ready' e-mail ('intro_subtitles', 'export_shorts'…: studio/ready-mail.ts). */
    readyOutput: text('ready_output'),
    /** A finished render the company still has to be told about by e-mail (it was slow, or nobody was following it). */
    notifyPending: boolean('notify_pending').notNull().default(false),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /** The member who asked for it from the dashboard (the activity log's "who", decision 223); null for work the product started. */
    requestedBy: uuid('requested_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('jobs_company_idx').on(t.companyId),
    index('jobs_notify_pending_idx').on(t.requestId).where(sql`${t.notifyPending}`),
    index('jobs_request_idx').on(t.requestId, t.createdAt),
    index('jobs_response_idx').on(t.responseId, t.createdAt),
    // One studio render at a time per answer, and per testimonial for its own renders.
    uniqueIndex('jobs_one_render_uq')
      .on(sql`coalesce(${t.responseId}, ${t.requestId})`)
      .where(sql`${t.phase} in ('queued', 'running') and ${t.kind} in ('intro', 'subtitles', 'merge', 'merged_subtitles', 'export')`),
    // Issue 31: one draft per testimonial, made once (a failed or cancelled one may be made again). Decision 206.
    uniqueIndex('jobs_one_draft_uq').on(t.requestId).where(sql`${t.kind} = 'draft' and ${t.phase} in ('queued', 'running', 'ready')`),
    check('jobs_kind_ck', sql`${t.kind} in ('transcode', 'intro', 'subtitles', 'merge', 'merged_subtitles', 'export', 'transcription', 'merged_transcription', 'logo', 'draft')`),
    check('jobs_subject_ck', sql`${t.kind} = 'logo' or ${t.requestId} is not null`),
    check('jobs_phase_ck', sql`${t.phase} in ('queued', 'running', 'ready', 'failed', 'cancelled')`),
    check('jobs_progress_ck', sql`${t.progress} between 0 and 100`),
  ],
);

/** The image-rights consent the customer gave with a submission. */
export const consents = pgTable(
  'consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    textVersion: text('text_version').notNull(),
    text: text('text').notNull(),
    language: text('language').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
    /** The withdrawal of this consent (issue 29), recorded beside it: when, and from which address and browser. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnIp: text('withdrawn_ip'),
    withdrawnUserAgent: text('withdrawn_user_agent'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('consents_request_uq').on(t.requestId)],
);

/**
 * Issue 29: the customer's approval of a final cut before it is published. The company asks for it about
 * a ready render (`job_id`) or an answer as recorded (`response_id`); the customer receives the video by
 * e-mail with a link of its own (`/approve/{token}`, 256 random bits, stored as its SHA-256) and approves
 * it or asks for changes with a comment. Asking again about the same video replaces nothing: the latest
 * row about a video is its state.
 */
export const approvals = pgTable(
  'approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'cascade' }),
    responseId: uuid('response_id').references(() => testimonialResponses.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** pending → approved | changes_requested; cancelled when consent is withdrawn or the video is gone. */
    state: text('state').notNull().default('pending'),
    comment: text('comment'),
    /** When the approval e-mail was last sent (the first time or as a reminder): at most one per 24 hours. */
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
    reminderCount: integer('reminder_count').notNull().default(0),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedIp: text('decided_ip'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('approvals_token_uq').on(t.tokenHash),
    index('approvals_request_idx').on(t.requestId, t.createdAt),
    check('approvals_subject_ck', sql`${t.jobId} is not null or ${t.responseId} is not null`),
    check('approvals_state_ck', sql`${t.state} in ('pending', 'approved', 'changes_requested', 'cancelled')`),
    check('approvals_comment_ck', sql`${t.comment} is null or char_length(${t.comment}) <= 2000`),
  ],
);

/**
 * Issue 29: what happened to a testimonial's consent after it was given (the giving itself is the
 * `consents` row): withdrawn, an answer's removal asked, approvals asked, reminded, given or refused, the
 * media deleted. The company's consent record is the `consents` row followed by these, oldest first.
 */
export const consentEvents = pgTable(
  'consent_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    responseId: uuid('response_id').references(() => testimonialResponses.id, { onDelete: 'set null' }),
    approvalId: uuid('approval_id').references(() => approvals.id, { onDelete: 'set null' }),
    /** Who acted: the customer's address and browser for their own actions, null for the company's or the system's. */
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** What the record shows beside the kind: the question of a removed answer, a comment, the video's name… */
    detail: jsonb('detail').$type<Record<string, string | number | null>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('consent_events_request_idx').on(t.requestId, t.at),
    check(
      'consent_events_kind_ck',
      sql`${t.kind} in ('withdrawn', 'removal_requested', 'approval_requested', 'approval_reminded', 'approved', 'changes_requested', 'media_deleted')`,
    ),
  ],
);

/** A Stripe Checkout session (or one of the embedded test mode), fulfilled at most once. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    provider: text('provider').notNull().default('stripe'),
    sessionId: text('session_id').notNull(),
    packageId: text('package_id').notNull(),
    priceId: text('price_id').notNull(),
    credits: integer('credits').notNull(),
    amountTotal: integer('amount_total').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('open'),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('payments_session_uq').on(t.sessionId), index('payments_company_idx').on(t.companyId)],
);

/**
 * The credit ledger. `credits` is the signed change of the balance; `amount` is in minor units for
 * purchases. A testimonial is paid at most once (partial unique index), a session credited at most once.
 */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    transactionType: text('transaction_type').notNull(),
    credits: integer('credits').notNull(),
    amount: integer('amount').notNull().default(0),
    currency: text('currency').notNull().default('eur'),
    requestId: uuid('request_id').references(() => testimonialRequests.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_transactions_company_idx').on(t.companyId, t.createdAt),
    uniqueIndex('credit_transactions_payment_uq').on(t.paymentId),
    uniqueIndex('credit_transactions_view_uq')
      .on(t.companyId, t.requestId)
      .where(sql`${t.transactionType} = 'testimonial_payment'`),
    check(
      'credit_transactions_type_ck',
      sql`${t.transactionType} in ('signup_bonus', 'credit_purchase', 'testimonial_payment', 'adjustment')`,
    ),
  ],
);

/**
 * A company's video style. The column defaults are DEFAULT_VIDEO_STYLE (src/contract/constants.ts, the
 * 'ink' theme; migration 0012), which the server also writes explicitly when it creates a row
 * (settings/default-style.ts); settings.test.ts checks that both agree.
 */
export const videoStyleSettings = pgTable('video_style_settings', {
  companyId: companyReference().primaryKey(),
  fontSizeQuestion: integer('font_size_question').notNull().default(40),
  fontColorQuestion: text('font_color_question').notNull().default('#ffffff'),
  fontStyleQuestion: text('font_style_question').notNull().default('Trebuchet MS'),
  fontBoldQuestion: boolean('font_bold_question').notNull().default(true),
  fontSizeSubtitle: integer('font_size_subtitle').notNull().default(34),
  fontColorSubtitle: text('font_color_subtitle').notNull().default('#ffffff'),
  fontStyleSubtitle: text('font_style_subtitle').notNull().default('Trebuchet MS'),
  fontBoldSubtitle: boolean('font_bold_subtitle').notNull().default(true),
  subtitleBorder: boolean('subtitle_border').notNull().default(true),
  backgroundColor: text('background_color').notNull().default('#15171f'),
  showLogoInVideos: boolean('show_logo_in_videos').notNull().default(false),
  /** The light plate behind the logo (decision 172): 'auto' when the logo is hard to see, or the company's 'on' / 'off'. */
  logoPlate: text('logo_plate').notNull().default('auto'),
  /** Issue 31: the customer's name and position shown for a few seconds as each answer starts. */
  lowerThird: boolean('lower_third').notNull().default(false),
  /** Issue 31: a closing card (logo, call to action, address) after the last answer. */
  endCard: boolean('end_card').notNull().default(false),
  endCardText: text('end_card_text').notNull().default(''),
  endCardAddress: text('end_card_address').notNull().default(''),
  /** Issue 31: 'line' (a cue at a time) or 'word' (word by word, the spoken word highlighted). */
  captionStyle: text('caption_style').notNull().default('line'),
  /** Issue 31: a testimonial that arrives is paid at once when a credit is left, and its draft made (decision 207). */
  prepareDrafts: boolean('prepare_drafts').notNull().default(false),
  updatedAt: updatedAt(),
}, (t) => [
  check('video_style_settings_logo_plate_ck', sql`${t.logoPlate} in ('auto', 'on', 'off')`),
  check('video_style_settings_caption_style_ck', sql`${t.captionStyle} in ('line', 'word')`),
]);

/**
 * One-time codes handed to the browser after a Google sign-in (in the /auth/callback address), each
 * exchanged once by process-auth-callback for a session or a sign-up token. Stored only as hashes.
 */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull(),
    provider: text('provider').notNull().default('google'),
    profile: jsonb('profile')
      .$type<{ sub: string; email: string; email_verified: boolean; firstname: string; lastname: string; picture: string | null }>()
      .notNull(),
    /**
     * Hash of the browser key created when this sign-in started (carried in the signed state cookie);
     * only a request carrying the same key in its cookie can redeem the code (no login CSRF).
     */
    browserHash: text('browser_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_codes_hash_uq').on(t.codeHash)],
);

/**
 * Every running server process (roles api, worker, all): it registers at start, refreshes `last_seen`
 * every few seconds and removes its row when it stops cleanly. A process not seen for WORKER_LEASE_SECONDS
 * (or, on the same machine, whose pid is gone) is presumed dead: the jobs it held go back to the queue
 * and its temporary folder (DATA_DIR/tmp/<id>) is removed. `machine` identifies a host and pid namespace.
 */
export const workers = pgTable(
  'workers',
  {
    id: uuid('id').primaryKey(),
    role: text('role').notNull(),
    host: text('host').notNull(),
    machine: text('machine').notNull(),
    pid: integer('pid').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workers_last_seen_idx').on(t.lastSeen)],
);

/**
 * Which process holds each running job (pg-boss's `active` state): written in the transaction that takes
 * the job, removed in the one that completes, fails or hands it back. The jobs of a dead holder are
 * requeued by the other processes.
 */
export const jobLeases = pgTable(
  'job_leases',
  {
    jobId: uuid('job_id').primaryKey(),
    queue: text('queue').notNull(),
    workerId: uuid('worker_id').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_leases_worker_idx').on(t.workerId)],
);

/**
 * Objects being written to storage for rows not committed yet (a customer's answers): each is recorded,
 * and committed, before its upload starts, and removed in the transaction that commits the rows naming
 * it. A key whose holder (a `workers` id) is no longer registered belongs to a process that died between
 * the upload and the commit: the presence sweep deletes the object (storage/pending-objects.ts).
 */
export const pendingObjects = pgTable(
  'pending_objects',
  {
    key: text('key').primaryKey(),
    holder: uuid('holder').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pending_objects_holder_idx').on(t.holder)],
);

/** Where a publication's captions come from: an answer's transcript, laid at `offset` seconds of the published video. */
export interface PublicationCaptionPart {
  responseId: string;
  offset: number;
  /** The part of the answer the video holds, in seconds of the answer (issue 31, decision 201); absent: the whole answer. */
  kept?: { start: number; end: number };
}

/**
 * A published video (issue 19): a ready render of a paid testimonial, or one of its answers as recorded,
 * reachable by anyone who has its slug (`/v/{slug}`, `/embed/{slug}`). The slug is 128 random bits in
 * base64url. What is shown is resolved when it is published (the storage keys of the video and its
 * poster, its size, where its captions come from), so the public page reads one row. Unpublishing sets
 * `unpublished_at`: the public routes look a slug up with `unpublished_at is null` and answer 404 at once.
 */
export const publications = pgTable(
  'publications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    /** The render published, or null for an answer as recorded. */
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'cascade' }),
    /** The answer published as recorded (or the answer the rendered job is about). */
    responseId: uuid('response_id').references(() => testimonialResponses.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    videoKey: text('video_key').notNull(),
    posterKey: text('poster_key'),
    width: integer('width'),
    height: integer('height'),
    captionParts: jsonb('caption_parts').$type<PublicationCaptionPart[]>().notNull().default([]),
    /** A sentence or two of the customer's own transcript, shown beside the video (1–300 characters). */
    quote: text('quote'),
    /** The quote is found only in the transcript as the company edited it, not in the engine's words: the share page says so (decision 154). */
    quoteEdited: boolean('quote_edited').notNull().default(false),
    /** Its place on the company's wall (0 first), or null: not placed yet (shown first, newest first) unless hidden. */
    wallPosition: integer('wall_position'),
    /** The company took it off its wall (migration 0015, decision 143). */
    wallHidden: boolean('wall_hidden').notNull().default(false),
    /** The published video's length in seconds, shown before it plays (migration 0020, decision 168); null when unknown. */
    durationSeconds: real('duration_seconds'),
    /** The moment the company chose as the poster (seconds), or null: the automatic frame a moment into the answer (decision 168). */
    posterSeconds: real('poster_seconds'),
    createdAt: createdAt(),
    unpublishedAt: timestamp('unpublished_at', { withTimezone: true }),
    /** Why it was taken down (issue 29): 'company' (unpublished by the company), 'consent_withdrawn' or 'answer_removed'. */
    unpublishedReason: text('unpublished_reason'),
  },
  (t) => [
    uniqueIndex('publications_slug_uq').on(t.slug),
    index('publications_company_request_idx').on(t.companyId, t.requestId, t.createdAt),
    check('publications_subject_ck', sql`${t.jobId} is not null or ${t.responseId} is not null`),
    check('publications_quote_length_ck', sql`${t.quote} is null or char_length(${t.quote}) between 1 and 300`),
  ],
);

/**
 * The company's wall of testimonials (issue 19, decision 142): `/wall/{slug}` and `/embed/wall/{slug}`.
 * The slug is the company's name made readable plus 10 random characters (about 52 bits), so that walls
 * cannot be listed by guessing names; created the first time the company opens its wall, never changed.
 */
export const walls = pgTable(
  'walls',
  {
    companyId: companyReference().primaryKey(),
    slug: text('slug').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('walls_slug_uq').on(t.slug)],
);

/**
 * Views of a publication per day (UTC), issue 19, decision 144: how many viewers started its video and
 * passed 25, 50, 75 and 100 % of it. Counts only: nothing here names or tells apart a viewer.
 */
export const publicationViews = pgTable(
  'publication_views',
  {
    publicationId: uuid('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    started: integer('started').notNull().default(0),
    p25: integer('p25').notNull().default(0),
    p50: integer('p50').notNull().default(0),
    p75: integer('p75').notNull().default(0),
    p100: integer('p100').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.day] })],
);

/**
 * Milestones already counted for a viewer, until they expire (30 minutes): `mark` is a salted hash of
 * the viewer's address, browser and the slug, then the milestone. Pruned once expired (decision 144).
 */
export const publicationViewMarks = pgTable(
  'publication_view_marks',
  {
    mark: text('mark').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('publication_view_marks_expires_idx').on(t.expiresAt)],
);

/** The random salt of each day's viewer hashes, shared by every API process; deleted the next day. */
export const viewSalts = pgTable('view_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

/**
 * The counters of the limits shared by every API process (decision 178), in rate-limiter-flexible's
 * shape: `key` is the limit's name and its key, `expire` the window's end in ms since the epoch.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    expire: bigint('expire', { mode: 'number' }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/**
 * Issue 30: a company's open collection link, `/c/{slug}`. Anyone with the address gives their name,
 * position and e-mail, then records like an invited customer; each submission is a request with
 * delivery 'collection' and this link's id. Closed when disabled, expired, full (max_submissions) or
 * over its daily cap.
 */
export const collectionLinks = pgTable(
  'collection_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    /** The public address's last segment: lower-case letters, digits and hyphens, unique across companies. */
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    language: text('language').notNull().default('english'),
    gift: text('gift'),
    backgroundColor: text('background_color').notNull().default('#000000'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxSubmissions: integer('max_submissions'),
    /** Submissions accepted per day (UTC) at most: a link posted somewhere hostile cannot flood the company. */
    dailyCap: integer('daily_cap').notNull().default(50),
    enabled: boolean('enabled').notNull().default(true),
    /** A code sent to the e-mail must be confirmed before the upload is accepted. */
    emailCodeRequired: boolean('email_code_required').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('collection_links_slug_uq').on(t.slug),
    index('collection_links_company_idx').on(t.companyId, t.createdAt),
    check('collection_links_language_ck', sql`${t.language} in ('english', 'french')`),
    check('collection_links_max_ck', sql`${t.maxSubmissions} is null or ${t.maxSubmissions} > 0`),
    check('collection_links_daily_cap_ck', sql`${t.dailyCap} > 0`),
  ],
);

/** The questions of a collection link, in order. Deleting a question takes it out of the links. */
export const collectionLinkQuestions = pgTable(
  'collection_link_questions',
  {
    linkId: uuid('link_id')
      .notNull()
      .references(() => collectionLinks.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    orderPosition: integer('order_position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.questionId] }), index('collection_link_questions_question_idx').on(t.questionId)],
);

/** Issue 30: addresses that unsubscribed from a company's e-mails (RFC 8058 one-click or the visible link). */
export const emailUnsubscribes = pgTable(
  'email_unsubscribes',
  {
    companyId: ownerCompany(),
    /** Lower-cased. */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.email] })],
);

/**
 * Issue 30, the funnel: the steps of each request and collection link, recorded from the calls the
 * customer already makes (no cookie, no pixel). A visitor of a link is a daily-salted hash of address
 * and browser, never stored in the clear. `language` is the request's or link's at the time.
 */
export const requestEvents = pgTable(
  'request_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    requestId: uuid('request_id').references(() => testimonialRequests.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id').references(() => collectionLinks.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    visitorHash: text('visitor_hash'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('request_events_company_at_idx').on(t.companyId, t.at),
    index('request_events_request_idx').on(t.requestId, t.at),
    /** Each of a request's steps counts once. */
    uniqueIndex('request_events_step_uq')
      .on(t.requestId, t.kind)
      .where(sql`${t.kind} in ('opened', 'device_ok', 'first_answer', 'submitted')`),
    /** A link's visitor counts once a day (the hash's salt changes daily). */
    uniqueIndex('request_events_link_visitor_uq').on(t.linkId, t.visitorHash).where(sql`${t.kind} = 'link_opened'`),
    check(
      'request_events_kind_ck',
      sql`${t.kind} in ('link_opened', 'sent', 'delivered', 'bounced', 'reminded', 'opened', 'device_ok', 'first_answer', 'submitted', 'unsubscribed')`,
    ),
    check('request_events_language_ck', sql`${t.language} in ('english', 'french')`),
    check('request_events_subject_ck', sql`${t.requestId} is not null or ${t.linkId} is not null`),
  ],
);

/**
 * Issue 32: a company's API keys for `/api/v1` (decision 209). The key `vr_live_<prefix>_<secret>` is shown
 * once; only its public prefix (found by lookup, shown in lists) and the SHA-256 of the secret are kept.
 * A revoked key stays listed with its revocation date and never authenticates again.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    name: text('name').notNull(),
    scope: text('scope').$type<'read' | 'read_write'>().notNull(),
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the secret part; the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_prefix_uq').on(t.prefix),
    index('api_keys_company_idx').on(t.companyId, t.createdAt),
    check('api_keys_scope_ck', sql`${t.scope} in ('read', 'read_write')`),
  ],
);

/**
 * Issue 32: the answers of `/api/v1` writes sent with an `Idempotency-Key` (decision 222), per API key
 * and operation, kept 24 hours. `response` is null while the first call runs (the key is taken); a
 * retry with the same key and body gets the stored answer, one with another body a 409.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    operation: text('operation').notNull(),
    key: text('key').notNull(),
    /** Hex SHA-256 of the call's body (its keys sorted). */
    bodyHash: text('body_hash').notNull(),
    status: integer('status'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.operation, t.key] }), index('api_idempotency_keys_created_idx').on(t.createdAt)],
);

/** A person's place in a company (issue 32): one row per (company, user), with the role there. */
export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<'owner' | 'editor' | 'viewer'>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('memberships_company_user_uq').on(t.companyId, t.userId),
    index('memberships_user_idx').on(t.userId),
    check('memberships_role_ck', sql`${t.role} in ('owner', 'editor', 'viewer')`),
  ],
);

/** An invitation to join a company by e-mail (issue 32): the token is stored as its SHA-256 only. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    email: text('email').notNull(),
    role: text('role').$type<'owner' | 'editor' | 'viewer'>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_uq').on(t.tokenHash),
    index('invitations_company_idx').on(t.companyId, t.createdAt),
    check('invitations_role_ck', sql`${t.role} in ('owner', 'editor', 'viewer')`),
  ],
);

/**
 * What happened in a company (issue 32): one row per event, written by `recordEvent` in the transaction
 * of the change it reports. The webhooks' outbox is filled from it, and the activity log will read it.
 */
export const companyEvents = pgTable(
  'company_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    type: text('type').notNull(),
    /** Small: ids, kind, a public address; never media secrets. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Who did it, when a person did (filled once members exist); null for the system or a customer. */
    actorUserId: uuid('actor_user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('company_events_company_idx').on(t.companyId, t.createdAt), index('company_events_type_idx').on(t.companyId, t.type, t.createdAt)],
);

/** Where a company's events are sent (Standard Webhooks). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** `whsec_` + base64 of 32 random bytes, as the standardwebhooks library expects. */
    secret: text('secret').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Since when every delivery has failed (null after a success). */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** Why the system turned it off ('failing'); null when on or turned off by the company. */
    disabledReason: text('disabled_reason'),
  },
  (t) => [index('webhook_endpoints_company_idx').on(t.companyId, t.createdAt), check('webhook_endpoints_disabled_reason_ck', sql`${t.disabledReason} is null or ${t.disabledReason} in ('failing')`)],
);

/**
 * One event to send to one endpoint (the outbox). Its id is the `webhook-id` header: retries and
 * "send again" keep it, so receivers can drop duplicates.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: ownerCompany(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The event it reports; null for a test event. */
    eventId: uuid('event_id').references(() => companyEvents.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The exact body sent, kept so that every attempt signs the same bytes. */
    payload: text('payload').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed' | 'cancelled'>().notNull().default('pending'),
    /** When the current series of attempts began (the 24-hour retry window); "send again" starts a new one. */
    seriesStartedAt: timestamp('series_started_at', { withTimezone: true }).notNull().defaultNow(),
    /** Attempts made in the current series. */
    seriesAttempts: integer('series_attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker holds the delivery until then while it sends; a killed worker's hold expires. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    uniqueIndex('webhook_deliveries_event_endpoint_uq').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    check('webhook_deliveries_status_ck', sql`${t.status} in ('pending', 'succeeded', 'failed', 'cancelled')`),
  ],
);

/** One attempt at sending a delivery: what the delivery log shows. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    companyId: ownerCompany(),
    ok: boolean('ok').notNull(),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms').notNull(),
    /** Why it failed, in words (timeout, refused address, status…); null on success. */
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.createdAt)],
);
