import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const dir = path.join(os.tmpdir(), 'vouchreel-test-clips');

export interface ClipOptions {
  format: 'webm' | 'mp4';
  seconds: number;
  audio?: boolean;
  /** Tone frequency, so that two clips differ in content. */
  tone?: number;
  /** Frame size, default 160x120. */
  size?: string;
}

/** A small real video made by ffmpeg (cached per set of options): WebM VP8+Opus or MP4 H.264+AAC. */
export async function makeClip(o: ClipOptions): Promise<string> {
  await mkdir(dir, { recursive: true });
  const audio = o.audio ?? true;
  const tone = o.tone ?? 440;
  const size = o.size ?? '160x120';
  const file = path.join(dir, `clip-${size}-${o.seconds}s-${audio ? `a${tone}` : 'silent'}.${o.format}`);
  if (existsSync(file)) return file;
  const tmp = `${file}.${process.pid}.tmp.${o.format}`;
  const args = ['-hide_banner', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=15:duration=${o.seconds}`];
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=${tone}:sample_rate=48000:duration=${o.seconds}`);
  if (o.format === 'webm') args.push('-c:v', 'libvpx', '-b:v', '200k', '-deadline', 'realtime', '-cpu-used', '8', ...(audio ? ['-c:a', 'libopus'] : []));
  else args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '38', '-pix_fmt', 'yuv420p', ...(audio ? ['-c:a', 'aac'] : []));
  args.push('-f', o.format, tmp);
  await run('ffmpeg', args);
  const { rename } = await import('node:fs/promises');
  await rename(tmp, file);
  return file;
}

/** A multipart/form-data body as a browser would send it. */
export function multipart(parts: ({ name: string; value: string } | { name: string; filename: string; content: Buffer; type: string })[]) {
  const boundary = `----vouchreel${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`));
      chunks.push(part.content, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
