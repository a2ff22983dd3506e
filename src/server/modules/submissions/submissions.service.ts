import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { and, asc, count, eq } from 'drizzle-orm';
import {
  INVALID_LINK_MESSAGE,
  SAVE_LIMITS,
  ZRequestToken,
  ZSaveTestimonialFields,
  type TSaveTestimonialResponse,
  type TValidateTokenResponse,
  ZValidateTokenResponse,
} from '../../../contract/api/public.schema.js';
import { consentText, isConsentVersion } from '../../../contract/consent.js';
import { RECORDING } from '../../../contract/constants.js';
import type { AppContext } from '../../context.js';
import { companies, consents, requestQuestions, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { transcodeAnswerJob } from '../../jobs/definitions.js';
import { jsonText } from '../../http/json-text.js';
import { AppError } from '../../lib/errors.js';
import { queueCompanyMail } from '../../mail/send.js';
import { ANSWER_FRAME_LIMITS } from '../../media/answer-limits.js';
import { probeUpload, readErrors, type ProbeResult } from '../../media/ffmpeg.js';
import { abandonPendingObjects, confirmPendingObjects, reservePendingObjects } from '../../storage/pending-objects.js';
import { effectiveStatus } from '../requests/requests.service.js';
import { logoUrl } from '../settings/settings.service.js';
import { newTestimonialEmail } from './submissions.emails.js';

export const invalidLink = () => new AppError('not_found', { message: `${INVALID_LINK_MESSAGE}. Please check the link in your e-mail.` });

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
  if (status === 'completed') {
    throw new AppError('invalid_data', { status: 409, message: 'This testimonial has already been recorded and sent. Thank you!' });
  }
  if (status === 'expired') {
    throw new AppError('invalid_data', { status: 410, message: `This link has expired. Please ask ${found.company.name} for a new one.` });
  }
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

type Lang = 'en' | 'fr';

/** The customer sees these on the recording page, which speaks the request's language. */
const answerMessages = {
  unreadable: (n: number) => ({
    en: `Answer ${n} is not a video we can read. Please record it again.`,
    fr: `La réponse ${n} n'est pas une vidéo que nous savons lire. Merci de l'enregistrer à nouveau.`,
  }),
  noSound: (n: number) => ({
    en: `Answer ${n} has no sound. Check that your microphone is allowed and record it again.`,
    fr: `La réponse ${n} n'a pas de son. Vérifiez que votre micro est autorisé et enregistrez-la à nouveau.`,
  }),
  empty: (n: number) => ({
    en: `Answer ${n} is empty. Please record it again.`,
    fr: `La réponse ${n} est vide. Merci de l'enregistrer à nouveau.`,
  }),
  tooLong: (n: number) => ({
    en: `Answer ${n} lasts more than ${RECORDING.maxSeconds} seconds; answers are limited to ${RECORDING.maxSeconds} seconds. Please record it again.`,
    fr: `La réponse ${n} dure plus de ${RECORDING.maxSeconds} secondes ; une réponse est limitée à ${RECORDING.maxSeconds} secondes. Merci de l'enregistrer à nouveau.`,
  }),
  tooLarge: (n: number, w: number, h: number) => ({
    en: `Answer ${n} has a picture of ${w}×${h} pixels, larger than we accept (at most ${ANSWER_FRAME_LIMITS.maxSide} pixels on a side, 3840×2160 in all). Please record it again with your camera's usual settings.`,
    fr: `La réponse ${n} a une image de ${w}×${h} pixels, plus grande que ce que nous acceptons (au plus ${ANSWER_FRAME_LIMITS.maxSide} pixels de côté, 3840×2160 au total). Merci de l'enregistrer à nouveau avec les réglages habituels de votre caméra.`,
  }),
  incomplete: (n: number) => ({
    en: `Answer ${n} did not arrive complete. Please send it again.`,
    fr: `La réponse ${n} n'est pas arrivée entière. Merci de l'envoyer à nouveau.`,
  }),
};

const refused = (lang: Lang, text: { en: string; fr: string }) => new AppError('invalid_format', { message: text[lang] });

/**
 * A real video with sound, of an accepted kind, no longer than the limit (plus tolerance) as its
 * packets say, and with a frame of a sane size.
 */
export function checkAnswer(p: ProbeResult & { tooManyPackets?: boolean }, answerNumber: number, lang: Lang = 'en'): { extension: 'webm' | 'mp4'; contentType: string } {
  const isWebm = /matroska|webm/.test(p.formatName);
  const isMp4 = /mp4|mov/.test(p.formatName);
  if (!p.video || (!isWebm && !isMp4) || !VIDEO_CODECS.has(p.video.codec) || !(p.video.width > 0 && p.video.height > 0) || p.tooManyPackets) {
    throw refused(lang, answerMessages.unreadable(answerNumber));
  }
  if (!p.audio || !AUDIO_CODECS.has(p.audio.codec)) throw refused(lang, answerMessages.noSound(answerNumber));
  const { width, height } = p.video;
  if (Math.max(width, height) > ANSWER_FRAME_LIMITS.maxSide || width * height > ANSWER_FRAME_LIMITS.maxPixels) {
    throw refused(lang, answerMessages.tooLarge(answerNumber, width, height));
  }
  if (!(p.durationSeconds > 0)) throw refused(lang, answerMessages.empty(answerNumber));
  if (p.durationSeconds > SAVE_LIMITS.maxDurationSeconds) throw refused(lang, answerMessages.tooLong(answerNumber));
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
  if (effectiveStatus(found.request) === 'expired') {
    throw new AppError('invalid_data', { status: 410, message: `This link has expired. Please ask ${found.company.name} for a new one.` });
  }
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
 * Stores a customer's answers. Every check happens before anything is written; the files are stored
 * and the rows written inside one transaction that holds the request's lock, and on any failure the
 * stored files are removed again. A retried identical submission returns the first one's result.
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
    throw new AppError('invalid_data', { message: 'Each recording must belong to one question.' });
  }
  fields.questionIds.forEach((_, i) => {
    if (!byIndex.has(i)) throw new AppError('missing_fields', { message: `The recording of answer ${i + 1} is missing. Please try again.` });
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
  const alreadyDone = () => new AppError('invalid_data', { status: 409, message: 'This testimonial has already been recorded and sent. Thank you!' });

  if (request.status === 'completed') {
    if (request.submissionHash === fingerprint) return previous();
    throw alreadyDone();
  }
  if (effectiveStatus(request) === 'expired') {
    throw new AppError('invalid_data', { status: 410, message: `This link has expired. Please ask ${found.company.name} for a new one.` });
  }
  if (!isConsentVersion(fields.consentVersion)) {
    throw new AppError('invalid_data', { message: 'The image-rights authorisation must be accepted.', field: 'consentVersion' });
  }

  const asked = await ctx.db
    .select({ id: requestQuestions.questionId, text: requestQuestions.questionText, position: requestQuestions.orderPosition })
    .from(requestQuestions)
    .where(eq(requestQuestions.requestId, request.id));
  const askedById = new Map(asked.map((q) => [q.id, q]));
  for (const id of fields.questionIds) {
    if (!askedById.has(id)) throw new AppError('invalid_data', { message: 'One of the answers is for a question this request does not ask.', field: 'questionIds' });
  }

  const answers: {
    id: string;
    questionId: string;
    file: UploadedAnswer;
    probed: ProbeResult;
    kind: { extension: 'webm' | 'mp4'; contentType: string };
    bgColor: string;
    question: { id: string; text: string; position: number };
  }[] = [];
  for (const [i, questionId] of fields.questionIds.entries()) {
    const file = byIndex.get(i)!;
    const probed = await probeUpload(file.path, SAVE_LIMITS.maxDurationSeconds).catch(() => {
      throw refused(lang, answerMessages.unreadable(i + 1));
    });
    const kind = checkAnswer(probed, i + 1, lang);
    if ((await readErrors(file.path, 'packets')).length > 0) throw refused(lang, answerMessages.incomplete(i + 1));
    answers.push({ id: randomUUID(), questionId, file, probed, kind, bgColor: fields.bgColors[i]!, question: askedById.get(questionId)! });
  }

  const originalKey = (a: (typeof answers)[number]) =>
    `companies/${request.companyId}/requests/${request.id}/answers/${a.id}/original.${a.kind.extension}`;
  const keys = answers.map(originalKey);
  const outcome: { value: 'saved' | 'duplicate' } = { value: 'saved' };
  // Recorded before any upload: should this process die before the commit, another removes the objects.
  await reservePendingObjects(ctx.db, ctx.processId, keys);
  try {
    await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(testimonialRequests).where(eq(testimonialRequests.id, request.id)).for('update');
      if (!locked) throw invalidLink();
      if (locked.status === 'completed') {
        if (locked.submissionHash === fingerprint) {
          outcome.value = 'duplicate';
          return;
        }
        throw alreadyDone();
      }
      for (const a of answers) await ctx.storage.put(originalKey(a), createReadStream(a.file.path), a.kind.contentType);
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
          renderState: { transcode: { phase: 'queued' as const, progress: 0, error: null, jobId: null, updatedAt: new Date().toISOString() } },
        })),
      );
      const now = new Date();
      await tx.insert(consents).values({
        requestId: request.id,
        textVersion: fields.consentVersion,
        text: consentText(fields.consentVersion as Parameters<typeof consentText>[0], lang, found.company.name),
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
    });
  } catch (error) {
    await abandonPendingObjects(ctx.db, ctx.storage, keys);
    throw error;
  }
  if (outcome.value === 'duplicate') {
    await abandonPendingObjects(ctx.db, ctx.storage, keys);
    return previous();
  }

  for (const a of answers) await ctx.queue.send(transcodeAnswerJob, { responseId: a.id }, { singletonKey: a.id });
  await queueCompanyMail(ctx, request.companyId, (owner) =>
    newTestimonialEmail({
      lang: owner.lang,
      brand: ctx.config.brandName,
      to: owner.email,
      firstname: owner.firstname,
      customerName: fields.name,
      answers: answers.length,
      url: `${ctx.config.appUrl}/dashboard/testimonials/${request.id}`,
    }),
  );
  return { success: true, testimonialId: request.id, responses: answers.map((a) => ({ id: a.id, questionId: a.questionId })) };
}
