import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeArea } from '../../contract/frame-layout.js';
import { makeClip } from '../test/clips.js';
import { boxInside, colourBox, grabFrame, readWords } from '../test/ocr.js';
import { createMediaTools } from './ffmpeg.js';
import { fontFile } from './fonts.js';
import { END_CARD_SECONDS, layoutEndCard, layoutLowerThird, writeEndCard, writeLowerThird } from './overlays.js';
import { CARD_SECONDS, composeArgs, composeGraph, layoutCard, writeCard, type CardStyle, type Frame } from './render.js';

const run = promisify(execFile);
const { probe, runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });

const style: CardStyle = {
  background: '#14213d',
  color: '#ffffff',
  size: 36,
  face: { font: 'Arial', bold: true },
  fontFile: fontFile('Arial', true),
  regularFile: fontFile('Arial', false),
};

/** Start and duration of each stream of a file (seconds). */
async function streams(file: string): Promise<{ type: string; start: number; duration: number }[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,start_time,duration', '-of', 'json', file]);
  return (JSON.parse(stdout) as { streams: { codec_type: string; start_time: string; duration: string }[] }).streams.map((s) => ({
    type: s.codec_type,
    start: Number(s.start_time),
    duration: Number(s.duration),
  }));
}

/** Mean loudness (RMS, dB) of the sound between two times. */
async function rms(file: string, from: number, to: number): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-v', 'info', '-ss', String(from), '-to', String(to), '-i', file, '-vn', '-af', 'astats=measure_overall=RMS_level:measure_perchannel=none', '-f', 'null', '-']);
  const m = /RMS level dB: (-?[\d.]+|-inf)/.exec(stderr);
  return m?.[1] === '-inf' || !m ? -Infinity : Number(m[1]);
}

describe('filter graph of the lower-third, the end card and the transitions (issue 31)', () => {
  const frame: Frame = { width: 1280, height: 720, kind: 'answer' };

  it('fades between answers and into the end card, picture and sound, and draws the end card last', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-overlay-graph-'));
    const endCard = await writeEndCard(dir, layoutEndCard({ frame, text: 'Book a call', address: 'acme.com', face: style.face, size: style.size, logo: false })!);
    const segments = [
      { answer: 'a.mp4', source: frame, duration: 5 },
      { answer: 'b.mp4', source: frame, duration: 4 },
    ];
    const graph = composeGraph({ frame, style, segments, logo: false, endCard });
    // The first answer fades out (picture and sound); the second fades in and out; then the end card, faded in.
    expect(graph).toContain('fade=t=out:st=4.7:d=0.3[a0v]');
    expect(graph).toContain('afade=t=out:st=4.85:d=0.15[a0a]');
    expect(graph).toMatch(/fade=t=in:st=0:d=0\.3,fade=t=out:st=3\.7:d=0\.3\[a1v\]/);
    expect(graph).toContain('afade=t=in:st=0:d=0.15,afade=t=out:st=3.85:d=0.15[a1a]');
    expect(graph).toContain(`[a0v][a0a][a1v][a1a][endcard][endsil]concat=n=3:v=1:a=1[v][a]`);
    // Without an end card, the last answer has no fade out: nothing follows it.
    const bare = composeGraph({ frame, style, segments, logo: false });
    expect(bare).not.toContain('endcard');
    expect(bare).not.toContain('st=3.7');
    await rm(dir, { recursive: true, force: true });
  });

  it('shares the scaled logo between the cards and the end card', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-overlay-logo-'));
    const endCard = await writeEndCard(dir, layoutEndCard({ frame, text: 'Book a call', address: '', face: style.face, size: style.size, logo: true })!);
    const card = await writeCard(dir, 'q', layoutCard({ text: 'Why us?', frame, style, logo: true }));
    const args = composeArgs({ output: 'out.mp4', frame, style, logo: 'logo.png', segments: [{ answer: 'a.mp4', source: frame, card }], endCard });
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    expect(graph).toContain('split=2[logo0][logo1]');
    expect(graph).toMatch(/\[endtxt\]\[logo1\]overlay=/);
    // Without cards (a subtitled answer alone), the end card's logo is the only one.
    const alone = composeArgs({ output: 'out.mp4', frame, style, logo: 'logo.png', segments: [{ answer: 'a.mp4', source: frame }], endCard });
    expect(alone).toContain('logo.png');
    expect(alone[alone.indexOf('-filter_complex') + 1]).toMatch(/split=1\[logo0\].*\[endtxt\]\[logo0\]overlay=/);
    await rm(dir, { recursive: true, force: true });
  });
});

describe('rendering the lower-third and the end card with real ffmpeg (issue 31)', () => {
  let dir: string;
  let answer: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-overlays-'));
    answer = await makeClip({ format: 'mp4', seconds: 2, size: '640x360', tone: 500 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the name and position as each answer starts, inside the safe area, and the end card after the last answer, in sync', async () => {
    const frame: Frame = { width: 640, height: 360, kind: 'answer' };
    const lt = layoutLowerThird({ frame, name: 'Jane Cooper', title: 'Head of Sales', face: style.face, subtitleSize: 30 })!;
    const lowerThird = await writeLowerThird(dir, 'lt', lt);
    const endCard = await writeEndCard(dir, layoutEndCard({ frame, text: 'Book a call', address: 'acme.com/demo', face: style.face, size: 40, logo: true })!);
    const logo = path.join(dir, 'magenta.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xff00ff:s=300x100', '-frames:v', '1', logo]);
    const output = path.join(dir, 'overlays.mp4');
    const card = await writeCard(dir, 'q0', layoutCard({ text: 'Why us?', frame, style, logo: true }));
    const segments = [
      { answer, source: frame, card, lowerThird, duration: 2 },
      { answer, source: frame, lowerThird, duration: 2 },
    ];
    await runFfmpeg(composeArgs({ output, frame, style, segments, logo, endCard }), { failOnErrors: 'filters' });

    // Card 3 s + 2 s + 2 s + end card 3 s; picture and sound of the same length, from the same start.
    const info = await probe(output);
    expect(Math.abs(info.durationSeconds - (CARD_SECONDS + 4 + END_CARD_SECONDS))).toBeLessThan(0.1);
    const [v, a] = [(await streams(output)).find((s) => s.type === 'video')!, (await streams(output)).find((s) => s.type === 'audio')!];
    expect(Math.abs(v.start - a.start)).toBeLessThan(1 / 30);
    expect(Math.abs(v.duration - a.duration)).toBeLessThan(1 / 30 + 0.03);

    // The lower-third, 1.5 s into the first answer: the name and the position read on the plate, inside the safe area.
    const plate = lt.plate;
    const crop = `${plate.width}:${plate.height}:${plate.x}:${plate.y}`;
    const first = await readWords(await grabFrame(output, CARD_SECONDS + 1.2, 'lt-first', { crop, zoom: 3 }));
    expect(first.map((w) => w.text).join(' ')).toMatch(/Jane Cooper/);
    expect(first.map((w) => w.text).join(' ')).toMatch(/Head of Sales/);
    expect(boxInside(plate, safeArea(640, 360, 'answer'))).toBe(true);
    // And again as the second answer starts; gone before it (0.2 s into the answer, still fading in at most faintly).
    const second = await readWords(await grabFrame(output, CARD_SECONDS + 2 + 1.2, 'lt-second', { crop, zoom: 3 }));
    expect(second.map((w) => w.text).join(' ')).toMatch(/Jane Cooper/);
    const early = await readWords(await grabFrame(output, CARD_SECONDS + 0.2, 'lt-early', { crop, zoom: 3 }));
    expect(early.map((w) => w.text).join(' ')).not.toMatch(/Cooper/);

    // The end card: its call to action and address read, the logo in its band.
    const endAt = CARD_SECONDS + 4 + 1.5;
    const png = await grabFrame(output, endAt, 'end-card', { zoom: 2 });
    const read = (await readWords(png)).map((w) => w.text).join(' ');
    expect(read).toMatch(/Book a call/);
    expect(read).toMatch(/acme\.com\/demo/);
    const logoBox = await colourBox(await grabFrame(output, endAt, 'end-card-logo'), (r, g, b) => r > 200 && g < 70 && b > 200);
    expect(logoBox).not.toBeNull();
    expect(boxInside(logoBox!, endCard.layout.logoBox!, 2)).toBe(true);

    // The sound fades at the joins: quiet at the very end of the first answer, loud in its middle.
    expect(await rms(output, CARD_SECONDS + 1.96, CARD_SECONDS + 2)).toBeLessThan((await rms(output, CARD_SECONDS + 1, CARD_SECONDS + 1.5)) - 12);
  }, 90_000);
});
