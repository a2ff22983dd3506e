/**
 * User text reaching ffmpeg's filters (issue 15, item 8). drawtext expanded `%{…}` in a question:
 * "Server clock: %{localtime}" burned in the server's clock, and "50% or more?" lost its whole line
 * while the render still reported ready. Every user text now reaches the filters literally; this
 * renders such a card and subtitle with the real ffmpeg and reads them back with tesseract.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaTools } from '../../src/server/media/ffmpeg.js';
import { fontFile, subtitleFont } from '../../src/server/media/fonts.js';
import { CARD_SECONDS, composeArgs, layoutCard, writeCard, writeSubtitles, type CardStyle, type Frame, type SubtitleStyle } from '../../src/server/media/render.js';
import { makeClip } from '../../src/server/test/clips.js';
import { grabFrame } from '../../src/server/test/ocr.js';

const run = promisify(execFile);
const { runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });
const cardStyle = (o: Partial<CardStyle> = {}): CardStyle => ({ background: '#000000', color: '#ffffff', size: 36, face: { font: 'Arial', bold: false }, fontFile: fontFile('Arial', false), ...o });
const subtitleStyle = (): SubtitleStyle => ({ face: { font: 'Arial', bold: false }, ...subtitleFont('Arial'), size: 30, color: '#ffffff', bold: false, border: true });

describe('user text in filters', () => {
  let dir: string;
  let answer: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-filters-'));
    answer = await makeClip({ format: 'mp4', seconds: 4, size: '640x360', tone: 500 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The text of a frame's region, read by tesseract from a 2× upscale. */
  async function ocr(file: string, seconds: number, crop: string, name: string): Promise<string> {
    const image = path.join(dir, `ocr-${name}.png`);
    await run('ffmpeg', ['-v', 'error', '-y', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=${crop},scale=iw*2:ih*2:flags=lanczos`, '-update', '1', image]);
    return (await run('tesseract', [image, 'stdout', '--psm', '6'])).stdout;
  }

  it('draws user text literally: %{…}, a lone %, colons, backslashes and quotes on the card, markup in subtitles', async () => {
    // What a company can type as a question (drawtext used to expand %{localtime} into the server's
    // clock, and drop the whole "50% or more?" line while the render still finished).
    const frame: Frame = { width: 1280, height: 720, kind: 'answer' };
    const style = cardStyle({ size: 30 });
    const fit = layoutCard({ text: 'x', frame, style, logo: false });
    const lines = ['50% or more?', 'Clock: %{localtime} frame %{n}', `a:b \\ "quoted" 'single'`];
    const literal = await writeCard(dir, 'literal', { ...fit, lines: lines.map((text, i) => ({ text, width: 0, top: 250 + i * 60 })) });
    const subtitles = await writeSubtitles(dir, 'literal', [{ start: 0.2, end: 3.8, text: '{hidden} 50% \\N <b>tag</b>' }], subtitleStyle(), frame);
    const output = path.join(dir, 'literal.mp4');
    await runFfmpeg(composeArgs({ output, frame, style, segments: [{ answer, source: { width: 640, height: 360 }, card: literal, subtitles }] }), { failOnErrors: 'filters' });
    const card = await ocr(output, 1, '1280:300:0:210', 'card');
    expect(card).toContain('50% or more?');
    expect(card).toContain('%{localtime}');
    expect(card).toContain('%{n}');
    expect(card).toMatch(/a:b \\ "quoted" ['‘’]single['‘’]/); // tesseract reads plain single quotes as curly ones
    // No clock, no date and no frame number in place of the text.
    expect(card).not.toMatch(/\d{1,2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}/);
    expect(card).not.toMatch(/frame \d/);

    // The subtitle's white alone (testsrc2's colours under it confuse the reading).
    const subtitle = (await run('tesseract', [await grabFrame(output, CARD_SECONDS + 1.5, 'literal-subtitle', { crop: '1280:200:0:520', zoom: 2, light: 225 }), 'stdout', '--psm', '6'])).stdout;
    expect(subtitle).toContain('{hidden} 50% \\N <b>tag</b>');
  }, 60_000);

});
