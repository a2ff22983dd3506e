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

/** Runs ffmpeg with the given arguments; rejects with the end of its error output. */
export async function runFfmpeg(args: string[], options: { timeoutMs?: number } = {}): Promise<void> {
  const release = await slot();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(tools.ffmpeg, ['-hide_banner', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      running.add(child);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-4000);
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
        if (code === 0) resolve();
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
  video: { codec: string; width: number; height: number } | null;
  audio: { codec: string; sampleRate: number; channels: number } | null;
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; sample_rate?: string; channels?: number; duration?: string }[];
}

/**
 * What a file really is. The duration comes from the container, or the streams, or (for browser WebM
 * that carries none) from reading the packets to the end.
 */
export async function probe(file: string): Promise<ProbeResult> {
  const { stdout } = await execFileAsync(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
    maxBuffer: 4 * 1024 * 1024,
    timeout: 30_000,
  });
  const json = JSON.parse(stdout) as FfprobeJson;
  const v = json.streams?.find((s) => s.codec_type === 'video');
  const a = json.streams?.find((s) => s.codec_type === 'audio');
  let duration = Number(json.format?.duration ?? v?.duration ?? a?.duration ?? NaN);
  if (!Number.isFinite(duration)) duration = await measureDuration(file);
  return {
    formatName: json.format?.format_name ?? '',
    durationSeconds: duration,
    video: v ? { codec: v.codec_name ?? '', width: v.width ?? 0, height: v.height ?? 0 } : null,
    audio: a ? { codec: a.codec_name ?? '', sampleRate: Number(a.sample_rate ?? 0), channels: a.channels ?? 0 } : null,
  };
}

/** Duration by reading every packet's timestamp (for WebM from MediaRecorder, which has no duration). */
async function measureDuration(file: string): Promise<number> {
  const { stdout } = await execFileAsync(
    tools.ffprobe,
    ['-v', 'error', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file],
    { maxBuffer: 32 * 1024 * 1024, timeout: 30_000 },
  );
  let end = 0;
  for (const line of stdout.split('\n')) {
    const [pts, dur] = line.split(',').map(Number);
    if (pts !== undefined && Number.isFinite(pts)) end = Math.max(end, pts + (Number.isFinite(dur) ? (dur ?? 0) : 0));
  }
  return end;
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
