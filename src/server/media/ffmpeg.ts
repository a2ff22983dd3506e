import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

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

export interface RunFfmpegOptions {
  timeoutMs?: number;
  /**
   * An error logged during a run that exits with 0 also rejects, so a picture missing its text is
   * never reported as done.
   */
  failOnErrors?: keyof typeof ERROR_LINE;
}

export interface ProbeResult {
  formatName: string;
  durationSeconds: number;
  /** The container's start time: the earliest start of its streams (ffmpeg's timeline begins there). */
  startSeconds: number;
  /**
   * rotation: degrees the picture is turned on display (a phone's portrait video is stored landscape
   * with 90 or -90); width and height are the stored frame's. index: the stream's number in the file;
   * pixFmt: its pixel format ('yuv420p'); fps: its average frame rate, else its base rate (0 if unknown).
   */
  video: { index: number; codec: string; width: number; height: number; rotation: number; pixFmt: string; fps: number } | null;
  audio: { index: number; codec: string; sampleRate: number; channels: number } | null;
}

/** What the save call reads of an upload: the probe, whether reading stopped early, the demuxer's complaints, and the picture's own packet span. */
export type UploadProbe = ProbeResult & { tooManyPackets: boolean; errors: string[]; videoSpan: { start: number; end: number } | null };

export interface PacketSpan {
  seconds: number;
  /** The earliest packet's start and the latest packet's end, on the file's own clock (0 when none). */
  start: number;
  end: number;
  tooManyPackets: boolean;
  /** Each wanted stream's own earliest start and latest end (the streams that had timed packets). */
  streams: Record<number, { start: number; end: number }>;
  /**
   * What the demuxer reported while reading every packet (a cut file ends 'prematurely' or is a
   * 'partial file'): the same lines as `readErrors(file, 'packets')`, without running ffmpeg. Empty
   * when reading stopped early.
   */
  errors: string[];
}

/** The media tools of one process, as services reach them through the context (`ctx.media`). */
export interface MediaToolkit {
  /**
   * Runs ffmpeg with the given arguments; resolves with the end of its log (the last 8,000 characters,
   * where a filter's closing report such as loudnorm's is), rejects with the end of its error output.
   */
  runFfmpeg(args: string[], options?: RunFfmpegOptions): Promise<string>;
  /**
   * What a file we made is. The duration comes from the container, or the streams, or (for browser
   * WebM that carries none) from the packets. For a file someone else sent, use probeUpload.
   */
  probe(file: string): Promise<ProbeResult>;
  /**
   * What an uploaded file is, believing none of its claims: the duration is the time its first video
   * and audio streams really span, read from their packets (a container's Duration is one number
   * anyone can rewrite), and reading stops as soon as it passes `maxSeconds`, so a long file costs no
   * more than a short one. A duration above `maxSeconds` means "longer than allowed", not the exact
   * length. One ffprobe reads the streams and the packets (two when reading stopped early).
   */
  probeUpload(file: string, maxSeconds: number): Promise<UploadProbe>;
  /**
   * The time the given streams span, from the earliest packet's start to the latest packet's end,
   * read from the packet headers without decoding (a 46 MB 20 s 720p file: 0.16 s here). ffprobe's
   * output is read as it comes and ffprobe is stopped once the span passes `stopAbove` or the packets
   * pass MAX_PACKETS. Timestamps are the packet's presentation time, else its decoding time.
   */
  packetSpan(file: string, o: { streams: number[]; stopAbove: number; timeoutMs?: number }): Promise<PacketSpan>;
  /**
   * The errors ffmpeg reports while reading a whole file: every packet without decoding for a video
   * (`copy`, fast; a cut file ends 'prematurely'), or a full decode for a still image. Empty means the
   * file reads cleanly to its end.
   */
  readErrors(file: string, mode: 'packets' | 'decode'): Promise<string[]>;
  /** Stops every ffmpeg and ffprobe child of this toolkit (shutdown). */
  killAll(): void;
}

/** What a toolkit is made of: the `Config` fields of the same names. */
export interface MediaToolsConfig {
  /** FFMPEG_PATH; default: the one on PATH. */
  ffmpegPath?: string | undefined;
  /** FFPROBE_PATH; default: the one on PATH. */
  ffprobePath?: string | undefined;
  /** How many ffmpeg runs of this toolkit at once; the others wait their turn. */
  ffmpegConcurrency: number;
}

/**
 * More packets than any real answer has: 21 s at 240 fps (slow motion) plus its sound is under 7,000.
 * A file of millions of tiny packets at one instant would otherwise keep ffprobe busy for its whole size.
 */
const MAX_PACKETS = 200_000;

interface FfprobeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string; start_time?: string };
  streams?: FfprobeStream[];
}

function rotationOf(s: FfprobeStream): number {
  const fromMatrix = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  return Number(fromMatrix ?? s.tags?.rotate ?? 0) || 0;
}

/** '30000/1001' → 29.97; '0/0' or nothing → 0. */
function rate(value: string | undefined): number {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den && Number.isFinite(num / den) ? num / den : 0;
}

function resultOf(json: FfprobeJson, v: FfprobeStream | undefined, a: FfprobeStream | undefined, duration: number): ProbeResult {
  return {
    formatName: json.format?.format_name ?? '',
    durationSeconds: duration,
    startSeconds: Number(json.format?.start_time) || 0,
    video: v
      ? {
          index: v.index ?? 0,
          codec: v.codec_name ?? '',
          width: v.width ?? 0,
          height: v.height ?? 0,
          rotation: rotationOf(v),
          pixFmt: v.pix_fmt ?? '',
          fps: rate(v.avg_frame_rate) || rate(v.r_frame_rate),
        }
      : null,
    audio: a ? { index: a.index ?? 0, codec: a.codec_name ?? '', sampleRate: Number(a.sample_rate ?? 0), channels: a.channels ?? 0 } : null,
  };
}

/**
 * ffmpeg and ffprobe as resources of one process (issue 16: built once into the context, no
 * module-level state): the paths of this configuration (else the ones on PATH), a cap on how many
 * ffmpeg runs at once, and every child tracked so that shutdown can stop them.
 */
export function createMediaTools(config: MediaToolsConfig): MediaToolkit {
  const ffmpeg = config.ffmpegPath || 'ffmpeg';
  const ffprobe = config.ffprobePath || 'ffprobe';
  const maxConcurrent = Math.max(1, Math.floor(config.ffmpegConcurrency) || 1);
  const running = new Set<ChildProcess>();
  const waiting: (() => void)[] = [];
  let active = 0;

  async function slot(): Promise<() => void> {
    if (active >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    return () => {
      active -= 1;
      waiting.shift()?.();
    };
  }

  /** Tracks a child until it ends (shutdown can stop it), killed after `timeoutMs`; rejects if it cannot start. */
  function settled(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    running.add(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    return new Promise((resolve, reject) => {
      child.on('error', (error) => {
        clearTimeout(timer);
        running.delete(child);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        running.delete(child);
        resolve({ code, signal });
      });
    });
  }

  async function runFfmpeg(args: string[], options: RunFfmpegOptions = {}): Promise<string> {
    const release = await slot();
    try {
      const levels = options.failOnErrors ? ['-loglevel', 'level+info'] : [];
      const child = spawn(ffmpeg, ['-hide_banner', '-nostdin', '-y', ...levels, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      const ended = settled(child, options.timeoutMs ?? 10 * 60_000);
      let stderr = '';
      let partial = '';
      let logged: string | null = null;
      child.stderr.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-8000);
        if (!options.failOnErrors || logged) return;
        const lines = (partial + d.toString()).split(/[\r\n]+/);
        partial = lines.pop() ?? '';
        logged = lines.find((line) => ERROR_LINE[options.failOnErrors!].test(line)) ?? null;
      });
      const { code, signal } = await ended;
      if (code === 0 && options.failOnErrors && !logged && ERROR_LINE[options.failOnErrors].test(partial)) logged = partial;
      if (code === 0 && logged) throw new Error(`ffmpeg reported an error: ${logged}`);
      if (code !== 0) throw new Error(`ffmpeg failed (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
      return stderr;
    } finally {
      release();
    }
  }

  async function probeJson(file: string): Promise<FfprobeJson> {
    const { stdout } = await execFileAsync(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      maxBuffer: 4 * 1024 * 1024,
      timeout: 30_000,
    });
    return JSON.parse(stdout) as FfprobeJson;
  }

  async function packetSpan(file: string, o: { streams: number[]; stopAbove: number; timeoutMs?: number }): Promise<PacketSpan> {
    const wanted = new Set(o.streams);
    let start = Infinity;
    let end = -Infinity;
    const perStream: Record<number, { start: number; end: number }> = {};
    let packets = 0;
    let stopped: 'long' | 'many' | null = null;
    let stderr = '';
    const child = spawn(ffprobe, ['-v', 'error', '-show_entries', 'packet=stream_index,pts_time,dts_time,duration_time', '-of', 'compact=p=0:nk=0', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = settled(child, o.timeoutMs ?? 30_000);
    let rest = '';
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
        const until = at + (Number.isFinite(duration) && duration > 0 ? duration : 0);
        start = Math.min(start, at);
        end = Math.max(end, until);
        const own = (perStream[Number(fields.get('stream_index'))] ??= { start: at, end: until });
        own.start = Math.min(own.start, at);
        own.end = Math.max(own.end, until);
        // Both ends only ever move outwards, so a span past the limit stays past it.
        if (end - start > o.stopAbove) return stop('long');
        if (packets > MAX_PACKETS) return stop('many');
      }
    });
    const { code, signal } = await ended;
    if (code !== 0 && !stopped) throw new Error(`ffprobe failed (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    const errors = stopped ? [] : stderr.split('\n').map((line) => line.trim()).filter(Boolean);
    const found = end > start;
    return { seconds: found ? end - start : 0, start: found ? start : 0, end: found ? end : 0, tooManyPackets: stopped === 'many', streams: perStream, errors };
  }

  async function probe(file: string): Promise<ProbeResult> {
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
   * The streams, the format and the packets of an upload in one ffprobe: one start fewer than probeJson
   * and then packetSpan, which it reads as they would. ffprobe writes the packets first and the streams
   * last, so which streams are the first video and audio ones is not known while the packets come: the
   * packets of every video and audio stream are counted and spanned, and ffprobe is stopped on
   * packetSpan's limits (`stopAbove`, MAX_PACKETS). Those streams include the ones wanted, so it stops
   * no later than packetSpan would; once stopped, the streams and the format are not known (`json`
   * null). Null when its output is not what this reads (then read the file as before).
   */
  async function probeWithPackets(
    file: string,
    stopAbove: number,
  ): Promise<{ json: FfprobeJson | null; tooManyPackets: boolean; errors: string[]; streams: PacketSpan['streams']; packetStreams: Set<number> } | null> {
    const perStream: Record<number, { start: number; end: number }> = {};
    const packetStreams = new Set<number>();
    let start = Infinity;
    let end = -Infinity;
    let packets = 0;
    let stopped: 'long' | 'many' | 'unexpected' | null = null;
    let stderr = '';
    let rest = '';
    // Every line but the packets': the streams and the format, parsed once ffprobe ends.
    let kept = '';
    let inPackets = false;
    const child = spawn(
      ffprobe,
      ['-v', 'error', '-show_entries', 'packet=codec_type,stream_index,pts_time,dts_time,duration_time', '-show_streams', '-show_format', '-of', 'json=compact=1', file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const ended = settled(child, 30_000);
    const stop = (why: 'long' | 'many' | 'unexpected') => {
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
        const trimmed = line.trim();
        if (!inPackets || !trimmed.startsWith('{')) {
          if (trimmed === '"packets": [') inPackets = true;
          else if (inPackets && trimmed.startsWith(']')) inPackets = false;
          kept += `${line}\n`;
          // probeJson's output buffer: tags that big are read (and refused) as before.
          if (kept.length > 4 * 1024 * 1024) return stop('unexpected');
          continue;
        }
        let packet: { codec_type?: unknown; stream_index?: unknown; pts_time?: unknown; dts_time?: unknown; duration_time?: unknown };
        try {
          packet = JSON.parse(trimmed.replace(/,$/, '')) as typeof packet;
        } catch {
          return stop('unexpected');
        }
        if (packet.codec_type !== 'video' && packet.codec_type !== 'audio') continue;
        const index = Number(packet.stream_index);
        packetStreams.add(index);
        packets += 1;
        const pts = Number(packet.pts_time ?? NaN);
        const at = Number.isFinite(pts) ? pts : Number(packet.dts_time ?? NaN);
        if (!Number.isFinite(at)) continue;
        const duration = Number(packet.duration_time ?? NaN);
        const until = at + (Number.isFinite(duration) && duration > 0 ? duration : 0);
        start = Math.min(start, at);
        end = Math.max(end, until);
        const own = (perStream[index] ??= { start: at, end: until });
        own.start = Math.min(own.start, at);
        own.end = Math.max(own.end, until);
        // Both ends only ever move outwards, so a span past the limit stays past it.
        if (end - start > stopAbove) return stop('long');
        if (packets > MAX_PACKETS) return stop('many');
      }
    });
    const { code, signal } = await ended;
    if (stopped === 'unexpected') return null;
    if (code !== 0 && !stopped) throw new Error(`ffprobe failed (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    let json: FfprobeJson | null = null;
    if (!stopped) {
      try {
        json = JSON.parse(kept + rest) as FfprobeJson;
      } catch {
        return null;
      }
    }
    const errors = stopped ? [] : stderr.split('\n').map((line) => line.trim()).filter(Boolean);
    return { json, tooManyPackets: stopped === 'many', errors, streams: perStream, packetStreams };
  }

  async function probeUpload(file: string, maxSeconds: number): Promise<UploadProbe> {
    const read = await probeWithPackets(file, maxSeconds);
    const json = read?.json ?? (await probeJson(file));
    const v = json.streams?.find((s) => s.codec_type === 'video');
    const a = json.streams?.find((s) => s.codec_type === 'audio');
    const streams = [v, a].flatMap((s) => (s?.index === undefined ? [] : [s.index]));
    let span: Pick<PacketSpan, 'seconds' | 'tooManyPackets' | 'errors' | 'streams'>;
    if (streams.length === 0) span = { seconds: 0, tooManyPackets: false, errors: [], streams: {} };
    else if (read && (read.json || [...read.packetStreams].every((i) => streams.includes(i)))) {
      // Every packet was read, or every packet read was of the streams wanted: what packetSpan reads of them.
      const own = Object.fromEntries(streams.flatMap((i) => (read.streams[i] ? [[i, read.streams[i]]] : []))) as PacketSpan['streams'];
      const first = Math.min(...Object.values(own).map((o) => o.start));
      const last = Math.max(...Object.values(own).map((o) => o.end));
      span = { seconds: last > first ? last - first : 0, tooManyPackets: read.tooManyPackets, errors: read.errors, streams: own };
    } else {
      // Stopped on another video or audio stream's packets, or output not understood: the packets of the streams wanted alone, as before.
      span = await packetSpan(file, { streams, stopAbove: maxSeconds });
    }
    const videoSpan = v?.index === undefined ? undefined : span.streams[v.index];
    return { ...resultOf(json, v, a, span.seconds), tooManyPackets: span.tooManyPackets, errors: span.errors, videoSpan: videoSpan ?? null };
  }

  async function readErrors(file: string, mode: 'packets' | 'decode'): Promise<string[]> {
    const args = ['-hide_banner', '-nostdin', '-v', 'error', '-i', file, ...(mode === 'packets' ? ['-map', '0', '-c', 'copy'] : []), '-f', 'null', '-'];
    try {
      const { stderr } = await execFileAsync(ffmpeg, args, { maxBuffer: 4 * 1024 * 1024, timeout: 60_000 });
      return stderr.split('\n').map((line) => line.trim()).filter(Boolean);
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? '';
      return [stderr.trim() || (error as Error).message];
    }
  }

  return {
    runFfmpeg,
    probe,
    probeUpload,
    packetSpan,
    readErrors,
    killAll: () => {
      for (const child of running) child.kill('SIGKILL');
    },
  };
}
