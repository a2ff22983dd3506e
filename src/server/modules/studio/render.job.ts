import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { TCropArea } from '../../../contract/api/studio.schema.js';
import { ZLogoPlate } from '../../../contract/api/settings.schema.js';
import { DEFAULT_VIDEO_STYLE, fontChoice } from '../../../contract/constants.js';
import type { Cue } from '../../../contract/subtitles.js';
import { cuesInKept } from '../../../contract/trim.js';
import { logoOnPlate } from '../../../contract/logo-contrast.js';
import { wordHighlight } from '../../../contract/word-captions.js';
import { recordEvent } from '../events/events.service.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { companies, jobs, testimonialRequests, testimonialResponses, transcriptions, videoStyleSettings } from '../../db/schema.js';
import { fontFile, hasBold, subtitleFont } from '../../media/fonts.js';
import {
  CARD_SECONDS,
  composeArgs,
  cropPixels,
  exportArgs,
  exportFrame,
  layoutCard,
  mergedFrameSize,
  writeCard,
  writeSubtitles,
  type Card,
  type CardStyle,
  type Frame,
  type SubtitleStyle,
} from '../../media/render.js';
import { multiExportArgs, multiFormatArgs, type FormatOutput } from '../../media/multi-format.js';
import { renderedAnswers } from '../consent/control.js';
import { cancelJob, completeJob, JobFailure, reportProgress, runJob, type JobRow, type RunMeta } from '../jobs/jobs.service.js';
import { measuredLogoLuminance, normalisedLogoKey } from '../settings/logo.job.js';
import { layoutEndCard, layoutLowerThird, writeEndCard, writeLowerThird } from '../../media/overlays.js';
import type { LowerThirdLayout } from '../../../contract/frame-layout.js';
import { videoExtras } from './video-extras.js';
import { wordCaptionClearance } from '../../../contract/word-captions.js';
import { posterKeyFor, writePoster } from './posters.js';
import { renderDraft } from './draft.job.js';
import { answerKept, keptRecorded } from './trim.service.js';
import { noteRenderReady } from './ready-mail.js';
import type { RenderParams } from './studio.service.js';

/**
 * The studio's worker half (render-output queue): renders one output in one ffmpeg run, uploads it, then
 * records in one transaction the row's pointer to it, the job's 'ready' (through the jobs service) and
 * the 'video ready' e-mails. Output keys hold the job's id, so a retried or duplicated delivery
 * overwrites its own output instead of making a second one. The start calls are in studio.service.ts.
 */

type ResponseRow = typeof testimonialResponses.$inferSelect;
type RequestRow = typeof testimonialRequests.$inferSelect;

/** The company's video style, each field defaulting to the default theme's (DEFAULT_VIDEO_STYLE). */
async function videoStyle(ctx: AppContext, companyId: string) {
  const [row] = await ctx.db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId));
  const d = DEFAULT_VIDEO_STYLE;
  return {
    row,
    question: {
      font: fontChoice(row?.fontStyleQuestion, d.font_style_question),
      bold: row?.fontBoldQuestion ?? d.font_bold_question,
      size: row?.fontSizeQuestion ?? d.font_size_question,
      color: row?.fontColorQuestion ?? d.font_color_question,
      background: row?.backgroundColor ?? d.background_color,
    },
    subtitle: {
      font: fontChoice(row?.fontStyleSubtitle, d.font_style_subtitle),
      bold: row?.fontBoldSubtitle ?? d.font_bold_subtitle,
      size: row?.fontSizeSubtitle ?? d.font_size_subtitle,
      color: row?.fontColorSubtitle ?? d.font_color_subtitle,
      border: row?.subtitleBorder ?? d.subtitle_border,
    },
  };
}

/** The company's subtitle style and an answer's cues (undefined without cues); the script is written per frame. */
async function subtitleStyle(ctx: AppContext, companyId: string, responseId: string): Promise<{ cues: Cue[]; style: SubtitleStyle } | undefined> {
  const [cues] = await ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, responseId));
  if (!cues?.segments.length) return undefined;
  const { subtitle, row, question } = await videoStyle(ctx, companyId);
  return {
    cues: cues.segments,
    style: {
      face: { font: subtitle.font, bold: subtitle.bold }, ...subtitleFont(subtitle.font), size: subtitle.size, color: subtitle.color, bold: subtitle.bold && hasBold(subtitle.font), border: subtitle.border,
      // Issue 31: word-by-word captions, the spoken word in the company's colour (decision 204).
      ...(row?.captionStyle === 'word' ? { captions: 'word' as const, highlight: wordHighlight({ text: subtitle.color, background: question.background, cardText: question.color }) } : {}),
    },
  };
}

/** The card's style of the company, and its logo's key when the cards drawn show it. */
async function cardStyle(ctx: AppContext, companyId: string, withLogo: boolean) {
  const { row, question } = await videoStyle(ctx, companyId);
  const [company] = await ctx.db.select().from(companies).where(eq(companies.id, companyId));
  // The normalised copy (a logo stored before normalisation is normalised here, once).
  const logoKey = withLogo && (row?.showLogoInVideos ?? DEFAULT_VIDEO_STYLE.show_logo_in_videos) && company ? await normalisedLogoKey(ctx, company) : null;
  // A logo uploaded before logos were measured is measured here, once (decision 172).
  const logoLuminance = logoKey ? (company?.logoLuminance ?? (await measuredLogoLuminance(ctx, companyId, logoKey))) : null;
  return {
    style: {
      background: question.background,
      color: question.color,
      size: question.size,
      face: { font: question.font, bold: question.bold },
      fontFile: fontFile(question.font, question.bold),
      regularFile: fontFile(question.font, false),
      // A dark logo on a dark card sits on a light plate (decision 172), as on the share page's header.
      logoPlate: logoOnPlate({ logoLuminance, background: question.background, plate: ZLogoPlate.catch('auto').parse(row?.logoPlate) }),
    } satisfies CardStyle,
    logoKey,
  };
}

/** Copies a stored file to the work folder; a file that is gone fails the job for good (source_missing). */
async function download(ctx: AppContext, key: string | null, file: string): Promise<string> {
  if (!key || !(await ctx.storage.head(key))) throw new JobFailure('source_missing', {}, `missing source ${key ?? '(none)'}`);
  await pipeline(await ctx.storage.get(key), createWriteStream(file));
  return file;
}

/** Writes the question's lines for drawtext, laid out for the frame being rendered (the shared frame layout). */
function lineFiles(dir: string, prefix: string, text: string, frame: Frame, style: CardStyle, logo: boolean): Promise<Card> {
  return writeCard(dir, prefix, layoutCard({ text, frame, style, logo }));
}

/** The size of the file's picture (after any rotation the transcode applied), else the size recorded for the answer. */
async function pictureSize(ctx: AppContext, file: string, fallback: { width: number; height: number }) {
  const probed = await ctx.media.probe(file).catch(() => null);
  return probed?.video?.width && probed.video.height ? { width: probed.video.width, height: probed.video.height } : fallback;
}

const evenDims = (w: number | null, h: number | null) => ({ width: Math.max(2, Math.floor((w ?? 1280) / 2) * 2), height: Math.max(2, Math.floor((h ?? 720) / 2) * 2) });

/**
 * What a finished render records with its job: the pointer of the answer or the testimonial to its output
 * (returns its key), and the answers the output contains (recorded as the job's `result.responseIds`:
 * publishing checks that none of them was removed since, decision 188).
 */
interface Recorder {
  record: (tx: Db) => Promise<string>;
  responseIds: string[];
  /** The trimmed answers' kept parts the output holds (decision 201), recorded as the job's `result.kept`. */
  kept?: Record<string, { start: number; end: number }> | undefined;
  /** More of the job's result beside `responseIds` (issue 31: the draft's `subtitled` and `durationSeconds`). */
  result?: Record<string, unknown>;
}

/**
 * Composes answers in one ffmpeg run from their transcoded files, for one frame or several (an export in
 * several formats, decision 199: each answer decoded once and split to every format). For each answer and
 * frame: its card laid out for the frame (with the logo), the kept part of the answer (decision 201),
 * cropped by the format's area for an export, its subtitles and lower-third laid out for the frame; then
 * the concatenation and the end card (decision 202). One output file per frame.
 */
async function composeAnswers(
  ctx: AppContext,
  job: JobRow,
  answers: ResponseRow[],
  o: { formats: { frame: Frame; output: string; cropArea?: TCropArea | undefined }[]; dir: string; cards: boolean; subtitles: boolean },
): Promise<{ subtitled: boolean }> {
  const extras = await videoExtras(ctx, job.companyId, job.requestId);
  const { style, logoKey } = await cardStyle(ctx, job.companyId, o.cards || Boolean(extras.endCard));
  const logo = logoKey ? await download(ctx, logoKey, path.join(o.dir, `logo${path.extname(logoKey)}`)) : undefined;
  const formats = await Promise.all(
    o.formats.map(async (f, k): Promise<FormatOutput & { cropArea?: TCropArea | undefined; lowerThird: LowerThirdLayout | null }> => {
      // Word-by-word captions sit higher than line subtitles: the lower-third keeps above them.
      const keepAbove = o.subtitles && extras.captionStyle === 'word' ? wordCaptionClearance({ ...f.frame, size: extras.subtitleSize, border: extras.subtitleBorder }) : undefined;
      const endCardFit = extras.endCard && layoutEndCard({ frame: f.frame, ...extras.endCard, face: style.face, size: style.size, logo: Boolean(logo) });
      return {
        output: f.output,
        frame: f.frame,
        cropArea: f.cropArea,
        segments: [],
        lowerThird: extras.lowerThird ? layoutLowerThird({ frame: f.frame, ...extras.lowerThird, face: style.face, subtitleSize: extras.subtitleSize, keepAbove }) : null,
        endCard: endCardFit ? await writeEndCard(o.dir, endCardFit, `f${k}`) : undefined,
      };
    }),
  );
  let subtitled = false;
  for (const [i, a] of answers.entries()) {
    const answer = await download(ctx, a.videoKey, path.join(o.dir, `answer${i}.mp4`));
    const source = await pictureSize(ctx, answer, evenDims(a.width, a.height));
    const cues = o.subtitles ? await subtitleStyle(ctx, job.companyId, a.id) : undefined;
    if (cues) subtitled = true;
    // Only the kept part of a trimmed answer is read, its subtitles shifted to it (decision 201).
    const kept = answerKept(a);
    // The length of what is read: the kept part of a trimmed answer (its fades out land at its end).
    const duration = kept ? kept.end - kept.start : (await ctx.media.probe(answer).catch(() => null))?.durationSeconds;
    for (const [k, f] of formats.entries()) {
      f.segments.push({
        trim: kept ?? undefined,
        answer,
        source,
        crop: f.cropArea ? cropPixels(f.cropArea, source.width, source.height) : undefined,
        card: o.cards ? await lineFiles(o.dir, `f${k}q${i}`, a.questionText, f.frame, style, Boolean(logo)) : undefined,
        subtitles: cues ? await writeSubtitles(o.dir, `f${k}a${i}`, cuesInKept(cues.cues, kept), cues.style, f.frame) : undefined,
        lowerThird: f.lowerThird ? await writeLowerThird(o.dir, `f${k}lt${i}`, f.lowerThird) : undefined,
        duration,
      });
    }
  }
  await reportProgress(ctx, job.id, 10);
  const [only] = formats;
  const args = formats.length === 1 && only ? composeArgs({ output: only.output, frame: only.frame, style, segments: only.segments, logo, endCard: only.endCard }) : multiFormatArgs({ formats, style, logo });
  await ctx.media.runFfmpeg(args, { failOnErrors: 'filters' });
  return { subtitled };
}

/** Renders an answer's enhanced version (intro and/or subtitles) at the answer's own size. */
async function renderAnswer(ctx: AppContext, job: JobRow, response: ResponseRow, dir: string, output: string): Promise<Recorder> {
  // The enhanced version carries what the answer has: the intro (unless only subtitles were asked for a
  // bare answer) and the subtitles once they exist.
  const withIntro = job.kind !== 'subtitles' || response.introGenerated;
  const withSubtitles = job.kind === 'subtitles' || response.hasSubtitles;
  if (job.kind === 'subtitles' && !(await subtitleStyle(ctx, job.companyId, response.id))) throw new JobFailure('no_subtitles');
  const frame: Frame = { ...evenDims(response.width, response.height), kind: 'answer' };
  const { subtitled } = await composeAnswers(ctx, job, [response], { formats: [{ frame, output }], dir, cards: withIntro, subtitles: withSubtitles });
  const key = `companies/${job.companyId}/requests/${job.requestId}/answers/${response.id}/${job.kind === 'subtitles' ? 'subtitles' : 'intro'}-${job.id}.mp4`;
  await ctx.storage.put(key, createReadStream(output), 'video/mp4');
  await writePoster(ctx, { video: output, key: posterKeyFor(key), answerStart: withIntro ? CARD_SECONDS : 0 });
  const record = async (tx: Db) => {
    await tx
      .update(testimonialResponses)
      .set({ modifiedKey: key, introGenerated: withIntro, hasSubtitles: subtitled, updatedAt: new Date() })
      .where(eq(testimonialResponses.id, response.id));
    return key;
  };
  return { record, responseIds: [response.id], kept: keptOf([response]) };
}

/** The answers of a testimonial in order, without those the customer asked to remove (issue 29). */
const answersOf = async (ctx: AppContext, requestId: string) =>
  (await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, requestId)).orderBy(asc(testimonialResponses.orderPosition))).filter(
    (a) => !a.removalRequestedAt,
  );

/**
 * Renders the merged video in one run: each answer behind its card (with its subtitles for
 * merged_subtitles), at the largest answer's size up to 1080p (mergedFrameSize), the others fitted and padded.
 */
async function renderMerged(ctx: AppContext, job: JobRow, dir: string, output: string): Promise<Recorder> {
  const answers = await answersOf(ctx, job.requestId);
  if (!answers.length) throw new JobFailure('source_missing', {}, 'the testimonial has no answers');
  const withSubtitles = job.kind === 'merged_subtitles';
  if (withSubtitles) {
    const cues = await Promise.all(answers.map((a) => subtitleStyle(ctx, job.companyId, a.id)));
    if (!cues.some(Boolean)) throw new JobFailure('no_subtitles');
  }
  const frame: Frame = { ...mergedFrameSize(answers.map((a) => evenDims(a.width, a.height))), kind: 'answer' };
  await composeAnswers(ctx, job, answers, { formats: [{ frame, output }], dir, cards: true, subtitles: withSubtitles });
  const key = `companies/${job.companyId}/requests/${job.requestId}/${withSubtitles ? 'merged-subtitles' : 'merged'}-${job.id}.mp4`;
  await ctx.storage.put(key, createReadStream(output), 'video/mp4');
  await writePoster(ctx, { video: output, key: posterKeyFor(key), answerStart: CARD_SECONDS });
  const record = async (tx: Db) => {
    await tx
      .update(testimonialRequests)
      .set({ ...(withSubtitles ? { mergedSubtitlesKey: key } : { mergedKey: key }), updatedAt: new Date() })
      .where(eq(testimonialRequests.id, job.requestId));
    return key;
  };
  return { record, responseIds: answers.map((a) => a.id), kept: keptOf(answers) };
}

/**
 * Renders a social export of an answer or of the merged video. The enhanced version ('modified') is
 * composed anew for the platform's frame from the answers themselves: each answer cropped on its own
 * frame, scaled to the platform's size, its subtitles and its card laid out for that frame, in one run.
 * The finished picture is never cropped, so nothing burned in is cut. The original is cropped and scaled.
 */
async function renderExport(ctx: AppContext, job: JobRow, request: RequestRow, response: ResponseRow | undefined, dir: string, output: string): Promise<Recorder> {
  const { platform, videoType, cropArea, platforms } = job.params as RenderParams;
  if (!platform || !videoType || !cropArea) throw new JobFailure('nothing_to_export', {}, 'the job has no export parameters');
  // The asked format first (its file is `output`), then the further formats of the same run (issue 31).
  const formats = [{ platform, cropArea, output }, ...(platforms ?? []).map((f) => ({ ...f, output: path.join(dir, `output-${f.platform}.mp4`) }))];
  let responseIds: string[];
  let kept: Recorder['kept'];
  if (videoType === 'modified') {
    if (response ? !response.modifiedKey : !request.mergedKey) throw new JobFailure('nothing_to_export');
    const answers = response ? [response] : await answersOf(ctx, request.id);
    responseIds = answers.map((a) => a.id);
    kept = keptOf(answers);
    if (!answers.length) throw new JobFailure('source_missing', {}, 'the testimonial has no answers');
    const cards = response ? response.introGenerated : true;
    const subtitles = response ? response.hasSubtitles : Boolean(request.mergedSubtitlesKey);
    await composeAnswers(ctx, job, answers, { formats: formats.map((f) => ({ frame: exportFrame(f.platform), output: f.output, cropArea: f.cropArea })), dir, cards, subtitles });
  } else {
    const sourceKey = response ? response.videoKey : request.mergedKey;
    if (!sourceKey) throw new JobFailure('nothing_to_export');
    // The original of the merged video holds what its merge held (every answer for a merge from before issue 29).
    const [merge] = response ? [] : await ctx.db.select({ result: jobs.result }).from(jobs).where(and(eq(jobs.requestId, request.id), eq(jobs.outputKey, sourceKey))).limit(1);
    responseIds = response
      ? [response.id]
      : ((merge && renderedAnswers(merge)) ?? (await ctx.db.select({ id: testimonialResponses.id }).from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id))).map((a) => a.id));
    const input = await download(ctx, sourceKey, path.join(dir, 'source.mp4'));
    await reportProgress(ctx, job.id, 10);
    const info = await ctx.media.probe(input);
    const source = { width: info.video?.width ?? 0, height: info.video?.height ?? 0 };
    const trim = response ? (answerKept(response) ?? undefined) : undefined; // the merged video holds its answers trimmed already
    kept = response ? keptOf([response]) : keptRecorded(merge);
    const crops = formats.map((f) => ({ output: f.output, platform: f.platform, crop: cropPixels(f.cropArea, source.width, source.height) }));
    await ctx.media.runFfmpeg(formats.length > 1 ? multiExportArgs({ input, source, outputs: crops, trim }) : exportArgs({ input, output, source, crop: crops[0]!.crop, platform, trim }));
  }
  const startsWithCard = videoType === 'modified' && (response ? response.introGenerated : true);
  const keys: string[] = [];
  for (const f of formats) {
    const key = `companies/${job.companyId}/requests/${job.requestId}/${response ? `answers/${response.id}/` : ''}export-${f.platform}-${job.id}.mp4`;
    await ctx.storage.put(key, createReadStream(f.output), 'video/mp4');
    await writePoster(ctx, { video: f.output, key: posterKeyFor(key), answerStart: startsWithCard ? CARD_SECONDS : 0 });
    keys.push(key);
  }
  const key = keys[0]!;
  const record = async (tx: Db) => {
    const column = videoType === 'modified' ? { shortKey: key } : { shortOriginalKey: key };
    if (response) await tx.update(testimonialResponses).set({ ...column, updatedAt: new Date() }).where(eq(testimonialResponses.id, response.id));
    else await tx.update(testimonialRequests).set({ ...column, updatedAt: new Date() }).where(eq(testimonialRequests.id, request.id));
    // Each further format is recorded as an export of its own, finished with this one (decision 199): the
    // detail's exports, publishing and posters read it like any export.
    if (formats.length > 1) {
      const now = new Date();
      await tx.insert(jobs).values(
        formats.slice(1).map((f, k) => ({
          companyId: job.companyId,
          kind: 'export' as const,
          requestId: job.requestId,
          responseId: job.responseId,
          params: { language: (job.params as RenderParams).language, platform: f.platform, videoType, cropArea: f.cropArea, madeWith: job.id },
          phase: 'ready' as const,
          progress: 100,
          outputKey: keys[k + 1]!,
          result: { responseIds, ...keptResult(kept) },
          startedAt: job.startedAt ?? now,
          finishedAt: now,
        })),
      );
    }
    return key;
  };
  return { record, responseIds, kept };
}

/**
 * The worker's part (render-output queue): renders the job's output, uploads it, then records in one
 * transaction the row's pointer to it, the job's 'ready' and its 'video ready' notice (ready-mail.ts). A job
 * delivered again after it finished does nothing (runJob); two deliveries racing record once (the
 * job's row is locked and must still be running).
 */
export async function renderOutput(ctx: AppContext, jobId: string, meta: RunMeta): Promise<void> {
  await runJob(ctx, jobId, meta, async (job) => {
    const [request] = await ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, job.requestId));
    const response = job.responseId ? (await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, job.responseId)))[0] : undefined;
    if (!request || (job.responseId && !response)) throw new JobFailure('source_missing');

    await mkdir(ctx.tmpDir, { recursive: true });
    const dir = await mkdtemp(path.join(ctx.tmpDir, 'render-'));
    try {
      const output = path.join(dir, 'output.mp4');
      let made: Recorder;
      if (job.kind === 'export') made = await renderExport(ctx, job, request, response, dir, output);
      else if (response && (job.kind === 'intro' || job.kind === 'subtitles')) made = await renderAnswer(ctx, job, response, dir, output);
      else if (!response && (job.kind === 'merge' || job.kind === 'merged_subtitles')) made = await renderMerged(ctx, job, dir, output);
      else if (!response && job.kind === 'draft') made = await renderDraft(ctx, job, request, dir, output);
      else throw new JobFailure('render_failed', {}, `cannot render ${job.kind} of ${response ? 'an answer' : 'a testimonial'}`);

      await ctx.database.transaction(async (executeSql, tx) => {
        const [current] = await tx.select({ phase: jobs.phase }).from(jobs).where(eq(jobs.id, job.id)).for('update');
        if (current?.phase !== 'running') return; // another delivery recorded it (or it was cancelled)
        // The customer withdrew, or asked to remove an answer this output holds, while it rendered: it records nothing.
        const [now] = await tx.select({ withdrawnAt: testimonialRequests.consentWithdrawnAt }).from(testimonialRequests).where(eq(testimonialRequests.id, job.requestId));
        const removed = made.responseIds.length
          ? await tx
              .select({ id: testimonialResponses.id })
              .from(testimonialResponses)
              .where(and(inArray(testimonialResponses.id, made.responseIds), isNotNull(testimonialResponses.removalRequestedAt)))
          : [];
        if (now?.withdrawnAt || removed.length) {
          await cancelJob(tx, job.id);
          return;
        }
        const outputKey = await made.record(tx);
        await completeJob(tx, job.id, { outputKey, result: { responseIds: made.responseIds, ...keptResult(made.kept), ...made.result } });
        await recordEvent(
          ctx,
          { tx, executeSql },
          job.companyId,
          'render.ready',
          { job_id: job.id, testimonial_id: job.requestId, response_id: job.responseId, kind: job.kind },
          { actorUserId: job.requestedBy },
        );
        // The 'video ready' e-mail, if worth sending: gathered per testimonial (ready-mail.ts).
        await noteRenderReady(ctx, { tx, executeSql }, job);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

/** The kept parts of the trimmed answers among these (decision 201); undefined when none is trimmed. */
function keptOf(answers: ResponseRow[]): Recorder['kept'] {
  const entries = answers.flatMap((a) => {
    const kept = answerKept(a);
    return kept ? [[a.id, kept] as const] : [];
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

const keptResult = (kept: Recorder['kept']) => (kept ? { kept } : {});

// Issue 31: the draft's render (draft.job.ts) composes answers as the merge does.
export { answersOf, composeAnswers, evenDims, keptOf, type Recorder };
