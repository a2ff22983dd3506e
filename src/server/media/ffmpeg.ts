import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * ffmpeg and ffprobe as resources: resolved once (FFMPEG_PATH / FFPROBE_PATH from the configuration,
 * else the ones on PATH), every child tracked so shutdown can stop them, and a cap on how many run at
 * once in this process.
 */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

let tools: MediaTools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
export function configureMediaTools(next: Partial<MediaTools>): void {
  tools = { ffmpeg: next.ffmpeg ?? tools.ffmpeg, ffprobe: next.ffprobe ?? tools.ffprobe };
}
export const mediaTools = () => tools;

const running = new Set<ReturnType<typeof spawn>>();
let active = 0;
const waiting: (() => void)[] = [];
let maxConcurrent = 2;
export function setFfmpegConcurrency(n: number): void {
  maxConcurrent = Math.max(1, n);
}

async function slot(): Promise<() => void> {
  if (active >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
  active += 1;
  return () => {
    active -= 1;
    waiting.shift()?.();
  };
}

/**
 * Error lines that ffmpeg logs while still exiting with 0: a filter that cannot do its work for a frame
 * (drawtext's "Stray %", a subtitle file it cannot read) logs an error and passes the frame on without
 * its text. `filters` counts such lines from the filter graph, `all` any error (a still image that must
 * decode cleanly).
 */
const ERROR_LINE = {
  filters: /\[Parsed_[^\]]+\] \[(?:error|fatal|panic)\]/,
  all: /\[(?:error|fatal|panic)\]/,
} as const;

/**
 * Runs ffmpeg with the given arguments; rejects with the end of its error output. With `failOnErrors`,
 * an error logged during a run that exits with 0 also rejects, so a picture missing its text is never
 * reported as done.
 */
export async function runFfmpeg(args: string[], options: { timeoutMs?: number; failOnErrors?: keyof typeof ERROR_LINE } = {}): Promise<void> {
  const release = await slot();
  try {
    await new Promise<void>((resolve, reject) => {
      const levels = options.failOnErrors ? ['-loglevel', 'level+info'] : [];
      const child = spawn(tools.ffmpeg, ['-hide_banner', '-nostdin', '-y', ...levels, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      running.add(child);
      let stderr = '';
      let partial = '';
      let logged: string | null = null;
      child.stderr.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000);
        if (!options.failOnErrors || logged) return;
        const lines = (partial + d.toString()).split(/[\r\n]+/);
        partial = lines.pop() ?? '';
        logged = lines.find((line) => ERROR_LINE[options.failOnErrors!].test(line)) ?? null;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10 * 60_000);
      child.on('error', (error) => {
        clearTimeout(timer);
        running.delete(child);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        running.delete(child);
        if (code === 0 && options.failOnErrors && !logged && ERROR_LINE[options.failOnErrors].test(partial)) logged = partial;
        if (code === 0 && logged) reject(new Error(`ffmpeg reported an error: ${logged}`));
        else if (code === 0) resolve();
        else reject(new Error(`ffmpeg failed (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
      });
    });
  } finally {
    release();
  }
}

/** Stops every running ffmpeg (shutdown). */
export function killAllFfmpeg(): void {
  for (const child of running) child.kill('SIGKILL');
}

export interface ProbeResult {
  formatName: string;
  durationSeconds: number;
  /**
   * rotation: degrees the picture is turned on display (a phone's portrait video is stored landscape
   * with 90 or -90); width and height are the stored frame's.
   */
  video: { codec: string; width: number; height: number; rotation: number } | null;
  audio: { codec: string; sampleRate: number; channels: number } | null;
}

interface FfprobeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: FfprobeStream[];
}

async function probeJson(file: string): Promise<FfprobeJson> {
  const { stdout } = await execFileAsync(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
    maxBuffer: 4 * 1024 * 1024,
    timeout: 30_000,
  });
  return JSON.parse(stdout) as FfprobeJson;
}

function rotationOf(s: FfprobeStream): number {
  const fromMatrix = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  return Number(fromMatrix ?? s.tags?.rotate ?? 0) || 0;
}

function resultOf(json: FfprobeJson, v: FfprobeStream | undefined, a: FfprobeStream | undefined, duration: number): ProbeResult {
  return {
    formatName: json.format?.format_name ?? '',
    durationSeconds: duration,
    video: v ? { codec: v.codec_name ?? '', width: v.width ?? 0, height: v.height ?? 0, rotation: rotationOf(v) } : null,
    audio: a ? { codec: a.codec_name ?? '', sampleRate: Number(a.sample_rate ?? 0), channels: a.channels ?? 0 } : null,
  };
}

/**
 * What a file we made is. The duration comes from the container, or the streams, or (for browser WebM
 * that carries none) from the packets. For a file someone else sent, use probeUpload.
 */
export async function probe(file: string): Promise<ProbeResult> {
  const json = await probeJson(file);
  const v = json.streams?.find((s) => s.codec_type === 'video');
  const a = json.streams?.find((s) => s.codec_type === 'audio');
  let duration = Number(json.format?.duration ?? v?.duration ?? a?.duration ?? NaN);
  if (!Number.isFinite(duration)) {
    const streams = [v, a].flatMap((s) => (s?.index === undefined ? [] : [s.index]));
    duration = (await packetSpan(file, { streams, stopAbove: Infinity })).seconds;
  }
  return resultOf(json, v, a, duration);
}

/**
 * What an uploaded file is, believing none of its claims: the duration is the time its first video and
 * audio streams really span, read from their packets (a container's Duration is one number anyone can
 * rewrite), and reading stops as soon as it passes `maxSeconds`, so a long file costs no more than a
 * short one. A duration above `maxSeconds` means "longer than allowed", not the exact length.
 */
export async function probeUpload(file: string, maxSeconds: number): Promise<ProbeResult & { tooManyPackets: boolean }> {
  const json = await probeJson(file);
  const v = json.streams?.find((s) => s.codec_type === 'video');
  const a = json.streams?.find((s) => s.codec_type === 'audio');
  const streams = [v, a].flatMap((s) => (s?.index === undefined ? [] : [s.index]));
  const span = streams.length > 0 ? await packetSpan(file, { streams, stopAbove: maxSeconds }) : { seconds: 0, tooManyPackets: false };
  return { ...resultOf(json, v, a, span.seconds), tooManyPackets: span.tooManyPackets };
}

/**
 * More packets than any real answer has: 21 s at 240 fps (slow motion) plus its sound is under 7,000.
 * A file of millions of tiny packets at one instant would otherwise keep ffprobe busy for its whole size.
 */
const MAX_PACKETS = 200_000;

/**
 * The time the given streams span, from the earliest packet's start to the latest packet's end, read
 * from the packet headers without decoding (a 46 MB 20 s 720p file: 0.16 s here). ffprobe's output is
 * read as it comes and ffprobe is stopped once the span passes `stopAbove` or the packets pass
 * MAX_PACKETS. Timestamps are the packet's presentation time, else its decoding time.
 */
export async function packetSpan(file: string, o: { streams: number[]; stopAbove: number; timeoutMs?: number }): Promise<{ seconds: number; tooManyPackets: boolean }> {
  const wanted = new Set(o.streams);
  let start = Infinity;
  let end = -Infinity;
  let packets = 0;
  let stopped: 'long' | 'many' | null = null;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      tools.ffprobe,
      ['-v', 'error', '-show_entries', 'packet=stream_index,pts_time,dts_time,duration_time', '-of', 'compact=p=0:nk=0', file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running.add(child);
    let rest = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 30_000);
    const stop = (why: 'long' | 'many') => {
      stopped = why;
      child.kill('SIGKILL');
    };
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    child.stdout.on('data', (d: Buffer) => {
      if (stopped) return;
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const fields = new Map(line.split('|').map((kv) => kv.split('=') as [string, string]));
        if (!wanted.has(Number(fields.get('stream_index')))) continue;
        packets += 1;
        const pts = Number(fields.get('pts_time'));
        const at = Number.isFinite(pts) ? pts : Number(fields.get('dts_time'));
        if (!Number.isFinite(at)) continue;
        const duration = Number(fields.get('duration_time'));
        start = Math.min(start, at);
        end = Math.max(end, at + (Number.isFinite(duration) && duration > 0 ? duration : 0));
        // Both ends only ever move outwards, so a span past the limit stays past it.
        if (end - start > o.stopAbove) return stop('long');
        if (packets > MAX_PACKETS) return stop('many');
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (code === 0 || stopped) resolve();
      else reject(new Error(`ffprobe failed (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
  return { seconds: end > start ? end - start : 0, tooManyPackets: stopped === 'many' };
}

/**
 * The errors ffmpeg reports while reading a whole file: every packet without decoding for a video
 * (`copy`, fast; a cut file ends 'prematurely'), or a full decode for a still image. Empty means the
 * file reads cleanly to its end.
 */
export async function readErrors(file: string, mode: 'packets' | 'decode'): Promise<string[]> {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-i', file, ...(mode === 'packets' ? ['-map', '0', '-c', 'copy'] : []), '-f', 'null', '-'];
  try {
    const { stderr } = await execFileAsync(tools.ffmpeg, args, { maxBuffer: 4 * 1024 * 1024, timeout: 60_000 });
    return stderr.split('\n').map((line) => line.trim()).filter(Boolean);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    return [stderr.trim() || (error as Error).message];
  }
}
