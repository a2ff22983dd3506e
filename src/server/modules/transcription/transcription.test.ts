import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, testimonialRequests, testimonialResponses } from '../../db/schema.js';
import { signedInCompany } from '../../test/accounts.js';
import { multipart } from '../../test/clips.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import type { TJob } from '../../../contract/api/jobs.schema.js';
import { openAiEngine, pocketsphinxEngine } from './engines.js';
import { speechAudioArgs } from './pocketsphinx.js';
import { wordErrorRate } from './word-error-rate.js';
import { TRANSCRIPTION_MAX_MINUTES } from './transcription.service.js';
import { proportionalWords } from '../../../contract/subtitles.js';

const run = promisify(execFile);
const SENTENCE = 'Working with this team was a great experience. I recommend them to everyone.';
/** Spoken by flite's male voice (rms): the harder of the bench's two voices (decision 171). */
const MALE_SENTENCE = 'I found the team very responsive and the product saved us hours every week.';
/**
 * Highest word error rates allowed (decision 171), measured on 2026-11-27 with Debian's pocketsphinx
 * 0.8+5prealpha: the job's transcript of SENTENCE had 0 errors in 12 words (ceiling: 2 errors); the male
 * voice had 3 in 14, "saved us hours" heard as "shaved and showers" (ceiling: 5 errors).
 */
const MAX_WER = { sentence: 2 / 12, male: 5 / 14 } as const;

let dir: string;
let wav: string;
let video: string;
let maleVideo: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vr-stt-'));
  const speech = path.join(dir, 'speech.wav');
  await run('flite', ['-voice', 'slt', '-t', SENTENCE, '-o', speech]);
  wav = path.join(dir, 'speech16.wav');
  await run('ffmpeg', ['-v', 'error', '-y', '-i', speech, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
  video = path.join(dir, 'answer.webm');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x240:r=15:d=6', '-i', speech, '-shortest', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', video]);
  // A male voice as the browser sends it: 48 kHz Opus in WebM.
  const male = path.join(dir, 'male.wav');
  await run('flite', ['-voice', 'rms', '-t', MALE_SENTENCE, '-o', male]);
  maleVideo = path.join(dir, 'male.webm');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x240:r=15', '-i', male, '-shortest', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-ar', '48000', maleVideo]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('offline engine (pocketsphinx) on speech synthesised by flite', () => {
  it('finds most key words, with increasing times inside the clip', async () => {
    const words = await pocketsphinxEngine('pocketsphinx_continuous').transcribe(wav, 'en');
    const text = words.map((w) => w.text.toLowerCase()).join(' ');
    const keys = ['working', 'team', 'great', 'experience', 'recommend', 'everyone'];
    expect(keys.filter((k) => text.includes(k)).length).toBeGreaterThanOrEqual(5);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav]);
    const duration = Number(stdout);
    for (const [i, w] of words.entries()) {
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(duration + 0.05);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
    }
  }, 60_000);

  it('keeps the word error rate of a male voice sent as the browser sends it under the measured ceiling', async () => {
    const speech = path.join(dir, 'male16.wav');
    await run('ffmpeg', ['-v', 'error', '-y', ...speechAudioArgs(maleVideo, speech)]);
    const words = await pocketsphinxEngine('pocketsphinx_continuous').transcribe(speech, 'en');
    const heard = words.map((w) => w.text).join(' ');
    expect(wordErrorRate([{ reference: MALE_SENTENCE, hypothesis: heard }]), heard).toBeLessThanOrEqual(MAX_WER.male);
  }, 60_000);
});

describe('OpenAI-compatible engine against a loopback server answering in that API\'s documented shape (checks our request and parsing)', () => {
  it('posts the audio with model, verbose_json, segment timestamps and language, and reads the segments', async () => {
    let seen: { auth?: string; body: string; path?: string } = { body: '' };
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, body: Buffer.concat(chunks).toString('latin1'), path: req.url };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ task: 'transcribe', language: 'french', duration: 4.2, text: 'Bonjour. Merci beaucoup.', segments: [{ id: 0, start: 0, end: 1.8, text: ' Bonjour.' }, { id: 1, start: 1.9, end: 4.1, text: ' Merci beaucoup.' }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const engine = openAiEngine({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'sk-test', model: 'whisper-1' });
      const segments = await engine.transcribe(wav, 'fr');
      expect(segments).toEqual([{ start: 0, end: 1.8, text: 'Bonjour.' }, { start: 1.9, end: 4.1, text: 'Merci beaucoup.' }]);
      expect(seen.path).toBe('/v1/audio/transcriptions');
      expect(seen.auth).toBe('Bearer sk-test');
      for (const field of ['name="model"\r\n\r\nwhisper-1', 'name="response_format"\r\n\r\nverbose_json', 'name="timestamp_granularities[]"\r\n\r\nsegment', 'name="language"\r\n\r\nfr', 'filename="answer.wav"']) {
        expect(seen.body).toContain(field);
      }
    } finally {
      server.close();
    }
  });
});

describe('transcription calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  async function paidSpeechTestimonial(language: 'english' | 'french' = 'english') {
    const me = await signedInCompany(t);
    await t.ctx.db.update(companies).set({ credits: 3 }).where(eq(companies.id, me.companyId));
    const q = (await me.post('/api/questions/add', { company_id: me.companyId, text: 'How was it?', order_position: 1 })).json();
    const { testimonial } = (await me.post('/api/testimonials/request', { customer_email: 'x@client.test', customer_name: 'Alex', question_ids: [q.id], language })).json();
    const [row] = await t.ctx.db.select().from(testimonialRequests).where(eq(testimonialRequests.id, testimonial.id));
    const form = multipart([
      { name: 'questionIds[0]', value: q.id },
      { name: 'bgColors[0]', value: '#000000' },
      { name: 'name', value: 'Alex' },
      { name: 'testimonialId', value: testimonial.id },
      { name: 'token', value: row!.token },
      { name: 'consentVersion', value: 'image-rights-v1' },
      { name: 'videos', filename: 'video0.webm', content: await readFile(video), type: 'video/webm' },
    ]);
    expect((await t.app.inject({ method: 'POST', url: '/api/public/testimonial/save', ...form })).statusCode).toBe(200);
    await me.post(`/api/testimonials/pay/${testimonial.id}`);
    const [response] = await t.ctx.db.select().from(testimonialResponses).where(eq(testimonialResponses.requestId, testimonial.id));
    return { me, requestId: testimonial.id as string, responseId: response!.id };
  }

  /**
   * Follows a transcription job through GET /api/jobs/:id until it is final (its phases in order),
   * then checks that the spec's status call says the same in its words.
   */
  async function jobOutcome(me: Awaited<ReturnType<typeof signedInCompany>>, jobId: string) {
    const phases: string[] = [];
    const job = async () => {
      const res = await me.get(`/api/jobs/${jobId}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as TJob;
    };
    await expect
      .poll(
        async () => {
          const phase = (await job()).phase;
          if (phases.at(-1) !== phase) phases.push(phase);
          return phase;
        },
        { timeout: 90_000, interval: 100 },
      )
      .toMatch(/^(ready|failed)$/);
    expect(['queued', 'running', phases.at(-1)].filter((p) => phases.includes(p!))).toEqual(phases);
    const final = await job();
    const status = (await me.get(`/api/testimonials/transcription-job/${jobId}/status`)).json();
    expect(status.status).toBe(final.phase === 'ready' ? 'done' : 'error');
    expect(status.error ?? null).toBe(final.error?.message ?? null);
    return { job: final, status };
  }

  it('transcribes an answer in a job (202, then the status call), stores it, and answers again without re-running the engine', async () => {
    const { me, responseId } = await paidSpeechTestimonial();
    const res = await me.post(`/api/testimonials/response/${responseId}/transcribe`);
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json() as { transcription: unknown[]; jobId: string; status: string };
    expect(started).toEqual({ transcription: [], jobId: expect.any(String), status: 'queued' });
    const { job: doneJob, status: done } = await jobOutcome(me, started.jobId);
    expect(doneJob).toMatchObject({ kind: 'transcription', responseId, phase: 'ready', error: null, outputUrl: null, params: { language: 'en' } });
    expect(done.status).toBe('done');
    const [item] = JSON.parse(done.merged_url) as { responseId: string; transcription: { start: number; end: number; text: string }[]; error: null }[];
    expect(item!.responseId).toBe(responseId);
    const transcription = item!.transcription;
    expect(transcription.length).toBeGreaterThan(0);
    expect(transcription.map((c) => c.text).join(' ').toLowerCase()).toContain('recommend');
    // The whole way of a customer's answer (upload, transcode, the job's audio, the engine): few words wrong.
    const heard = transcription.map((c) => c.text).join(' ');
    expect(wordErrorRate([{ reference: SENTENCE, hypothesis: heard }]), heard).toBeLessThanOrEqual(MAX_WER.sentence);

    const real = t.ctx.config.transcribe;
    t.ctx.config.transcribe = { ...real, pocketsphinxPath: '/nonexistent/engine' };
    try {
      const again = await me.post(`/api/testimonials/response/${responseId}/transcribe`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ transcription });
      // Forced: a new job, whose failure is reported by the status call; the stored cues stay.
      const forced = await me.post(`/api/testimonials/response/${responseId}/transcribe`, { force: true });
      expect(forced.statusCode).toBe(202);
      const { job: failedJob, status: failed } = await jobOutcome(me, forced.json().jobId);
      expect(failedJob).toMatchObject({ phase: 'failed', error: { reason: 'transcription_failed', message: 'The speech could not be transcribed.' } });
      // The engine's failure is recorded at once, not retried.
      expect(failedJob.attempts).toBe(1);
      expect(failed.status).toBe('error');
      expect(failed.merged_url).toBeNull();
      expect((await me.post(`/api/testimonials/response/${responseId}/transcribe`)).json()).toEqual({ transcription });
    } finally {
      t.ctx.config.transcribe = real;
    }
  }, 120_000);

  it('says clearly that the offline engine cannot do French, and runs the merged job with per-answer results', async () => {
    const fr = await paidSpeechTestimonial('french');
    const res = await fr.me.post(`/api/testimonials/response/${fr.responseId}/transcribe`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'transcription_language_not_set_up', params: { language: 'fr' } });
    expect(res.json().error).not.toMatch(/TRANSCRIBE_URL/);

    const en = await paidSpeechTestimonial();
    const start = await en.me.post(`/api/testimonials/${en.requestId}/transcribe-merged-responses`);
    expect(start.statusCode).toBe(202);
    const { jobId } = start.json();
    const { job: mergedJob, status } = await jobOutcome(en.me, jobId);
    expect(mergedJob).toMatchObject({ kind: 'merged_transcription', testimonialId: en.requestId, responseId: null, phase: 'ready' });
    const merged = JSON.parse(status.merged_url);
    expect(merged).toEqual([{ responseId: en.responseId, questionText: 'How was it?', orderPosition: 1, transcription: expect.any(Array), error: null }]);
    expect(merged[0].transcription.map((c: { text: string }) => c.text).join(' ').toLowerCase()).toContain('recommend');
    // Kept: the answer's own transcribe call now answers at once with the same cues.
    expect((await en.me.post(`/api/testimonials/response/${en.responseId}/transcribe`)).json()).toEqual({ transcription: merged[0].transcription });

    // The merged job of the French testimonial fails in the worker with a translatable reason.
    const frMerged = await fr.me.post(`/api/testimonials/${fr.requestId}/transcribe-merged-responses`);
    expect(frMerged.statusCode).toBe(202);
    const { job: frJob, status: frStatus } = await jobOutcome(fr.me, frMerged.json().jobId);
    expect(frJob.error).toEqual({ reason: 'transcription_unavailable', params: {}, message: 'Automatic transcription is not available on this installation.' });
    expect(frStatus).toMatchObject({ status: 'error', merged_url: null });

    const other = await signedInCompany(t);
    expect((await other.get(`/api/testimonials/transcription-job/${jobId}/status`)).statusCode).toBe(404);
    expect((await other.get(`/api/jobs/${jobId}`)).statusCode).toBe(404);
    expect((await other.post(`/api/testimonials/response/${en.responseId}/transcribe`)).statusCode).toBe(404);
  }, 180_000);

  it('tells a business, not the operator, that French is not set up, then takes typed lines, checks them whole and burns them in', async () => {
    const fr = await paidSpeechTestimonial('french');
    // The operator's hint goes to the log (and docs/deployment.md), never into the answer.
    const logged: string[] = [];
    const warn = t.ctx.logger.warn.bind(t.ctx.logger);
    t.ctx.logger.warn = ((obj: unknown, msg?: string) => {
      logged.push(typeof obj === 'string' ? obj : String(msg));
      return warn(obj as object, msg);
    }) as typeof t.ctx.logger.warn;
    let refused;
    try {
      refused = await fr.me.post(`/api/testimonials/response/${fr.responseId}/transcribe`);
    } finally {
      t.ctx.logger.warn = warn;
    }
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'invalid_data',
      reason: 'transcription_language_not_set_up',
      error: 'Automatic transcription is not set up for this language on this installation. You can type the subtitles yourself.',
    });
    expect(logged.some((line) => line.includes('TRANSCRIBE_URL') && line.includes("'fr'"))).toBe(true);

    // The answer must be prepared (its video and duration known) to be subtitled.
    await expect
      .poll(async () => (await t.ctx.db.select({ key: testimonialResponses.videoKey }).from(testimonialResponses).where(eq(testimonialResponses.id, fr.responseId)))[0]?.key ?? null, { timeout: 60_000, interval: 100 })
      .not.toBeNull();
    const save = (transcription: unknown) => fr.me.put(`/api/testimonials/response/${fr.responseId}/transcription`, { transcription });
    const good = [
      { start: 0.25, end: 1.8004, text: ' Travailler avec cette équipe était formidable. ' },
      { start: 1.8004, end: 3.5, text: 'Je les recommande à tous.' },
    ];
    const saved = await save(good);
    expect(saved.statusCode).toBe(200);
    // Typed lines get their words shared out by characters (issue 31: word-by-word captions).
    const stored = [
      { start: 0.25, end: 1.8, text: 'Travailler avec cette équipe était formidable.' },
      { start: 1.8, end: 3.5, text: 'Je les recommande à tous.' },
    ].map((line) => ({ ...line, words: proportionalWords(line) }));
    expect(saved.json()).toEqual({ transcription: stored });
    // Asked again, the answer's transcribe call gives the typed lines at once (no engine, no job).
    expect((await fr.me.post(`/api/testimonials/response/${fr.responseId}/transcribe`)).json()).toEqual({ transcription: stored });
    // The merged review, which failed while no answer had lines, now merges the typed ones.
    const merged = await fr.me.post(`/api/testimonials/${fr.requestId}/transcribe-merged-responses`);
    expect(merged.statusCode).toBe(202);
    const { job: mergedJob, status: mergedStatus } = await jobOutcome(fr.me, merged.json().jobId);
    expect(mergedJob.phase).toBe('ready');
    expect(JSON.parse(mergedStatus.merged_url)).toEqual([{ responseId: fr.responseId, questionText: 'How was it?', orderPosition: 1, transcription: stored, error: null }]);

    // Bad lines are refused whole, with the line at fault in the reason; what was stored stays.
    const bad: [unknown, string, Record<string, unknown>][] = [
      [[{ start: 0, end: 1, text: '   ' }], 'subtitle_line_empty', { line: 1 }],
      [[{ start: 0, end: 1, text: 'Un' }, { start: 2, end: 2, text: 'Deux' }], 'subtitle_line_timing', { line: 2 }],
      [[{ start: 1, end: 3, text: 'Un' }, { start: 2, end: 4, text: 'Deux' }], 'subtitle_line_overlap', { line: 2 }],
      [[{ start: 0, end: 60, text: 'Trop long' }], 'subtitle_line_after_end', { line: 1 }],
      [Array.from({ length: 301 }, (_, i) => ({ start: i * 0.01, end: i * 0.01 + 0.005, text: 'x' })), 'subtitle_too_many_lines', { max: 300 }],
    ];
    for (const [lines, reason, params] of bad) {
      const res = await save(lines);
      expect(res.statusCode, reason).toBe(400);
      expect(res.json(), reason).toMatchObject({ code: 'invalid_data', reason, params, field: 'transcription' });
    }
    const schema = await save([{ start: 0, end: 1, text: 'x'.repeat(501) }]);
    expect(schema.json()).toMatchObject({ code: 'invalid_data' });
    expect((await save([{ start: -1, end: 1, text: 'x' }])).statusCode).toBe(400);
    expect((await save('nope')).statusCode).toBe(400);
    expect((await fr.me.post(`/api/testimonials/response/${fr.responseId}/transcribe`)).json()).toEqual({ transcription: stored });

    // Generate burns the typed lines in as it would an engine's, and refuses bad ones the same way.
    const overlap = await fr.me.post(`/api/testimonials/response/${fr.responseId}/generate-modified/subtitles`, {
      language: 'fr',
      transcription: [{ start: 1, end: 3, text: 'Un' }, { start: 2, end: 4, text: 'Deux' }],
    });
    expect(overlap.json()).toMatchObject({ reason: 'subtitle_line_overlap', params: { line: 2 } });
    const started = await fr.me.post(`/api/testimonials/response/${fr.responseId}/generate-modified/subtitles`, { language: 'fr', transcription: stored });
    expect(started.statusCode).toBeLessThan(300);
    const jobId = started.json().jobId as string;
    await expect.poll(async () => (await fr.me.get(`/api/jobs/${jobId}`)).json().phase, { timeout: 120_000, interval: 250 }).toBe('ready');

    // Another company can neither read nor write these lines.
    const other = await signedInCompany(t);
    expect((await other.put(`/api/testimonials/response/${fr.responseId}/transcription`, { transcription: good })).statusCode).toBe(404);

    // Edited again (issue 31): a line whose text is kept keeps its words, stretched to its new time (whatever
    // words are sent); a line whose text changed has its words re-timed by characters.
    const edited = await save([
      { start: 0.5, end: 2.05, text: 'Travailler avec cette équipe était formidable.', words: [{ start: 0, end: 99, text: 'faux' }] },
      { start: 2.1, end: 3.5, text: 'Je les recommande.' },
    ]);
    expect(edited.statusCode).toBe(200);
    const [kept, changed] = edited.json().transcription as { start: number; end: number; text: string; words: { start: number; end: number; text: string }[] }[];
    expect(kept!.words.map((w) => w.text)).toEqual(stored[0]!.words.map((w) => w.text));
    kept!.words.forEach((w, i) => expect(w.start).toBeCloseTo(stored[0]!.words[i]!.start + 0.25, 2));
    expect(changed!.words).toEqual(proportionalWords({ start: 2.1, end: 3.5, text: 'Je les recommande.' }));
  }, 180_000);

  it('refuses to run the engine on an answer longer than the limit, with the limit in the reason', async () => {
    const { me, responseId } = await paidSpeechTestimonial();
    // The transcode records the prepared file's duration: wait for it, so that it cannot overwrite ours.
    await expect
      .poll(async () => (await t.ctx.db.select({ key: testimonialResponses.videoKey }).from(testimonialResponses).where(eq(testimonialResponses.id, responseId)))[0]?.key ?? null, { timeout: 60_000, interval: 100 })
      .not.toBeNull();
    // An answer as it would be stored were the recording limit raised past the engine's.
    await t.ctx.db.update(testimonialResponses).set({ durationSeconds: TRANSCRIPTION_MAX_MINUTES * 60 + 1 }).where(eq(testimonialResponses.id, responseId));
    const res = await me.post(`/api/testimonials/response/${responseId}/transcribe`);
    expect(res.statusCode).toBe(202);
    const { job, status } = await jobOutcome(me, res.json().jobId);
    expect(job.error).toEqual({
      reason: 'transcription_too_long',
      params: { minutes: TRANSCRIPTION_MAX_MINUTES },
      message: `This video is too long to transcribe automatically (at most ${TRANSCRIPTION_MAX_MINUTES} minutes).`,
    });
    expect(status.error).toBe(job.error!.message);
  }, 120_000);
});
