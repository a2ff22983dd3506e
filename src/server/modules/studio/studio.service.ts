import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, getTableName } from 'drizzle-orm';
import type { TCropArea, TExportPlatform, TExportVideoType, TRenderState } from '../../../contract/api/studio.schema.js';
import type { AppContext } from '../../context.js';
import { companies, testimonialRequests, testimonialResponses, transcriptions, videoStyleSettings, type RenderState, type RenderStates } from '../../db/schema.js';
import { renderOutputJob } from '../../jobs/definitions.js';
import { AppError } from '../../lib/errors.js';
import { companyMailRecipients, queueMail } from '../../mail/send.js';
import { probe, runFfmpeg } from '../../media/ffmpeg.js';
import { fontFile } from '../../media/fonts.js';
import { burnInSrt, concatArgs, cropPixels, exportArgs, introArgs, REFERENCE_HEIGHT, subtitledArgs, wrapText, type CardStyle, type SubtitleStyle } from '../../media/render.js';
import { subtitleFont } from '../../media/fonts.js';
import type { TTranscriptionSegment } from '../../../contract/api/transcription.schema.js';
import { signMediaPath } from '../../media/signed-urls.js';
import { normalisedLogoKey } from '../settings/settings.service.js';
import { videoReadyEmail, type OutputKind } from './studio.emails.js';

/**
 * The video studio: start calls answer at once with a job id and the queued state; a worker renders
 * each output in one ffmpeg run; the state (phase, progress, error) lives with the response or the
 * testimonial. Output keys are derived from the job's key, so a retried or duplicated job overwrites
 * its own output instead of making a second one.
 */

type ResponseRow = typeof testimonialResponses.$inferSelect;
type RequestRow = typeof testimonialRequests.$inferSelect;
export type StudioKind = OutputKind;

const stateOf = (phase: RenderState['phase'], progress: number, jobId: string, error: string | null = null): RenderState => ({
  phase,
  progress,
  error,
  jobId,
  updatedAt: new Date().toISOString(),
});

const busy = (states: RenderStates) =>
  Object.entries(states).some(([name, s]) => name !== 'transcode' && s && (s.phase === 'queued' || s.phase === 'rendering') && Date.now() - Date.parse(s.updatedAt) < 20 * 60_000);

/** The contract's view of a row's latest studio render (the transcode of the upload is not one). */
export function latestRenderState(states: RenderStates): TRenderState | null {
  const entries = Object.entries(states).filter(([name]) => name !== 'transcode') as [string, RenderState][];
  if (!entries.length) return null;
  const [name, s] = entries.sort((a, b) => Date.parse(b[1].updatedAt) - Date.parse(a[1].updatedAt))[0]!;
  // Exports are stored per video type (export_original, export_modified); the contract names them 'export'.
  const output = (name.startsWith('export') ? 'export' : name) as TRenderState['output'];
  return { output, phase: s.phase, progress: s.progress, error: s.error };
}

async function paidRequest(ctx: AppContext, companyId: string, requestId: string): Promise<RequestRow> {
  const [row] = await ctx.db.select().from(testimonialRequests).where(and(eq(testimonialRequests.id, requestId), eq(testimonialRequests.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This testimonial does not exist or was deleted.' });
  if (!row.paid) throw new AppError('no_permission', { message: 'Unlock this testimonial (one credit) before editing its videos.' });
  return row;
}

async function ownedResponse(ctx: AppContext, companyId: string, responseId: string) {
  const [row] = await ctx.db.select().from(testimonialResponses).where(and(eq(testimonialResponses.id, responseId), eq(testimonialResponses.companyId, companyId)));
  if (!row) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
  const request = await paidRequest(ctx, companyId, row.requestId);
  if (!row.videoKey) throw new AppError('invalid_data', { status: 409, message: 'This answer is still being prepared. Try again in a minute.' });
  return { row, request };
}

const stateName = (kind: StudioKind, exportOpts?: { videoType: TExportVideoType }) =>
  kind === 'export' ? `export_${exportOpts?.videoType ?? 'original'}` : kind === 'regenerate' ? 'intro' : kind === 'regenerate_merged' ? 'merge' : kind;

/** The subtitle style of the company and the cues of an answer, as an SRT file for libass. */
async function subtitleStyle(ctx: AppContext, companyId: string, responseId: string, dir: string): Promise<SubtitleStyle | undefined> {
  const [cues] = await ctx.db.select().from(transcriptions).where(eq(transcriptions.responseId, responseId));
  if (!cues?.segments.length) return undefined;
  const [style] = await ctx.db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId));
  const srtFile = path.join(dir, `${responseId}.srt`);
  await writeFile(srtFile, burnInSrt(cues.segments));
  return {
    srtFile,
    ...subtitleFont(style?.fontStyleSubtitle ?? 'Arial'),
    size: style?.fontSizeSubtitle ?? 24,
    color: style?.fontColorSubtitle ?? '#ffffff',
    bold: style?.fontBoldSubtitle ?? false,
    border: style?.subtitleBorder ?? true,
  };
}

/** Saves edited cues of answers (they are what the burn-in uses). */
export async function saveCues(ctx: AppContext, input: { companyId: string; items: { responseId: string; cues: TTranscriptionSegment[] }[] }) {
  for (const item of input.items) {
    const [owned] = await ctx.db.select({ id: testimonialResponses.id, requestId: testimonialResponses.requestId }).from(testimonialResponses).where(and(eq(testimonialResponses.id, item.responseId), eq(testimonialResponses.companyId, input.companyId)));
    if (!owned) throw new AppError('not_found', { message: 'This answer does not exist or was deleted.' });
    await paidRequest(ctx, input.companyId, owned.requestId);
    await ctx.db
      .insert(transcriptions)
      .values({ responseId: item.responseId, companyId: input.companyId, engine: 'edited', language: 'en', segments: item.cues, edited: true })
      .onConflictDoUpdate({ target: transcriptions.responseId, set: { segments: item.cues, edited: true, updatedAt: new Date() } });
  }
}

/** Starts a render of an answer (intro, regenerate, export). */
export async function startResponseRender(
  ctx: AppContext,
  input: { companyId: string; responseId: string; kind: 'intro' | 'regenerate' | 'export' | 'subtitles'; language: 'en' | 'fr'; export?: { platform: TExportPlatform; videoType: TExportVideoType; cropArea: TCropArea } },
) {
  const { row } = await ownedResponse(ctx, input.companyId, input.responseId);
  if (input.kind === 'export' && input.export?.videoType === 'modified' && !row.modifiedKey) {
    throw new AppError('invalid_data', { message: 'This answer has no enhanced version yet: export the original, or generate the intro first.', field: 'videoType' });
  }
  if (busy(row.renderState)) throw new AppError('invalid_data', { status: 409, message: 'A video of this answer is already being generated. Please wait for it to finish.' });
  const jobKey = randomUUID();
  const name = stateName(input.kind, input.export);
  const state = stateOf('queued', 0, jobKey);
  await ctx.db.update(testimonialResponses).set({ renderState: { ...row.renderState, [name]: state }, updatedAt: new Date() }).where(eq(testimonialResponses.id, row.id));
  await ctx.queue.send(renderOutputJob, {
    kind: input.kind,
    jobKey,
    companyId: input.companyId,
    requestId: row.requestId,
    responseId: row.id,
    language: input.language,
    ...(input.export ? { export: input.export } : {}),
  });
  return { jobId: jobKey, state: { output: name.startsWith('export') ? ('export' as const) : (name as 'intro' | 'subtitles'), phase: 'queued' as const, progress: 0, error: null } };
}

/** Starts a render of the whole testimonial (merge, regenerate-merged, export of the merged video). */
export async function startRequestRender(
  ctx: AppContext,
  input: { companyId: string; requestId: string; kind: 'merge' | 'regenerate_merged' | 'export' | 'merge_subtitles'; language: 'en' | 'fr'; export?: { platform: TExportPlatform; videoType: TExportVideoType; cropArea: TCropArea } },
) {
  const request = await paidRequest(ctx, input.companyId, input.requestId);
  const answers = await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, request.id));
  if (!answers.length) throw new AppError('invalid_data', { status: 409, message: 'This testimonial has no answers to merge.' });
  if (answers.some((a) => !a.videoKey)) throw new AppError('invalid_data', { status: 409, message: 'The answers are still being prepared. Try again in a minute.' });
  if (input.kind === 'export' && !request.mergedKey) throw new AppError('invalid_data', { status: 409, message: 'Merge the answers before exporting the merged video.' });
  if (busy(request.renderState)) throw new AppError('invalid_data', { status: 409, message: 'A video of this testimonial is already being generated. Please wait for it to finish.' });
  const jobKey = randomUUID();
  const name = stateName(input.kind, input.export);
  await ctx.db
    .update(testimonialRequests)
    .set({ renderState: { ...request.renderState, [name]: stateOf('queued', 0, jobKey) }, updatedAt: new Date() })
    .where(eq(testimonialRequests.id, request.id));
  await ctx.queue.send(renderOutputJob, {
    kind: input.kind,
    jobKey,
    companyId: input.companyId,
    requestId: request.id,
    language: input.language,
    ...(input.export ? { export: input.export } : {}),
  });
  return { jobId: jobKey, state: { output: name.startsWith('export') ? ('export' as const) : (name as 'merge' | 'merge_subtitles'), phase: 'queued' as const, progress: 0, error: null } };
}

/** Waits (briefly) for an export to finish, for the export call that answers `{ status, exportedUrl }`. */
export async function awaitExport(ctx: AppContext, input: { requestId: string; responseId?: string | undefined; jobKey: string; timeoutMs: number }) {
  const deadline = Date.now() + input.timeoutMs;
  for (;;) {
    const [row] = input.responseId
      ? await ctx.db.select({ states: testimonialResponses.renderState, shortKey: testimonialResponses.shortKey, shortOriginalKey: testimonialResponses.shortOriginalKey }).from(testimonialResponses).where(eq(testimonialResponses.id, input.responseId))
      : await ctx.db.select({ states: testimonialRequests.renderState, shortKey: testimonialRequests.shortKey, shortOriginalKey: testimonialRequests.shortOriginalKey }).from(testimonialRequests).where(eq(testimonialRequests.id, input.requestId));
    const entry = Object.entries(row?.states ?? {}).find(([name, s]) => name.startsWith('export') && s?.jobId === input.jobKey);
    const s = entry?.[1];
    if (s?.phase === 'ready') {
      const key = entry![0] === 'export_modified' ? row!.shortKey : row!.shortOriginalKey;
      return { status: 'done' as const, exportedUrl: key ? `${ctx.config.appUrl}${signMediaPath(ctx.secrets.jwt, key)}` : null };
    }
    if (s?.phase === 'failed') return { status: 'failed' as const, exportedUrl: null };
    if (Date.now() > deadline) return { status: s?.phase === 'rendering' ? ('rendering' as const) : ('queued' as const), exportedUrl: null };
    await new Promise((r) => setTimeout(r, 400));
  }
}

async function cardStyle(ctx: AppContext, companyId: string) {
  const [style] = await ctx.db.select().from(videoStyleSettings).where(eq(videoStyleSettings.companyId, companyId));
  const [company] = await ctx.db.select().from(companies).where(eq(companies.id, companyId));
  return {
    style: {
      background: style?.backgroundColor ?? '#000000',
      color: style?.fontColorQuestion ?? '#ffffff',
      size: style?.fontSizeQuestion ?? 36,
      fontFile: fontFile(style?.fontStyleQuestion ?? 'Arial', style?.fontBoldQuestion ?? false),
    } satisfies CardStyle,
    // The normalised copy (a logo stored before normalisation is normalised here, once).
    logoKey: style?.showLogoInVideos && company ? await normalisedLogoKey(ctx, company) : null,
    company,
  };
}

async function download(ctx: AppContext, key: string, file: string) {
  await pipeline(await ctx.storage.get(key), createWriteStream(file));
  return file;
}

/** Writes the question's lines for drawtext, wrapped to the frame at the chosen size. */
async function lineFiles(dir: string, prefix: string, text: string, width: number, height: number, size: number) {
  const px = size * (height / REFERENCE_HEIGHT);
  const maxChars = Math.max(8, Math.floor((width * 0.82) / (px * 0.56)));
  const files = [];
  for (const [i, line] of wrapText(text, maxChars).slice(0, 6).entries()) {
    const f = path.join(dir, `${prefix}-line${i}.txt`);
    await writeFile(f, line);
    files.push(f);
  }
  return files;
}

/** Whether the file's picture already has the frame's size (read from the file itself, after any rotation the transcode applied). */
async function fitsFrame(file: string, width: number, height: number): Promise<boolean> {
  const probed = await probe(file).catch(() => null);
  return probed?.video?.width === width && probed.video.height === height;
}

const evenDims = (w: number | null, h: number | null) => ({ width: Math.max(2, Math.floor((w ?? 1280) / 2) * 2), height: Math.max(2, Math.floor((h ?? 720) / 2) * 2) });

type RenderPayload = Parameters<typeof renderOutput>[1];

async function setState(ctx: AppContext, p: RenderPayload, name: string, state: RenderState) {
  if (p.responseId) {
    const [row] = await ctx.db.select({ s: testimonialResponses.renderState }).from(testimonialResponses).where(eq(testimonialResponses.id, p.responseId));
    await ctx.db.update(testimonialResponses).set({ renderState: { ...(row?.s ?? {}), [name]: state } }).where(eq(testimonialResponses.id, p.responseId));
  } else {
    const [row] = await ctx.db.select({ s: testimonialRequests.renderState }).from(testimonialRequests).where(eq(testimonialRequests.id, p.requestId));
    await ctx.db.update(testimonialRequests).set({ renderState: { ...(row?.s ?? {}), [name]: state } }).where(eq(testimonialRequests.id, p.requestId));
  }
}

/** The worker's part: renders one output, stores it, records it, and e-mails the company. */
export async function renderOutput(
  ctx: AppContext,
  p: {
    kind: StudioKind;
    jobKey: string;
    companyId: string;
    requestId: string;
    responseId?: string | undefined;
    language: 'en' | 'fr';
    export?: { platform: TExportPlatform; videoType: TExportVideoType; cropArea: TCropArea } | undefined;
  },
): Promise<void> {
  const name = stateName(p.kind, p.export);
  const [request] = await ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, p.requestId));
  if (!request || request.companyId !== p.companyId) return;
  const response: ResponseRow | undefined = p.responseId ? (await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.id, p.responseId)))[0] : undefined;
  if (p.responseId && !response) return;
  const current = (response ?? request).renderState[name];
  if (current?.jobId === p.jobKey && current.phase === 'ready') return; // done by an earlier attempt

  await setState(ctx, p, name, stateOf('rendering', 5, p.jobKey));
  await mkdir(ctx.tmpDir, { recursive: true });
  const dir = await mkdtemp(path.join(ctx.tmpDir, 'render-'));
  try {
    const { style, logoKey } = await cardStyle(ctx, p.companyId);
    const logo = logoKey ? await download(ctx, logoKey, path.join(dir, `logo${path.extname(logoKey)}`)) : undefined;
    const output = path.join(dir, 'output.mp4');
    let key: string;
    const base = `companies/${p.companyId}/requests/${p.requestId}`;

    if (response && (p.kind === 'intro' || p.kind === 'regenerate' || p.kind === 'subtitles')) {
      // The enhanced version carries what the answer has: the intro (unless only subtitles were asked
      // for a bare answer) and the subtitles once they exist.
      const withIntro = p.kind !== 'subtitles' || response.introGenerated;
      const subtitles = p.kind === 'subtitles' || response.hasSubtitles ? await subtitleStyle(ctx, p.companyId, response.id, dir) : undefined;
      if (p.kind === 'subtitles' && !subtitles) throw new Error('no subtitles to burn in');
      const answer = await download(ctx, response.videoKey!, path.join(dir, 'answer.mp4'));
      const { width, height } = evenDims(response.width, response.height);
      const fits = await fitsFrame(answer, width, height);
      if (withIntro) {
        const lines = await lineFiles(dir, 'q', response.questionText, width, height, style.size);
        await runFfmpeg(introArgs({ answer, logo, output, width, height, fits, style, lineFiles: lines, subtitles }), { failOnErrors: 'filters' });
      } else {
        await runFfmpeg(subtitledArgs({ answer, output, width, height, fits, background: style.background, subtitles: subtitles! }), { failOnErrors: 'filters' });
      }
      key = `${base}/answers/${response.id}/${p.kind === 'subtitles' ? 'subtitles' : 'intro'}-${p.jobKey}.mp4`;
      await ctx.storage.put(key, createReadStream(output), 'video/mp4');
      await ctx.db
        .update(testimonialResponses)
        .set({ modifiedKey: key, introGenerated: withIntro, hasSubtitles: Boolean(subtitles), updatedAt: new Date() })
        .where(eq(testimonialResponses.id, response.id));
    } else if (p.kind === 'merge' || p.kind === 'regenerate_merged' || p.kind === 'merge_subtitles') {
      const answers = await ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, p.requestId)).orderBy(asc(testimonialResponses.orderPosition));
      const { width, height } = evenDims(answers[0]?.width ?? 1280, answers[0]?.height ?? 720);
      const segments: string[] = [];
      for (const [i, a] of answers.entries()) {
        const answer = await download(ctx, a.videoKey!, path.join(dir, `answer${i}.mp4`));
        const segment = path.join(dir, `segment${i}.mp4`);
        const subtitles = p.kind === 'merge_subtitles' ? await subtitleStyle(ctx, p.companyId, a.id, dir) : undefined;
        const fits = await fitsFrame(answer, width, height);
        await runFfmpeg(introArgs({ answer, logo, output: segment, width, height, fits, style, subtitles, lineFiles: await lineFiles(dir, `q${i}`, a.questionText, width, height, style.size) }), { failOnErrors: 'filters' });
        segments.push(segment);
        await setState(ctx, p, name, stateOf('rendering', Math.round(((i + 1) / (answers.length + 1)) * 100), p.jobKey));
      }
      const list = path.join(dir, 'segments.txt');
      await writeFile(list, segments.map((s) => `file '${s}'`).join('\n'));
      await runFfmpeg(concatArgs({ listFile: list, output }));
      key = `${base}/${p.kind === 'merge_subtitles' ? 'merged-subtitles' : 'merged'}-${p.jobKey}.mp4`;
      await ctx.storage.put(key, createReadStream(output), 'video/mp4');
      await ctx.db
        .update(testimonialRequests)
        .set({ ...(p.kind === 'merge_subtitles' ? { mergedSubtitlesKey: key } : { mergedKey: key }), updatedAt: new Date() })
        .where(eq(testimonialRequests.id, p.requestId));
    } else if (p.kind === 'export' && p.export) {
      const sourceKey = response
        ? p.export.videoType === 'modified' ? response.modifiedKey : response.videoKey
        : p.export.videoType === 'modified' && request.mergedSubtitlesKey ? request.mergedSubtitlesKey : request.mergedKey;
      if (!sourceKey) throw new Error('nothing to export');
      const input = await download(ctx, sourceKey, path.join(dir, 'source.mp4'));
      const info = await probe(input);
      const crop = cropPixels(p.export.cropArea, info.video?.width ?? 0, info.video?.height ?? 0);
      await runFfmpeg(exportArgs({ input, output, crop, platform: p.export.platform }));
      key = `${base}/${response ? `answers/${response.id}/` : ''}export-${p.export.platform}-${p.jobKey}.mp4`;
      await ctx.storage.put(key, createReadStream(output), 'video/mp4');
      const column = p.export.videoType === 'modified' ? { shortKey: key } : { shortOriginalKey: key };
      if (response) await ctx.db.update(testimonialResponses).set({ ...column, updatedAt: new Date() }).where(eq(testimonialResponses.id, response.id));
      else await ctx.db.update(testimonialRequests).set({ ...column, updatedAt: new Date() }).where(eq(testimonialRequests.id, p.requestId));
    } else {
      throw new Error(`cannot render ${p.kind}`);
    }
    // 'Ready' and the e-mail saying so are recorded in one transaction: a retry after a crash either
    // finds the render ready and stops (the e-mail is queued), or renders again over the same key and
    // records both. Each render gives exactly one output and one e-mail per user.
    const recipients = await companyMailRecipients(ctx, p.companyId);
    const ready = stateOf('ready', 100, p.jobKey);
    await ctx.database.transaction(async (executeSql) => {
      const table = getTableName(p.responseId ? testimonialResponses : testimonialRequests);
      await executeSql(`update "${table}" set render_state = render_state || jsonb_build_object($1::text, $2::jsonb) where id = $3`, [
        name,
        JSON.stringify(ready),
        p.responseId ?? p.requestId,
      ]);
      for (const owner of recipients) {
        await queueMail(
          ctx,
          videoReadyEmail({
            lang: owner.lang,
            brand: ctx.config.brandName,
            to: owner.email,
            firstname: owner.firstname,
            customerName: request.submitterName ?? request.customerName,
            kind: p.kind,
            url: `${ctx.config.appUrl}/dashboard/testimonials/${p.requestId}`,
          }),
          { executeSql },
        );
      }
    });
  } catch (error) {
    await setState(ctx, p, name, stateOf('failed', 0, p.jobKey, error instanceof Error ? error.message.slice(0, 300) : 'Rendering failed'));
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
