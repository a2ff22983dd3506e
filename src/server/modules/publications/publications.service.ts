import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { RENDER_JOB_KINDS } from '../../../contract/api/jobs.schema.js';
import {
  PUBLICATION_PAGES,
  type TCreatePublicationResponse,
  type TListPublicationsResponse,
  type TPublication,
} from '../../../contract/api/publications.schema.js';
import type { TExportPlatform } from '../../../contract/api/studio.schema.js';
import { recordEvent } from '../events/events.service.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import {
  companies,
  jobs,
  publications,
  testimonialRequests,
  testimonialResponses,
  transcriptions,
  videoStyleSettings,
  type PublicationCaptionPart,
  type TranscriptionSegment,
} from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { html } from '../../lib/html.js';
import { CARD_SECONDS, exportFrame, mergedFrameSize } from '../../media/render.js';
import { posterKeyFor } from '../studio/posters.js';
import { keptRecorded } from '../studio/trim.service.js';
import { cuesInKept } from '../../../contract/trim.js';
import { logoUrl } from '../settings/settings.service.js';
import { logoOnPlate } from '../../../contract/logo-contrast.js';
import { ZLogoPlate } from '../../../contract/api/settings.schema.js';

import { assertPublishApproved } from '../consent/approvals.service.js';
import { answerRemovedError, refuseRemoved, refuseWithdrawn, renderedAnswers } from '../consent/control.js';
import { totalsOf } from './views.service.js';

/**
 * Publishing (issue 19). A company publishes a ready render of a paid testimonial, or one of its answers
 * as recorded: the publication resolves, once, what the public will see (the video's and the poster's
 * storage keys, the picture's size, where the captions come from) and gets a slug of 128 random bits.
 * Every company-owned row is read and written through the company of the verified token. The public
 * side (`findLive`) looks a slug up in one query, the same for a slug never published and one taken down.
 */

type ResponseRow = typeof testimonialResponses.$inferSelect;
type JobRow = typeof jobs.$inferSelect;

/** 16 random bytes, base64url: 22 characters, 128 bits (the issue asks for at least 96). */
export function newSlug(): string {
  return randomBytes(16).toString('base64url');
}

export const shareUrl = (ctx: AppContext, slug: string) => `${ctx.config.appUrl}${PUBLICATION_PAGES.share(slug)}`;
export const embedUrl = (ctx: AppContext, slug: string) => `${ctx.config.appUrl}${PUBLICATION_PAGES.embed(slug)}`;

/** The default size of a player whose picture size is unknown. */
export const DEFAULT_SIZE = { width: 1280, height: 720 };

/** The embed's `<iframe>`: responsive (it keeps the video's proportions at any width). */
export function embedSnippet(ctx: AppContext, slug: string, size: { width: number | null; height: number | null }, title: string): string {
  const width = size.width ?? DEFAULT_SIZE.width;
  const height = size.height ?? DEFAULT_SIZE.height;
  return html`<iframe src="${embedUrl(ctx, slug)}" title="${title}" width="${width}" height="${height}" style="width:100%;height:auto;aspect-ratio:${width}/${height};border:0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`.value;
}

const evenDims = (w: number | null, h: number | null) =>
  w && h ? { width: Math.max(2, Math.floor(w / 2) * 2), height: Math.max(2, Math.floor(h / 2) * 2) } : { width: null, height: null };

interface Resolved {
  responseId: string | null;
  videoKey: string;
  posterKey: string | null;
  width: number | null;
  height: number | null;
  captionParts: PublicationCaptionPart[];
}

/**
 * Each answer of a merged video starts after its card and the answers before it (their recorded lengths,
 * or the kept parts the render recorded of trimmed ones, decision 201).
 */
function mergedParts(answers: ResponseRow[], kept: Record<string, { start: number; end: number }> = {}): PublicationCaptionPart[] {
  let at = 0;
  const parts: PublicationCaptionPart[] = [];
  for (const a of answers) {
    at += CARD_SECONDS;
    const part = kept[a.id];
    parts.push({ responseId: a.id, offset: at, ...(part ? { kept: part } : {}) });
    at += part ? part.end - part.start : (a.durationSeconds ?? 0);
  }
  return parts;
}

/** What a ready render shows, and where each answer's words fall in it. */
function resolveRender(job: JobRow, response: ResponseRow | undefined, answers: ResponseRow[]): Resolved {
  const params = job.params as { platform?: TExportPlatform; videoType?: 'original' | 'modified' };
  const outputKey = job.outputKey!;
  const base = { responseId: job.responseId, videoKey: outputKey, posterKey: posterKeyFor(outputKey) };
  const kept = keptRecorded(job) ?? {};
  const keptOf = (id: string) => (kept[id] ? { kept: kept[id] } : {});
  if (job.kind === 'export') {
    const frame = params.platform ? exportFrame(params.platform) : { width: null, height: null };
    // Exports are cropped and scaled, never retimed: the captions of their source fit them.
    const captionParts = response
      ? [{ responseId: response.id, offset: params.videoType === 'modified' && response.introGenerated ? CARD_SECONDS : 0, ...keptOf(response.id) }]
      : mergedParts(answers, kept);
    return { ...base, width: frame.width, height: frame.height, captionParts };
  }
  if (response) {
    // An intro starts with its card; a subtitled answer has one when its intro was made first.
    const withCard = job.kind === 'intro' || response.introGenerated;
    return { ...base, ...evenDims(response.width, response.height), captionParts: [{ responseId: response.id, offset: withCard ? CARD_SECONDS : 0, ...keptOf(response.id) }] };
  }
  // The merged video is rendered at its largest answer's size, up to 1080p (mergedFrameSize).
  const sizes = answers.flatMap((a) => (a.width && a.height ? [{ width: a.width, height: a.height }] : []));
  const size = sizes.length ? mergedFrameSize(sizes) : { width: null, height: null };
  return { ...base, ...size, captionParts: mergedParts(answers, kept) };
}

/**
 * The published video's length (decision 168): where its last answer ends, each answer at its offset in
 * the video (caption parts) plus its recorded length. Null when an answer's length is unknown. Migration
 * 0020 filled existing publications by the same rule.
 */
export function publishedDuration(parts: PublicationCaptionPart[], answers: Pick<ResponseRow, 'id' | 'durationSeconds'>[]): number | null {
  let end = 0;
  for (const part of parts) {
    const length = part.kept ? part.kept.end - part.kept.start : answers.find((a) => a.id === part.responseId)?.durationSeconds;
    if (length === null || length === undefined || !Number.isFinite(length)) return null;
    end = Math.max(end, part.offset + length);
  }
  return parts.length ? end : null;
}

/**
 * Publishes a ready render (`jobId`) or an answer as recorded (`responseId`) of a paid testimonial of the
 * company: another company's ids are 404, an unpaid testimonial 402, a render not ready 409, a render
 * or an answer of another testimonial 400.
 */
export async function createPublication(
  ctx: AppContext,
  input: { companyId: string; testimonialId: string; jobId?: string | undefined; responseId?: string | undefined; actorUserId?: string | undefined },
): Promise<TCreatePublicationResponse> {
  const [request] = await ctx.db
    .select()
    .from(testimonialRequests)
    .where(and(eq(testimonialRequests.id, input.testimonialId), eq(testimonialRequests.companyId, input.companyId)));
  if (!request) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  refuseWithdrawn(request);

  let resolved: Resolved;
  let durationSeconds: number | null;
  if (input.jobId) {
    const [job] = await ctx.db.select().from(jobs).where(and(eq(jobs.id, input.jobId), eq(jobs.companyId, input.companyId)));
    if (!job) throw new AppError('not_found', { message: 'This video does not exist or was deleted.' });
    if (!request.paid) throw unpaid();
    if (job.requestId !== request.id) {
      throw new AppError('invalid_data', { message: 'This video belongs to another testimonial.', field: 'jobId' });
    }
    if (!(RENDER_JOB_KINDS as readonly string[]).includes(job.kind)) {
      throw new AppError('invalid_data', { message: 'Only a video made in the studio (an intro, subtitles, a merge or an export) can be published.', field: 'jobId' });
    }
    if (job.phase !== 'ready' || !job.outputKey) {
      throw new AppError('conflict', {
        message: job.phase === 'queued' || job.phase === 'running' ? 'This video is still being made. Publish it once it is ready.' : 'This video could not be made, so it cannot be published.',
      });
    }
    const all = await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id)).orderBy(asc(testimonialResponses.orderPosition));
    const response = job.responseId ? all.find((a) => a.id === job.responseId) : undefined;
    // The answers the render holds, as it recorded them (every answer for a render from before issue 29):
    // none may have been removed since, even by a removal that came while it rendered (decision 188).
    const inside = renderedAnswers(job) ?? (response ? [response.id] : all.map((a) => a.id));
    const answers = all.filter((a) => inside.includes(a.id));
    if (answers.some((a) => a.removalRequestedAt)) throw answerRemovedError();
    await assertPublishApproved(ctx.db, { request, jobId: job.id });
    resolved = resolveRender(job, response, answers);
    durationSeconds = publishedDuration(resolved.captionParts, answers);
  } else {
    const [response] = await ctx.db
      .select()
      .from(testimonialResponses)
      .where(and(eq(testimonialResponses.id, input.responseId!), eq(testimonialResponses.companyId, input.companyId)));
    if (!response) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
    if (!request.paid) throw unpaid();
    if (response.requestId !== request.id) {
      throw new AppError('invalid_data', { message: 'This answer belongs to another testimonial.', field: 'responseId' });
    }
    refuseRemoved([response]);
    if (!response.videoKey) throw new AppError('conflict', { message: 'This answer is still being prepared. Publish it once it plays.' });
    await assertPublishApproved(ctx.db, { request, responseId: response.id });
    resolved = {
      responseId: response.id,
      videoKey: response.videoKey,
      posterKey: response.posterKey,
      ...evenDims(response.width, response.height),
      captionParts: [{ responseId: response.id, offset: 0 }],
    };
    durationSeconds = publishedDuration(resolved.captionParts, [response]);
  }

  const slug = newSlug();
  const row = await ctx.database.transaction(async (executeSql, tx) => {
    const [inserted] = await tx
      .insert(publications)
      .values({ companyId: input.companyId, requestId: request.id, jobId: input.jobId ?? null, slug, ...resolved, durationSeconds })
      .returning({ id: publications.id });
    await recordEvent(ctx, { tx, executeSql }, input.companyId, 'publication.published', { publication_id: inserted!.id, testimonial_id: request.id, url: shareUrl(ctx, slug) }, { actorUserId: input.actorUserId });
    return inserted;
  });
  return { id: row!.id, slug, url: shareUrl(ctx, slug), embedUrl: embedUrl(ctx, slug) };
}

const unpaid = () => new AppError('no_permission', { status: 402, message: 'Unlock this testimonial (one credit) before publishing it.' });

/** The company's live publications, newest first (of one testimonial when given). */
export async function listPublications(
  ctx: AppContext,
  input: { companyId: string; testimonialId?: string | undefined; page?: { limit: number; offset: number } },
): Promise<TListPublicationsResponse> {
  const query = selectLivePublications(ctx.db, { p: publications }, livePublicationsOf(input)).orderBy(desc(publications.createdAt), desc(publications.id));
  // A page is read in the database (the API's pages); the dashboard reads them all.
  const rows = input.page ? await query.limit(input.page.limit).offset(input.page.offset) : await query;
  const [transcripts, views] = await Promise.all([
    Promise.all(rows.map(({ p }) => captionsOf(ctx, p))),
    totalsOf(ctx, rows.map(({ p }) => p.id)),
  ]);
  return {
    publications: rows.map((row, i): TPublication => {
      const { p } = row;
      return {
        id: p.id,
        testimonialId: p.requestId,
        jobId: p.jobId,
        responseId: p.responseId,
        slug: p.slug,
        url: shareUrl(ctx, p.slug),
        embedUrl: embedUrl(ctx, p.slug),
        embedHtml: embedSnippet(ctx, p.slug, p, nameOf(row)),
        createdAt: p.createdAt.toISOString(),
        quote: p.quote,
        quoteEdited: p.quoteEdited,
        durationSeconds: p.durationSeconds,
        posterSeconds: p.posterSeconds,
        transcript: transcripts[i]!.paragraphs,
        views: views.get(p.id)!.started,
        viewCounts: views.get(p.id)!,
      };
    }),
  };
}

const livePublicationsOf = (input: { companyId: string; testimonialId?: string | undefined }) =>
  and(eq(publications.companyId, input.companyId), input.testimonialId ? eq(publications.requestId, input.testimonialId) : undefined);

/** How many live publications `listPublications` would list, counted in the database. */
export async function countPublications(ctx: AppContext, input: { companyId: string; testimonialId?: string | undefined }): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(publications)
    .where(and(isNull(publications.unpublishedAt), livePublicationsOf(input)));
  return row?.n ?? 0;
}

/** Unpublishes one of the company's publications: from this moment its slug is unknown to the public routes. */
export async function unpublish(ctx: AppContext, input: { companyId: string; id: string; actorUserId?: string | undefined }): Promise<void> {
  await ctx.database.transaction(async (executeSql, tx) => {
    const [done] = await tx
      .update(publications)
      .set({ unpublishedAt: new Date(), unpublishedReason: 'company' })
      .where(and(eq(publications.id, input.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)))
      .returning({ id: publications.id, requestId: publications.requestId });
    if (!done) throw new AppError('not_found', { message: 'This publication does not exist or was already taken down.' });
    await recordEvent(ctx, { tx, executeSql }, input.companyId, 'publication.unpublished', { publication_id: done.id, testimonial_id: done.requestId, reason: 'company' }, { actorUserId: input.actorUserId });
  });
}

/**
 * Refuses changing a live publication (its quote, its poster, its place on the wall) of a testimonial whose
 * consent was withdrawn, or that holds an answer the customer asked to remove (issue 29).
 */
export async function assertPublicationUsable(db: DbOrTx, companyId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await db
    .select({ consentWithdrawnAt: testimonialRequests.consentWithdrawnAt, captionParts: publications.captionParts, responseId: publications.responseId })
    .from(publications)
    .innerJoin(testimonialRequests, eq(testimonialRequests.id, publications.requestId))
    .where(and(eq(publications.companyId, companyId), inArray(publications.id, ids)));
  for (const row of rows) refuseWithdrawn(row);
  const answerIds = [...new Set(rows.flatMap((r) => [...r.captionParts.map((p) => p.responseId), ...(r.responseId ? [r.responseId] : [])]))];
  if (!answerIds.length) return;
  refuseRemoved(await db.select({ removalRequestedAt: testimonialResponses.removalRequestedAt }).from(testimonialResponses).where(inArray(testimonialResponses.id, answerIds)));
}

/* ------------------------------------------------------------------ the one query of live publications */

/**
 * The one query of live publications (issue 28), for the company's list, its wall and the public pages: the
 * publications not taken down that match `where`, joined to their testimonial (who speaks, in which language)
 * and to the render they show (its kind; none for an answer as recorded). The caller picks its own columns
 * beside those, and may add joins, an order and a limit.
 */
export function selectLivePublications<TFields extends SelectedFields>(db: DbOrTx, fields: TFields, where: SQL | undefined) {
  return db
    .select({
      ...fields,
      language: testimonialRequests.language,
      customerName: testimonialRequests.customerName,
      customerPosition: testimonialRequests.customerPosition,
      submitterName: testimonialRequests.submitterName,
      submitterTitle: testimonialRequests.submitterTitle,
      jobKind: jobs.kind,
    })
    .from(publications)
    .innerJoin(testimonialRequests, eq(testimonialRequests.id, publications.requestId))
    .leftJoin(jobs, eq(jobs.id, publications.jobId))
    .where(and(isNull(publications.unpublishedAt), where));
}

/** Who speaks in a publication: the name the customer gave when recording, else the one the company typed. */
export const nameOf = (row: { customerName: string; submitterName: string | null }) => row.submitterName?.trim() || row.customerName;
export const titleOf = (row: { customerPosition: string | null; submitterTitle: string | null }) =>
  row.submitterTitle?.trim() || row.customerPosition?.trim() || null;

/* ------------------------------------------------------------------ the public side */

export interface LivePublication {
  id: string;
  slug: string;
  videoKey: string;
  posterKey: string | null;
  width: number | null;
  height: number | null;
  /** The video's length in seconds (shown before it plays), or null when unknown. */
  durationSeconds: number | null;
  captionParts: PublicationCaptionPart[];
  /** The picture carries its subtitles already (a subtitled render): the captions track is offered, not shown by default. */
  subtitlesBurnedIn: boolean;
  language: 'en' | 'fr';
  name: string;
  position: string | null;
  /** Words of the customer picked by the company, shown beside the video. */
  quote: string | null;
  /** The quote is found only in the transcript as the company edited it: the page labels it (decision 154). */
  quoteEdited: boolean;
  /** `logoPlate`: the header draws the logo on the light plate (decision 172), as the video's card does. */
  company: { id: string; name: string; logoUrl: string | null; logoPlate: boolean };
  colors: { background: string; text: string };
}

/** A publication of a subtitled render shows its subtitles in the picture: its captions track is offered, not shown by default. */
export const subtitlesBurnedIn = (jobKind: string | null | undefined): boolean => jobKind === 'subtitles' || jobKind === 'merged_subtitles' || jobKind === 'draft';

/** The language of a publication's public pages and captions: its request's. */
export const publicLanguage = (requestLanguage: string): 'en' | 'fr' => (requestLanguage === 'french' ? 'fr' : 'en');

/**
 * A live publication by its slug, with what its page shows, in one query: a slug never published and
 * one taken down go through exactly the same path (no row).
 */
export async function findLive(ctx: AppContext, slug: string): Promise<LivePublication | null> {
  // A slug of another shape is looked up all the same, so that its answer takes the same time.
  const [row] = await selectLivePublications(
    ctx.db,
    {
      p: publications,
      companyName: companies.name,
      logoKey: companies.logoKey,
      logoLuminance: companies.logoLuminance,
      logoPlate: videoStyleSettings.logoPlate,
      background: videoStyleSettings.backgroundColor,
      text: videoStyleSettings.fontColorQuestion,
    },
    eq(publications.slug, slug.slice(0, 64)),
  )
    .innerJoin(companies, eq(companies.id, publications.companyId))
    .leftJoin(videoStyleSettings, eq(videoStyleSettings.companyId, publications.companyId));
  if (!row) return null;
  const { p } = row;
  return {
    id: p.id,
    slug: p.slug,
    videoKey: p.videoKey,
    posterKey: p.posterKey,
    width: p.width,
    height: p.height,
    durationSeconds: p.durationSeconds,
    captionParts: p.captionParts,
    subtitlesBurnedIn: subtitlesBurnedIn(row.jobKind),
    language: publicLanguage(row.language),
    name: nameOf(row),
    position: titleOf(row),
    quote: p.quote,
    quoteEdited: p.quoteEdited,
    company: {
      id: p.companyId,
      name: row.companyName,
      logoUrl: logoUrl(ctx, { id: p.companyId, logoKey: row.logoKey }),
      logoPlate: logoOnPlate({ logoLuminance: row.logoLuminance, background: row.background ?? '#15171f', plate: ZLogoPlate.catch('auto').parse(row.logoPlate) }),
    },
    colors: { background: row.background ?? '#15171f', text: row.text ?? '#ffffff' },
  };
}

export interface CaptionCue {
  start: number;
  end: number;
  text: string;
}

/** The segments of a transcript that become cues: with words, and a duration. */
export const shownSegments = (segments: TranscriptionSegment[]) => segments.filter((s) => s.text.trim() && s.end > s.start);

/**
 * Whether each publication has captions (its share page's test: at least one cue, `captionsOf(…).cues.length > 0`),
 * for many publications in one query (a wall's).
 */
export async function haveCaptions(ctx: AppContext, lives: Pick<LivePublication, 'captionParts'>[]): Promise<boolean[]> {
  const ids = [...new Set(lives.flatMap((live) => live.captionParts.map((part) => part.responseId)))];
  if (!ids.length) return lives.map(() => false);
  const rows = await ctx.db
    .select({ responseId: transcriptions.responseId, segments: transcriptions.segments })
    .from(transcriptions)
    .where(inArray(transcriptions.responseId, ids));
  const captioned = new Set(rows.filter((r) => shownSegments(r.segments).length > 0).map((r) => r.responseId));
  return lives.map((live) => live.captionParts.some((part) => captioned.has(part.responseId)));
}

/** An answer's words as one paragraph, as the share page shows them: its shown segments, trimmed, one space apart. */
export const paragraphOf = (segments: TranscriptionSegment[]) =>
  shownSegments(segments)
    .map((s) => s.text.trim())
    .join(' ');

/** A published answer's transcript: the words shown (as edited) and what is known of the engine's own. */
export interface PartTranscript {
  segments: TranscriptionSegment[];
  originalSegments: TranscriptionSegment[] | null;
  edited: boolean;
}

/**
 * The transcripts of a publication's answers in one query, in the order of its caption parts (an answer
 * without a transcript is left out): what its captions (`captionsOf`) and its quote's check
 * (`quoteSources`) are made of.
 */
export async function partTranscripts(ctx: AppContext, captionParts: PublicationCaptionPart[]): Promise<{ part: PublicationCaptionPart; transcript: PartTranscript }[]> {
  if (!captionParts.length) return [];
  const rows = await ctx.db
    .select({ responseId: transcriptions.responseId, segments: transcriptions.segments, originalSegments: transcriptions.originalSegments, edited: transcriptions.edited })
    .from(transcriptions)
    .where(inArray(transcriptions.responseId, captionParts.map((part) => part.responseId)));
  const byResponse = new Map<string, PartTranscript>(rows.map((r) => [r.responseId, r]));
  return captionParts.flatMap((part) => {
    const transcript = byResponse.get(part.responseId);
    return transcript ? [{ part, transcript }] : [];
  });
}

/** The publication's cues on its own timeline (its answers' transcripts laid at their offsets), and the transcript by answer. */
export async function captionsOf(ctx: AppContext, live: Pick<LivePublication, 'captionParts'>): Promise<{ cues: CaptionCue[]; paragraphs: string[] }> {
  const cues: CaptionCue[] = [];
  const paragraphs: string[] = [];
  for (const { part, transcript } of await partTranscripts(ctx, live.captionParts)) {
    // A trimmed answer's lines brought to the part the video holds (decision 201).
    const segments = cuesInKept(shownSegments(transcript.segments), part.kept ?? null);
    if (!segments.length) continue;
    for (const s of segments) cues.push({ start: s.start + part.offset, end: s.end + part.offset, text: s.text.trim() });
    paragraphs.push(paragraphOf(segments));
  }
  return { cues, paragraphs };
}
