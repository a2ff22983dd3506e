import type { ProbeResult } from './ffmpeg.js';
import { ANSWER_INPUT_LIMITS } from './answer-limits.js';

/**
 * How an upload becomes the stored answer (issue 18): the picture copied as it is when the browser
 * already wrote what every player plays (H.264, 8-bit 4:2:0, upright, at most 1920 px and 30 fps),
 * else encoded once; the sound always encoded to AAC, loudness-normalised once (EBU R128) and laid on
 * the picture's own clock, so that both start at 0 and end together whatever the recorder wrote
 * (Safari's fragmented MP4s start their picture 67 ms after their sound).
 */

/** The loudness of every stored answer: −14 LUFS integrated, true peak at most −1 dBTP. */
export const ANSWER_LOUDNESS = { integrated: -14, truePeak: -1, range: 11 } as const;

/** Below this the answer is silence (or nearly): it is kept as it is rather than raised by 50 dB. */
const SILENCE_LUFS = -60;

/** The largest picture kept as recorded; larger ones are scaled down by the encode. */
const COPY_MAX_SIDE = 1920;
const COPY_MAX_FPS = 30.5;

/** The re-encode of a picture that cannot be copied: the preset chosen by measurement (decision 130). */
export const ANSWER_VIDEO_ENCODE = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'] as const;

/** Whether the picture can be stored as recorded (a stream copy): a browser's or a phone's H.264 usually can. */
export function canCopyVideo(video: ProbeResult['video']): boolean {
  if (!video) return false;
  const upright = video.rotation % 360 === 0;
  const even = video.width % 2 === 0 && video.height % 2 === 0;
  const small = video.width <= COPY_MAX_SIDE && video.height <= COPY_MAX_SIDE;
  return video.codec === 'h264' && video.pixFmt === 'yuv420p' && upright && even && small && video.fps > 0 && video.fps <= COPY_MAX_FPS;
}

/** The answer's clock: where its picture starts on ffmpeg's timeline of the file, and how long it lasts. */
export interface AnswerTiming {
  /** Seconds from the file's start (its earliest stream) to the picture's first frame. */
  videoOffset: number;
  /** The picture's length: from its first frame's start to its last frame's end. */
  duration: number;
}

/**
 * The timing from the picture's packets (`span`, on the file's own clock) and the file's start. The
 * length is capped at the longest answer accepted, as every read of an answer is.
 */
export function answerTiming(o: { fileStart: number; span: { start: number; end: number }; maxSeconds: number }): AnswerTiming {
  const videoOffset = Math.max(0, o.span.start - o.fileStart);
  const duration = Math.min(o.maxSeconds, Math.max(0, o.span.end - o.span.start));
  return { videoOffset, duration };
}

/**
 * The sound laid on the picture's clock: resampled to 48 kHz with its first sample at the picture's
 * first frame (what came before is cut, a late start is padded with silence), then padded or cut to
 * end with the last frame.
 */
function alignedSound(timing: AnswerTiming): string {
  return `aresample=48000:async=1:first_pts=0,apad,atrim=end=${timing.duration.toFixed(6)},aformat=sample_fmts=fltp:channel_layouts=stereo`;
}

/** The input of every run that reads the upload: its limits, then the file shifted so that the picture starts at 0. */
function shiftedInput(input: string, timing: AnswerTiming): string[] {
  return [...ANSWER_INPUT_LIMITS, ...(timing.videoOffset > 0 ? ['-itsoffset', `-${timing.videoOffset.toFixed(6)}`] : []), '-i', input];
}

/**
 * First pass: the sound's loudness as the stored answer will carry it (no output file), measured by
 * ebur128 (EBU R128 integrated loudness, loudness range and true peak). It reads the same as loudnorm's
 * own analysis but costs a quarter of its time: loudnorm analyses at 192 kHz through its limiter
 * (decision 147).
 */
export function loudnessMeasureArgs(input: string, timing: AnswerTiming): string[] {
  return [...shiftedInput(input, timing), '-map', '0:a:0', '-af', `${alignedSound(timing)},ebur128=peak=true:framelog=verbose`, '-f', 'null', '-'];
}

export interface MeasuredLoudness {
  integrated: number;
  truePeak: number;
  range: number;
  threshold: number;
  offset: number;
}

/**
 * ebur128's summary, the last one in ffmpeg's log; null when it is missing or unreadable. Silence
 * measures as −70 LUFS with a peak of −inf: its loudness cannot be measured, and it is kept as it is.
 */
export function parseLoudness(log: string): MeasuredLoudness | null {
  const at = log.lastIndexOf('Integrated loudness:');
  if (at < 0) return null;
  const summary = log.slice(at);
  const value = (pattern: RegExp) => Number(pattern.exec(summary)?.[1]);
  const measured = {
    integrated: value(/I:\s+(-?[\d.]+|-?inf) LUFS/),
    threshold: value(/Threshold:\s+(-?[\d.]+|-?inf) LUFS/),
    range: value(/LRA:\s+(-?[\d.]+|-?inf) LU\b/),
    truePeak: value(/Peak:\s+(-?[\d.]+|-?inf) dBFS/),
    // loudnorm's correction after its own processing: none to make for one linear gain.
    offset: 0,
  };
  return Object.values(measured).every(Number.isFinite) ? measured : null;
}

/** How far below the true-peak ceiling the limiter holds sample peaks: room for the peaks between samples and for the AAC encode. */
const LIMITER_MARGIN_DB = 1;

/**
 * The sound's normalisation from the first pass's measurement: one gain for the whole answer (which
 * keeps the voice natural), and, when that gain would take its true peak above the ceiling, a
 * look-ahead limiter on the peaks only. Silence, or a measurement that failed, is kept at its level.
 * A gain and a limiter cost a third of loudnorm's linear mode, which resamples to 192 kHz (decision 147).
 */
export function normaliseFilter(m: MeasuredLoudness | null): string {
  if (!m || m.integrated <= SILENCE_LUFS) return '';
  const { integrated, truePeak } = ANSWER_LOUDNESS;
  const gain = integrated - m.integrated;
  const limit = m.truePeak + gain > truePeak - LIMITER_MARGIN_DB;
  const ceiling = 10 ** ((truePeak - LIMITER_MARGIN_DB) / 20);
  return `,volume=${gain.toFixed(2)}dB${limit ? `,alimiter=limit=${ceiling.toFixed(4)}:level=false:attack=5:release=50` : ''}`;
}

/** Second pass: the stored answer. The picture is copied or encoded; the sound aligned and normalised (`normaliseFilter`). */
export function answerArgs(o: { input: string; output: string; timing: AnswerTiming; copyVideo: boolean; measured: MeasuredLoudness | null }): string[] {
  const normalise = normaliseFilter(o.measured);
  const video = o.copyVideo
    ? ['-c:v', 'copy']
    : ['-vf', "scale='trunc(min(iw,1920)/2)*2':'trunc(ow/dar/2)*2',fps=fps='min(source_fps,30)',format=yuv420p", ...ANSWER_VIDEO_ENCODE];
  return [
    ...shiftedInput(o.input, o.timing),
    '-map', '0:v:0', '-map', '0:a:0',
    ...video,
    '-af', `${alignedSound(o.timing)}${normalise}`,
    '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000',
    // The picture's last frame ends the file (a copied picture keeps its own frames).
    '-t', o.timing.duration.toFixed(6),
    '-movflags', '+faststart',
    o.output,
  ];
}

/** Where the poster is taken: at 1 s, or mid-way through a shorter answer. */
function posterInput(input: string, duration: number): string[] {
  const at = Math.min(1, Math.max(0, duration / 2));
  return [...ANSWER_INPUT_LIMITS, '-ss', at.toFixed(2), '-i', input];
}

/** The poster's one frame, upright and at most 1280 px wide. */
const POSTER_OUTPUT = ['-frames:v', '1', '-vf', "scale='min(iw,1280)':-2", '-q:v', '3'] as const;

/** The poster, taken from the upload itself (at 1 s, or mid-way through a shorter answer), upright and at most 1280 px wide. */
export function posterArgs(o: { input: string; output: string; duration: number }): string[] {
  return [...posterInput(o.input, o.duration), ...POSTER_OUTPUT, o.output];
}

/**
 * The poster and the first pass in one ffmpeg run, for an answer that has no poster yet: one ffmpeg
 * start fewer (0.39-0.44 CPU s against 0.47-0.52 for the two runs on a 20 s 720p H.264/AAC or VP8/Opus
 * answer, median of nine). The upload is opened twice, as the two runs open it: seeked for the
 * poster's frame (read only until that frame is written), shifted onto the picture's clock for the
 * sound; so the poster and the measurement are those of `posterArgs` and `loudnessMeasureArgs`. The
 * poster logs nothing once written, and ebur128 logs its summary as it closes: still the last one of
 * the log, where parseLoudness reads it.
 */
export function posterAndLoudnessArgs(o: { input: string; poster: string; duration: number; timing: AnswerTiming }): string[] {
  return [
    ...posterInput(o.input, o.duration),
    ...shiftedInput(o.input, o.timing),
    '-map', '0:v:0', ...POSTER_OUTPUT, o.poster,
    '-map', '1:a:0', '-af', `${alignedSound(o.timing)},ebur128=peak=true:framelog=verbose`, '-f', 'null', '-',
  ];
}
