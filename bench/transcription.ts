/**
 * Transcription benchmark (issue 8): the offline engine on a 20 s spoken answer (ratio to the audio's
 * duration), the subtitle burn-in render against a bare ffmpeg re-encode of the same answer, and the
 * offline engine's word error rate on spoken answers (word-error-rate.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { groupCues } from '../src/contract/subtitles.js';
import { createMediaTools } from '../src/server/media/ffmpeg.js';
import { subtitleFont } from '../src/server/media/fonts.js';
import { composeArgs, writeSubtitles } from '../src/server/media/render.js';
import { pocketsphinxEngine } from '../src/server/modules/transcription/engines.js';
import { wordErrorBench } from './word-error-rate.js';

const { runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });

const run = promisify(execFile);

export async function transcriptionBench() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-bench-stt-'));
  try {
    const speech = path.join(dir, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', 'Working with this team was a great experience. I recommend them to everyone. They listened, they delivered on time, and our sales grew by thirty percent in three months. I would hire them again tomorrow without hesitation.', '-o', speech]);
    const wav = path.join(dir, 'answer16.wav');
    await run('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '-1', '-i', speech, '-t', '20', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
    let started = performance.now();
    const words = await pocketsphinxEngine('pocketsphinx_continuous').transcribe(wav, 'en');
    const sttS = (performance.now() - started) / 1000;

    const answer = path.join(dir, 'answer.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20', '-i', wav, '-shortest', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', answer]);
    started = performance.now();
    const frame = { width: 1280, height: 720, kind: 'answer' } as const;
    const subtitles = await writeSubtitles(dir, 'cues', groupCues(words, 20), { face: { font: 'Arial', bold: false }, ...subtitleFont('Arial'), size: 24, color: '#ffffff', bold: false, border: true }, frame);
    const style = { background: '#000000', color: '#ffffff', size: 36, face: { font: 'Arial', bold: false }, fontFile: '' } as const;
    await runFfmpeg(composeArgs({ output: path.join(dir, 'sub.mp4'), frame, style, segments: [{ answer, source: { width: 1280, height: 720 }, subtitles }] }));
    const burnS = (performance.now() - started) / 1000;
    started = performance.now();
    await runFfmpeg(['-i', answer, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-c:a', 'aac', path.join(dir, 'bare.mp4')]);
    const bareS = (performance.now() - started) / 1000;
    return {
      transcription_20s_offline: { wall_s: Math.round(sttS * 100) / 100, x_audio_duration: Math.round((sttS / 20) * 100) / 100, words: words.length },
      render_subtitles_20s_720p: { wall_s: Math.round(burnS * 100) / 100, x_bare_ffmpeg: Math.round((burnS / bareS) * 100) / 100 },
      ...(await wordErrorBench()),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
