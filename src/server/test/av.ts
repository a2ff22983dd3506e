import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Where a stream starts and ends as a player sees it, from its packets: the first packet's time and the
 * latest packet's end, leaving out packets marked to be discarded (the encoder delay an AAC track
 * begins with, which the player skips).
 */
async function edges(file: string, stream: 'v' | 'a'): Promise<{ start: number; end: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', `${stream}:0`, '-show_entries', 'packet=pts_time,duration_time,flags', '-of', 'csv=p=0', file], {
    maxBuffer: 16 * 1024 * 1024,
  });
  let start = Infinity;
  let end = -Infinity;
  for (const line of stdout.split('\n')) {
    const [ptsText, durationText, flags] = line.split(',');
    if (flags?.includes('D')) continue;
    // An empty field is no time (Number('') would read it as 0).
    const pts = ptsText?.trim() ? Number(ptsText) : NaN;
    const duration = durationText?.trim() ? Number(durationText) : NaN;
    if (!Number.isFinite(pts)) continue;
    start = Math.min(start, pts);
    end = Math.max(end, pts + (Number.isFinite(duration) ? duration : 0));
  }
  return { start, end };
}

/** How far apart a file's picture and sound start and end, in seconds (0 when they line up). */
export async function avDrift(file: string): Promise<{ start: number; end: number; video: { start: number; end: number }; audio: { start: number; end: number } }> {
  const [video, audio] = await Promise.all([edges(file, 'v'), edges(file, 'a')]);
  return { start: Math.abs(video.start - audio.start), end: Math.abs(video.end - audio.end), video, audio };
}

/** The integrated loudness (LUFS) and true peak (dBTP) of a file's sound, measured by ffmpeg's EBU R128 filter. */
export async function loudness(file: string): Promise<{ integrated: number; truePeak: number }> {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0', '-af', 'ebur128=peak=true', '-f', 'null', '-'], { maxBuffer: 16 * 1024 * 1024 });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  return { integrated, truePeak };
}
