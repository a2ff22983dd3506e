import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { and, asc, count, eq } from 'drizzle-orm';
import {
  SAVE_LIMITS,
  ZRequestToken,
  ZSaveTestimonialFields,
  type TSaveTestimonialResponse,
  type TValidateTokenResponse,
  ZValidateTokenResponse,
} from '../../../contract/api/public.schema.js';
import { consentText, isConsentVersion } from '../../../contract/consent.js';
import { RECORDING } from '../../../contract/constants.js';
import { recordEvent } from '../events/events.service.js';
import type { AppContext } from '../../context.js';
import { companies, consents, requestQuestions, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { jsonText } from '../../http/json-text.js';
import { crashPoint } from '../../lib/crash-point.js';
import { AppError } from '../../lib/errors.js';
import { queueCompanyMail } from '../../mail/send.js';
import { ANSWER_FRAME_LIMITS } from '../../media/answer-limits.js';
import type { ProbeResult, UploadProbe } from '../../media/ffmpeg.js';
import { abandonPendingObjects, confirmPendingObjects, reservePendingObjects } from '../../storage/pending-objects.js';
import { checkCollectionUpload } from '../collection/collection.service.js';
import { issueReceipt } from '../consent/customer.service.js';
import { payOnArrival } from '../studio/drafts.service.js';
import { enqueueJob } from '../jobs/jobs.service.js';
import { recordRequestEvent } from '../funnel/events.js';
import { recordOpened } from '../funnel/funnel.service.js';
import { effectiveStatus } from '../requests/requests.service.js';
import { logoUrl } from '../settings/settings.service.js';
import { newTestimonialEmail } from './submissions.emails.js';
import { uploadReading } from './transcode.service.js';

export const invalidLink = () => new AppError('not_found', { reason: 'link_invalid' });

/** The request's language, which the customer's page speaks (also on a refused link). */
const languageOf = (request: { language: string }) => (request.language === 'french' ? 'fr' : 'en');

/** 410: the link's request expired. Carries the company and the request's language for the page. */
const linkExpired = (request: { language: string }, company: { name: string }) =>
  new AppError('invalid_data', { status: 410, reason: 'link_expired', params: { company: company.name, language: languageOf(request) } });

/** 409: the customer already sent their answers (the row's state, not the data, refuses the call). */
const alreadySent = (request: { language: string }) =>
  new AppError('conflict', { reason: 'already_sent', params: { language: languageOf(request) } });

async function findByToken(ctx: AppContext, token: string) {
  const [row] = await ctx.db
    .select({ request: testimonialRequests, company: companies })
    .from(testimonialRequests)
    .innerJoin(companies, eq(companies.id, testimonialRequests.companyId))
    .where(eq(testimonialRequests.token, token))
    .limit(1);
  return row;
}

interface LinkRows {
  request: typeof testimonialRequests.$inferSelect;
  company: { id: string; name: string; logoKey: string | null };
  questions: { id: string; text: string }[];
}

/** The rows behind a customer's link, or undefined for an unknown token. Cached per token (lib/read-cache.ts). */
async function loadLink(ctx: AppContext, token: string): Promise<LinkRows | undefined> {
  const found = await findByToken(ctx, token);
  if (!found) return undefined;
  const questions = await ctx.db
    .select({ id: requestQuestions.questionId, text: requestQuestions.questionText })
    .from(requestQuestions)
    .where(eq(requestQuestions.requestId, found.request.id))
    .orderBy(asc(requestQuestions.orderPosition));
  return { request: found.request, company: { id: found.company.id, name: found.company.name, logoKey: found.company.logoKey }, questions };
}

/** The JSON text of a pending link's answer, kept with its cached rows (it depends on nothing else). */
const pendingLinkText = new WeakMap<LinkRows, string>();

/**
 * What the customer's page needs, for a pending, unexpired request, as the JSON text of
 * `TValidateTokenResponse`; a clear error otherwise.
 */
export async function validateToken(ctx: AppContext, token: string): Promise<string> {
  const found = await ctx.reads.read(`link:${token}`, () => loadLink(ctx, token), (rows) => rows?.company.id);
  if (!found) throw invalidLink();
  // The status is computed on every call: a link expires by the clock, with no change announced.
  const status = effectiveStatus(found.request);
  if (status === 'completed') throw alreadySent(found.request);
  if (status === 'expired') throw linkExpired(found.request, found.company);
  await recordOpened(ctx, found.request);
  let text = pendingLinkText.get(found);
  if (text === undefined) {
    text = jsonText(ZValidateTokenResponse, linkAnswer(ctx, found));
    pendingLinkText.set(found, text);
  }
  return text;
}

function linkAnswer(ctx: AppContext, found: LinkRows): TValidateTokenResponse {
  const r = found.request;
  return {
    testimonial: {
      id: r.id,
      background_color: r.backgroundColor,
      customer_name: r.customerName,
      customer_position: r.customerPosition,
      customer_email: r.customerEmail,
      language: r.language as 'english' | 'french',
      gift: r.gift,
      company: { name: found.company.name, logo_url: logoUrl(ctx, found.company) },
    },
    questions: found.questions,
    powered_by: ctx.config.customerPagesPoweredBy,
  };
}

export interface UploadedAnswer {
  /** The index in the form (`video{index}` ↔ `questionIds[index]`). */
  index: number;
  path: string;
  size: number;
  sha256: string;
}

const VIDEO_CODECS = new Set(['vp8', 'vp9', 'h264', 'hevc', 'av1']);
const AUDIO_CODECS = new Set(['opus', 'vorbis', 'aac', 'mp3']);

/** A recording refused: the reason (translated by the customer's page) names the answer, 1-based. */
const refused = (
  reason: 'answer_unreadable' | 'answer_no_sound' | 'answer_empty' | 'answer_too_long' | 'answer_frame_too_large' | 'answer_incomplete',
  params: { answer: number } & Record<string, number>,
) => new AppError('invalid_format', { reason, params });

/**
 * A real video with sound, of an accepted kind, no longer than the limit (plus tolerance) as its
 * packets say, and with a frame of a sane size.
 */
export function checkAnswer(p: ProbeResult & { tooManyPackets?: boolean }, answerNumber: number): { extension: 'webm' | 'mp4'; contentType: string } {
  const isWebm = /matroska|webm/.test(p.formatName);
  const isMp4 = /mp4|mov/.test(p.formatName);
  if (!p.video || (!isWebm && !isMp4) || !VIDEO_CODECS.has(p.video.codec) || !(p.video.width > 0 && p.video.height > 0) || p.tooManyPackets) {
    throw refused('answer_unreadable', { answer: answerNumber });
  }
  if (!p.audio || !AUDIO_CODECS.has(p.audio.codec)) throw refused('answer_no_sound', { answer: answerNumber });
  const { width, height } = p.video;
  if (Math.max(width, height) > ANSWER_FRAME_LIMITS.maxSide || width * height > ANSWER_FRAME_LIMITS.maxPixels) {
    throw refused('answer_frame_too_large', { answer: answerNumber, width, height, maxSide: ANSWER_FRAME_LIMITS.maxSide });
  }
  if (!(p.durationSeconds > 0)) throw refused('answer_empty', { answer: answerNumber });
  if (p.durationSeconds > SAVE_LIMITS.maxDurationSeconds) throw refused('answer_too_long', { answer: answerNumber, seconds: RECORDING.maxSeconds });
  return isWebm ? { extension: 'webm', contentType: 'video/webm' } : { extension: 'mp4', contentType: 'video/mp4' };
}

/** What the upload route needs to know before it writes a byte: a link that can take answers, and how many. */
export interface UploadLink {
  token: string;
  requestId: string;
  questionCount: number;
}

/**
 * Checks a customer's link before any file of the save call is written: a known token (matching the
 * testimonial id when one was sent), not expired. A completed request is let through: a client whose
 * first try succeeded without it hearing back sends the same answers again, and saveSubmission answers
 * that retry with the first result.
 */
export async function openUpload(ctx: AppContext, token: string, testimonialId: string | undefined): Promise<UploadLink> {
  if (!ZRequestToken.safeParse(token).success) throw invalidLink();
  const found = await findByToken(ctx, token);
  if (!found || (testimonialId !== undefined && found.request.id !== testimonialId)) throw invalidLink();
  if (effectiveStatus(found.request) === 'expired') throw linkExpired(found.request, found.company);
  // Through a collection link (issue 30): the link still takes testimonials and the e-mail code was
  // confirmed, before any byte of the files is written.
  if (found.request.status === 'pending') await checkCollectionUpload(ctx.db, found.request);
  const [row] = await ctx.db.select({ n: count() }).from(requestQuestions).where(eq(requestQuestions.requestId, found.request.id));
  return { token, requestId: found.request.id, questionCount: Number(row?.n ?? 0) };
}

export interface SaveInput {
  fields: Record<string, string>;
  files: UploadedAnswer[];
  ip: string;
  userAgent: string | undefined;
}

function collectIndexed(fields: Record<string, string>, name: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const m = new RegExp(`^${name}\\[(\\d{1,3})\\]$`).exec(key);
    if (m) out[Number(m[1])] = value;
  }
  return Array.from(out, (v) => v ?? '');
}

/**
 * Stores a customer's answers. Every check happens before anything is written; the files are uploaded
 * (reserved as pending objects), then one short transaction holding the request's lock writes the rows,
 * the consent, each answer's transcode job and the company's e-mail. On any failure, or for a retried
 * identical submission (answered with the first one's result), the uploaded files are removed again.
 */
export async function saveSubmission(ctx: AppContext, input: SaveInput): Promise<TSaveTestimonialResponse> {
  const fields = ZSaveTestimonialFields.parse({
    questionIds: collectIndexed(input.fields, 'questionIds'),
    bgColors: collectIndexed(input.fields, 'bgColors').map((c) => c || SAVE_LIMITS.defaultBackgroundColor),
    name: input.fields.name,
    title: input.fields.title,
    testimonialId: input.fields.testimonialId,
    token: input.fields.token,
    consentVersion: input.fields.consentVersion,
  });

  const byIndex = new Map(input.files.map((f) => [f.index, f]));
  if (input.files.length !== byIndex.size || input.files.some((f) => f.index >= fields.questionIds.length)) {
    throw new AppError('invalid_data', { reason: 'recording_unmatched' });
  }
  fields.questionIds.forEach((_, i) => {
    if (!byIndex.has(i)) throw new AppError('missing_fields', { reason: 'answer_missing', params: { answer: i + 1 } });
  });

  const found = await findByToken(ctx, fields.token);
  if (!found || found.request.id !== fields.testimonialId) throw invalidLink();
  const request = found.request;
  const lang = request.language === 'french' ? 'fr' : 'en';

  const fingerprint = createHash('sha256')
    .update(request.id)
    .update(fields.questionIds.map((q, i) => `${q}:${byIndex.get(i)!.sha256}`).join('|'))
    .digest('hex');
  const previous = async (): Promise<TSaveTestimonialResponse> => {
    const rows = await ctx.db
      .select({ id: testimonialResponses.id, questionId: testimonialResponses.questionId })
      .from(testimonialResponses)
      .where(eq(testimonialResponses.requestId, request.id))
      .orderBy(asc(testimonialResponses.orderPosition));
    return { success: true, testimonialId: request.id, responses: rows };
  };
  const alreadyDone = () => alreadySent(request);

  if (request.status === 'completed') {
    if (request.submissionHash === fingerprint) return previous();
    throw alreadyDone();
  }
  if (effectiveStatus(request) === 'expired') {
    throw linkExpired(request, found.company);
  }
  if (!isConsentVersion(fields.consentVersion)) {
    throw new AppError('invalid_data', { reason: 'consent_required', field: 'consentVersion' });
  }

  const asked = await ctx.db
    .select({ id: requestQuestions.questionId, text: requestQuestions.questionText, position: requestQuestions.orderPosition })
    .from(requestQuestions)
    .where(eq(requestQuestions.requestId, request.id));
  const askedById = new Map(asked.map((q) => [q.id, q]));
  for (const id of fields.questionIds) {
    if (!askedById.has(id)) throw new AppError('invalid_data', { reason: 'question_not_asked', field: 'questionIds' });
  }

  const answers: {
    id: string;
    questionId: string;
    file: UploadedAnswer;
    probed: UploadProbe;
    kind: { extension: 'webm' | 'mp4'; contentType: string };
    bgColor: string;
    question: { id: string; text: string; position: number };
  }[] = [];
  for (const [i, questionId] of fields.questionIds.entries()) {
    const file = byIndex.get(i)!;
    const probed = await ctx.media.probeUpload(file.path, SAVE_LIMITS.maxDurationSeconds).catch(() => {
      throw refused('answer_unreadable', { answer: i + 1 });
    });
    const kind = checkAnswer(probed, i + 1);
    // Read by ffprobe with the packets above: the API process runs no ffmpeg.
    if (probed.errors.length > 0) throw refused('answer_incomplete', { answer: i + 1 });
    answers.push({ id: randomUUID(), questionId, file, probed, kind, bgColor: fields.bgColors[i]!, question: askedById.get(questionId)! });
  }

  const originalKey = (a: (typeof answers)[number]) =>
    `companies/${request.companyId}/requests/${request.id}/answers/${a.id}/original.${a.kind.extension}`;
  const keys = answers.map(originalKey);
  // Recorded before any upload: should this process die before the commit, another removes the objects.
  await reservePendingObjects(ctx.db, ctx.processId, keys);
  let outcome: 'saved' | 'duplicate';
  let pageUrl = '';
  try {
    // The uploads first, outside the transaction: no upload streams while a row lock or a pooled
    // connection is held.
    for (const a of answers) await ctx.storage.put(originalKey(a), createReadStream(a.file.path), a.kind.contentType);
    // Then one short transaction: the rows, the answers' transcode jobs and the company's e-mail commit
    // together or not at all (the transactional outbox), so nothing is sent after the commit.
    outcome = await ctx.database.transaction(async (executeSql, tx) => {
      const [locked] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, request.id)).for('update');
      if (!locked) throw invalidLink();
      if (locked.status === 'completed') {
        if (locked.submissionHash === fingerprint) return 'duplicate' as const;
        throw alreadyDone();
      }
      // The link's maximum and daily cap, again under its row lock: two customers cannot both take the last place.
      await checkCollectionUpload(tx, locked, { lock: true });
      await confirmPendingObjects(tx, keys);
      await tx.insert(testimonialResponses).values(
        answers.map((a) => ({
          id: a.id,
          requestId: request.id,
          companyId: request.companyId,
          questionId: a.questionId,
          questionText: a.question.text,
          orderPosition: a.question.position,
          bgColor: a.bgColor,
          originalKey: originalKey(a),
          originalSha256: a.file.sha256,
          durationSeconds: a.probed.durationSeconds,
          width: a.probed.video?.width ?? null,
          height: a.probed.video?.height ?? null,
        })),
      );
      const now = new Date();
      const acceptedText = consentText(fields.consentVersion as Parameters<typeof consentText>[0], lang, found.company.name);
      await tx.insert(consents).values({
        requestId: request.id,
        textVersion: fields.consentVersion,
        text: acceptedText,
        language: lang,
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        acceptedAt: now,
      });
      await tx
        .update(testimonialRequests)
        .set({
          status: 'completed',
          submittedAt: now,
          submitterName: fields.name,
          submitterTitle: fields.title || null,
          submissionHash: fingerprint,
          updatedAt: now,
        })
        .where(and(eq(testimonialRequests.id, request.id), eq(testimonialRequests.status, 'pending')));
      // The funnel's last step commits with the submission (issue 30).
      await recordRequestEvent(tx, { companyId: request.companyId, requestId: request.id, kind: 'submitted', language: request.language, at: now });
      await recordEvent(ctx, { tx, executeSql }, request.companyId, 'testimonial.submitted', { testimonial_id: request.id, answers: answers.length });
      // The first answer of every testimonial is prepared before anyone's second: with many customers
      // sending at once, each company sees its first answer soonest.
      for (const [i, a] of answers.entries()) {
        const upload = uploadReading(a.probed);
        await enqueueJob(ctx, { tx, executeSql }, { companyId: request.companyId, kind: 'transcode', requestId: request.id, responseId: a.id, priority: -i, ...(upload ? { params: { upload } } : {}) });
      }
      // Issue 31: a company that prepares drafts pays for it now when a credit is left (decision 207).
      await payOnArrival(ctx, { tx, executeSql }, request);
      await queueCompanyMail(
        { queue: ctx.queue, db: tx },
        request.companyId,
        (owner) =>
          newTestimonialEmail({
            lang: owner.lang,
            brand: ctx.config.brandName,
            to: owner.email,
            firstname: owner.firstname,
            customerName: fields.name,
            answers: answers.length,
            url: `${ctx.config.appUrl}/dashboard/testimonials/${request.id}`,
          }),
        { executeSql },
      );
      // The customer's receipt and their own page (issue 29): the token is made here, stored hashed.
      pageUrl = await issueReceipt(ctx, tx, executeSql, {
        request,
        company: found.company,
        name: fields.name,
        answers: [...answers].sort((x, y) => x.question.position - y.question.position).map((a) => ({ question: a.question.text, seconds: a.probed.durationSeconds })),
        consent: { text: acceptedText, acceptedAt: now },
      });
      return 'saved' as const;
    });
  } catch (error) {
    await abandonPendingObjects(ctx.db, ctx.storage, keys);
    throw error;
  }
  // The reliability suite's crash right after the commit (TEST_CRASH_AFTER): the work is done anyway.
  if (outcome === 'saved') crashPoint('submission-committed');
  if (outcome === 'duplicate') {
    // The first try committed: these copies of its files are not needed.
    await abandonPendingObjects(ctx.db, ctx.storage, keys);
    return previous();
  }
  return {
    success: true,
    testimonialId: request.id,
    responses: answers.map((a) => ({ id: a.id, questionId: a.questionId })),
    // Without the customer's address, the page's link is given here once (no e-mail can carry it).
    ...(request.customerEmail ? {} : { customerPageUrl: pageUrl }),
  };
}
