import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * What the media work needs from the operating system, checked before the product says it is ready
 * (issue 18): a newcomer without ffmpeg is told what to install instead of seeing the first recording
 * fail. Each problem names the tool, why the product needs it, and the one command that installs it.
 */
export interface ToolProblem {
  tool: string;
  why: string;
  install: { debian: string; macos: string };
}

/** The filters the answer preparation and the renderer use (media/answer-prep.ts, media/render.ts). */
export const REQUIRED_FILTERS = [
  'aformat', 'anullsrc', 'apad', 'aresample', 'ass', 'atrim', 'color', 'concat', 'crop', 'drawtext', 'fade',
  'format', 'fps', 'loudnorm', 'overlay', 'pad', 'scale', 'setsar', 'split', 'unsharp',
] as const;
/** The encoders of the stored answers, the outputs, the posters and the normalised logos. */
export const REQUIRED_ENCODERS = ['libx264', 'aac', 'mjpeg', 'png'] as const;

const FFMPEG_INSTALL = { debian: 'sudo apt-get install ffmpeg', macos: 'brew install ffmpeg' } as const;
const SPEECH_INSTALL = {
  debian: 'sudo apt-get install pocketsphinx pocketsphinx-en-us',
  macos: 'brew install cmu-pocketsphinx (or set TRANSCRIBE_URL to an OpenAI-compatible speech API)',
} as const;

async function output(binary: string, args: string[]): Promise<string | null> {
  try {
    const { stdout } = await run(binary, args, { maxBuffer: 4 * 1024 * 1024, timeout: 20_000 });
    return stdout;
  } catch {
    return null;
  }
}

/** The names in the first column after the flags of `ffmpeg -filters` / `-encoders`. */
function listed(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*[A-Z.|]{2,8}\s+(\S+)\s/.exec(line);
    if (m) names.add(m[1]!);
  }
  return names;
}

/**
 * ffprobe (every process reads uploads with it) and, for a process that runs media jobs, ffmpeg with
 * every filter and encoder the product uses (a minimal ffmpeg build without libass or libx264 starts
 * fine and then fails every render).
 */
export async function checkMediaTools(o: { ffmpegPath: string; ffprobePath: string; runsMediaJobs: boolean }): Promise<ToolProblem[]> {
  // The three runs at once (decision 170): each is a process start, and start-up waits for them.
  const [ffprobe, filterList, encoderList] = await Promise.all([
    output(o.ffprobePath, ['-version']),
    o.runsMediaJobs ? output(o.ffmpegPath, ['-hide_banner', '-filters']) : null,
    o.runsMediaJobs ? output(o.ffmpegPath, ['-hide_banner', '-encoders']) : null,
  ]);
  const problems: ToolProblem[] = [];
  if (ffprobe === null) {
    problems.push({ tool: `ffprobe (${o.ffprobePath})`, why: 'it reads every uploaded answer (length, size, sound) before it is kept', install: FFMPEG_INSTALL });
  }
  if (!o.runsMediaJobs) return problems;
  if (filterList === null || encoderList === null) {
    problems.push({ tool: `ffmpeg (${o.ffmpegPath})`, why: 'it prepares every answer for playback and makes every video', install: FFMPEG_INSTALL });
    return problems;
  }
  const filters = listed(filterList);
  const encoders = listed(encoderList);
  const missing = [...REQUIRED_FILTERS.filter((f) => !filters.has(f)).map((f) => `filter ${f}`), ...REQUIRED_ENCODERS.filter((e) => !encoders.has(e)).map((e) => `encoder ${e}`)];
  if (missing.length > 0) {
    problems.push({
      tool: `ffmpeg (${o.ffmpegPath}) without ${missing.join(', ')}`,
      why: 'the videos need them (cards and subtitles: drawtext and ass; H.264 and AAC; loudness: loudnorm); install a full ffmpeg build',
      install: FFMPEG_INSTALL,
    });
  }
  return problems;
}

/** Half a second of silence as 16 kHz mono 16-bit WAV: what the speech engine reads. */
function silentWav(): Buffer {
  const samples = 8000;
  const data = samples * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(16000, 24);
  wav.writeUInt32LE(32000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(data, 40);
  return wav;
}

/**
 * The offline speech engine runs: pocketsphinx starts, loads its English model and reads half a second
 * of silence (about 0.3 s). With TRANSCRIBE_URL the remote engine is used instead and nothing local is
 * needed.
 */
export async function checkSpeechEngine(o: { transcribeUrl: string | undefined; pocketsphinxPath: string }): Promise<ToolProblem | null> {
  if (o.transcribeUrl) return null;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-speech-check-'));
  try {
    const wav = path.join(dir, 'silence.wav');
    await writeFile(wav, silentWav());
    if ((await output(o.pocketsphinxPath, ['-infile', wav, '-logfn', '/dev/null'])) !== null) return null;
    return {
      tool: `pocketsphinx with its English model (${o.pocketsphinxPath})`,
      why: 'it writes the transcripts that subtitles are made from, offline (English)',
      install: SPEECH_INSTALL,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The message for the terminal: each problem, why, and how to install it. */
export function describeProblems(problems: ToolProblem[], consequence: string): string {
  const lines = [consequence, ''];
  for (const p of problems) {
    lines.push(`  Missing: ${p.tool}`, `    Why: ${p.why}.`, `    Debian/Ubuntu: ${p.install.debian}`, `    macOS: ${p.install.macos}`, '');
  }
  return lines.join('\n');
}
