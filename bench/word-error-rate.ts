/**
 * Word error rate of the offline engine (issue 27, item 16): ten testimonial answers of known text, each
 * spoken by two of flite's voices, go the way a customer's answer goes: the browser's WebM (VP8 + 48 kHz
 * Opus, as Chromium records), the transcode job's loudness pass and AAC answer (answer-prep), the
 * transcription job's audio preparation, then pocketsphinx. The WER is
 * printed per voice and overall, with the engine's real-time factor (engine seconds over audio seconds).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SAVE_LIMITS } from '../src/contract/api/public.schema.js';
import { answerArgs, answerTiming, canCopyVideo, loudnessMeasureArgs, parseLoudness } from '../src/server/media/answer-prep.js';
import { createMediaTools, type MediaToolkit } from '../src/server/media/ffmpeg.js';
import { pocketsphinxEngine } from '../src/server/modules/transcription/engines.js';
import { speechAudioArgs } from '../src/server/modules/transcription/pocketsphinx.js';
import { wordErrorRate } from '../src/server/modules/transcription/word-error-rate.js';

const run = promisify(execFile);

/** What customers say when asked about a product or a service. */
export const WER_CLIPS = [
  'I found the team very responsive and the product saved us hours every week.',
  'Our customers noticed the difference within a month and our sales went up by twenty percent.',
  'The onboarding was simple and the support staff answered every question the same day.',
  'I would recommend them to any small business that wants to grow without stress.',
  'Before working with them we spent too much time on paperwork and we lost clients.',
  'The best part is how easy it is to share our videos with new customers.',
  'They delivered the project on time and they stayed within our budget.',
  'My favorite feature is the dashboard because it shows everything in one place.',
  'We tried three other tools before and none of them were this reliable.',
  'Thank you for the friendly service and the quick answers to all our requests.',
] as const;

/** Two of Debian's flite voices: a woman's (US) and a man's (US). */
export const WER_VOICES = ['slt', 'rms'] as const;

/**
 * A spoken answer as the server stores it: flite's speech in the browser's WebM, then the transcode
 * job's two passes (loudness measurement, AAC answer in MP4). Returns the stored answer's path.
 */
export async function storedAnswer(media: MediaToolkit, dir: string, o: { text: string; voice: string; name: string }): Promise<string> {
  const speech = path.join(dir, `${o.name}.wav`);
  await run('flite', ['-voice', o.voice, '-t', o.text, '-o', speech]);
  const upload = path.join(dir, `${o.name}.webm`);
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x240:r=15', '-i', speech, '-shortest',
    '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus', '-ar', '48000', '-ac', '1', upload]);
  const info = await media.probeUpload(upload, SAVE_LIMITS.maxDurationSeconds);
  const timing = answerTiming({ fileStart: info.startSeconds, span: info.videoSpan!, maxSeconds: SAVE_LIMITS.maxDurationSeconds });
  const measured = parseLoudness(await media.runFfmpeg(loudnessMeasureArgs(upload, timing)));
  const answer = path.join(dir, `${o.name}.mp4`);
  await media.runFfmpeg(answerArgs({ input: upload, output: answer, timing, copyVideo: canCopyVideo(info.video), measured }));
  return answer;
}

/** The transcription job's way from a stored answer to the engine's words (its audio preparation, then the engine). */
export async function transcribeStored(media: MediaToolkit, o: { answer: string; wav: string; binary?: string }) {
  await media.runFfmpeg(speechAudioArgs(o.answer, o.wav));
  const started = performance.now();
  const words = await pocketsphinxEngine(o.binary ?? 'pocketsphinx_continuous').transcribe(o.wav, 'en');
  return { text: words.map((w) => w.text).join(' '), engineSeconds: (performance.now() - started) / 1000 };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export async function wordErrorBench() {
  const media = createMediaTools({ ffmpegConcurrency: 2 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-wer-'));
  try {
    const results: { voice: string; reference: string; hypothesis: string; engineSeconds: number; audioSeconds: number }[] = [];
    for (const voice of WER_VOICES) {
      for (const [i, clip] of WER_CLIPS.entries()) {
        const name = `${voice}-${i}`;
        const answer = await storedAnswer(media, dir, { text: clip, voice, name });
        const heard = await transcribeStored(media, { answer, wav: path.join(dir, `${name}-16k.wav`) });
        results.push({ voice, reference: clip, hypothesis: heard.text, engineSeconds: heard.engineSeconds, audioSeconds: (await media.probe(answer)).durationSeconds });
      }
    }
    const summary = (rows: typeof results) => ({
      wer: round(wordErrorRate(rows)),
      real_time_factor: round(rows.reduce((s, r) => s + r.engineSeconds, 0) / rows.reduce((s, r) => s + r.audioSeconds, 0)),
    });
    return {
      offline_wer: {
        ...Object.fromEntries(WER_VOICES.map((v) => [v, summary(results.filter((r) => r.voice === v))])),
        overall: summary(results),
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
