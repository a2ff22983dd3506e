import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeArea, type Box } from '../../contract/frame-layout.js';
import { cueWords, groupCues, proportionalWords, retimedWords, type Cue } from '../../contract/subtitles.js';
import { highlightSpans, WORD_CAPTION_LINES, WORD_HIGHLIGHT_FALLBACK, wordHighlight, wordPages } from '../../contract/word-captions.js';
import { openAiEngine, pocketsphinxEngine } from '../modules/transcription/engines.js';
import { speechAudioArgs } from '../modules/transcription/pocketsphinx.js';
import { boxInside, colourBox, grabFrame, normalisedWords, readWords } from '../test/ocr.js';
import { createMediaTools } from './ffmpeg.js';
import { subtitleFont } from './fonts.js';
import { assScript, composeArgs, writeSubtitles, type Frame, type SubtitleStyle } from './render.js';

const run = promisify(execFile);
const wordStyle = (o: Partial<SubtitleStyle> = {}): SubtitleStyle => ({
  face: { font: 'Arial', bold: true }, ...subtitleFont('Arial'), size: 30, color: '#ffffff', bold: true, border: true, captions: 'word', highlight: '#ffd60a', ...o,
});
const frame640: Frame = { width: 640, height: 360, kind: 'answer' };

describe('words of cues (issue 31)', () => {
  it('keeps the engine word times through grouping, inside each cue', () => {
    const words: Cue[] = [
      { start: 0.1, end: 0.4, text: 'Working' },
      { start: 0.45, end: 0.6, text: 'with' },
      { start: 0.62, end: 0.9, text: 'this' },
      { start: 0.95, end: 1.3, text: 'team.' },
      { start: 2.0, end: 2.4, text: 'Great' },
    ];
    const cues = groupCues(words, 3);
    expect(cues.map((c) => c.text)).toEqual(['Working with this team.', 'Great']);
    expect(cues[0]!.words).toEqual(words.slice(0, 4));
    expect(cueWords(cues[0]!)).toEqual(words.slice(0, 4));
    // The last cue was stretched to 1 s; its word stays where it was said.
    expect(cues[1]!.words).toEqual([{ start: 2, end: 2.4, text: 'Great' }]);
  });

  it('shares a typed cue out by characters, and re-times a cue whose text was edited', () => {
    expect(proportionalWords({ start: 1, end: 2, text: 'ab cd' })).toEqual([
      { start: 1, end: 1.4, text: 'ab' },
      { start: 1.6, end: 2, text: 'cd' },
    ]);
    const before: Cue = { start: 0, end: 2, text: 'Great team', words: [{ start: 0.2, end: 0.8, text: 'Great' }, { start: 1, end: 1.8, text: 'team' }] };
    // Same text, moved and stretched: the words follow.
    expect(retimedWords({ start: 1, end: 5, text: 'Great  team' }, before)).toEqual([{ start: 1.4, end: 2.6, text: 'Great' }, { start: 3, end: 4.6, text: 'team' }]);
    // Edited text: by characters across the cue.
    expect(retimedWords({ start: 0, end: 2, text: 'Great teams' }, before)).toEqual(proportionalWords({ start: 0, end: 2, text: 'Great teams' }));
    // Words that no longer spell the text are not trusted.
    expect(cueWords({ ...before, text: 'Good team' })).toEqual(proportionalWords({ start: 0, end: 2, text: 'Good team' }));
  });
});

describe('word caption layout', () => {
  it("picks the company's colour for the spoken word, else its card text colour, else the accent", () => {
    expect(wordHighlight({ text: '#ffffff', background: '#ff6600', cardText: '#ffffff' })).toBe('#ff6600');
    // The default style: a near-black card (unreadable on a video) and white text (the same as the subtitle).
    expect(wordHighlight({ text: '#ffffff', background: '#15171f', cardText: '#ffffff' })).toBe(WORD_HIGHLIGHT_FALLBACK);
    expect(wordHighlight({ text: '#ffffff', background: '#15171f', cardText: '#22d3ee' })).toBe('#22d3ee');
  });

  it('pages long cues into two lines at most on every frame kind, one word lit at every moment', () => {
    const text = 'Working with this team was a great experience and I would recommend them to every business I know';
    const cue = { start: 0, end: 6, text };
    for (const f of [{ width: 1080, height: 1920, kind: 'vertical' as const }, { width: 1920, height: 1080, kind: 'landscape' as const }, { width: 640, height: 360, kind: 'answer' as const }]) {
      const pages = wordPages([cue], { ...f, size: 34, border: true, face: { font: 'Trebuchet MS', bold: true } });
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.flatMap((p) => p.words.map((w) => w.text)).join(' ')).toBe(text);
      for (const p of pages) {
        expect(p.lines.length).toBeLessThanOrEqual(WORD_CAPTION_LINES);
        const spans = highlightSpans(p);
        expect(spans[0]!.start).toBe(p.start);
        expect(spans.at(-1)!.end).toBe(p.end);
        for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBe(spans[i - 1]!.end);
      }
      expect(pages[0]!.start).toBe(0);
      expect(pages.at(-1)!.end).toBe(6);
    }
  });

  it('writes one event per word, the same literal text each time, only the spoken word recoloured', () => {
    const script = assScript({ cues: [{ start: 0, end: 1, text: 'Hi {\\fs99} there' }], style: wordStyle({ highlight: '#ff6600' }), frame: frame640 });
    const events = script.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(events).toHaveLength(3);
    expect(events[1]).toContain('{\\1c&H0066FF&}\\{\\\u200bfs99\\}{\\r}');
    expect(events.every((e) => e.includes('\\an5\\pos(320,'))).toBe(true);
    expect(events.join('\n')).not.toContain('{\\fs99}');
    // Line subtitles are unchanged.
    expect(assScript({ cues: [{ start: 0, end: 1, text: 'Hi there' }], style: wordStyle({ captions: 'line' }), frame: frame640 })).toContain(',0,0,0,,Hi there');
  });
});

describe('OpenAI-compatible engine word times', () => {
  it('asks for word timestamps and groups the words it answers', async () => {
    let body = '';
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        body = Buffer.concat(chunks).toString('latin1');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'Merci beaucoup.', segments: [{ id: 0, start: 0, end: 1.6, text: ' Merci beaucoup.' }], words: [{ word: 'Merci', start: 0.1, end: 0.5 }, { word: 'beaucoup.', start: 0.6, end: 1.5 }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vr-words-'));
    try {
      const wav = path.join(dir, 'a.wav');
      await writeFile(wav, Buffer.alloc(64));
      const engine = openAiEngine({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: undefined, model: 'whisper-1' });
      const words = await engine.transcribe(wav, 'fr');
      expect(words).toEqual([{ start: 0.1, end: 0.5, text: 'Merci' }, { start: 0.6, end: 1.5, text: 'beaucoup.' }]);
      expect(body).toContain('name="timestamp_granularities[]"\r\n\r\nword');
      expect(body).toContain('name="timestamp_granularities[]"\r\n\r\nsegment');
      expect(groupCues(words, 2)[0]!.words).toHaveLength(2);
    } finally {
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('word-by-word captions rendered with real ffmpeg on known speech', () => {
  const SENTENCE = 'Working with this team was a great experience.';
  const YELLOW = (r: number, g: number, b: number) => r > 190 && g > 160 && b < 110;
  const { runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });
  let dir: string;
  let output: string;
  let cues: Cue[];

  /** A black-on-white picture of the frame's pixels that `match` (the highlighted word alone), for tesseract. */
  async function maskOf(png: string, name: string, match: (r: number, g: number, b: number) => boolean): Promise<string> {
    const { stdout: size } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', png]);
    const [width, height] = size.trim().split(',').map(Number) as [number, number];
    const { stdout: rgb } = await run('ffmpeg', ['-v', 'error', '-i', png, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    const gray = Buffer.alloc(width * height);
    for (let i = 0; i < gray.length; i++) gray[i] = match(rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!) ? 0 : 255;
    const pgm = path.join(dir, `${name}.pgm`);
    await writeFile(pgm, Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), gray]));
    return pgm;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-wordcap-'));
    const speech = path.join(dir, 'speech.wav');
    await run('flite', ['-voice', 'slt', '-t', SENTENCE, '-o', speech]);
    const answer = path.join(dir, 'answer.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x203040:s=640x360:r=30:d=4', '-i', speech, '-af', 'apad', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', answer]);
    const wav = path.join(dir, 'speech16.wav');
    await run('ffmpeg', ['-v', 'error', '-y', ...speechAudioArgs(answer, wav)]);
    const words = await pocketsphinxEngine('pocketsphinx_continuous').transcribe(wav, 'en');
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', answer]);
    cues = groupCues(words, Number(stdout));
    const subtitles = await writeSubtitles(dir, 'words', cues, wordStyle(), frame640);
    output = path.join(dir, 'captioned.mp4');
    await runFfmpeg(composeArgs({ output, frame: frame640, style: { background: '#000000', color: '#ffffff', size: 36, face: { font: 'Arial', bold: false }, fontFile: '' }, segments: [{ answer, source: { width: 640, height: 360 }, subtitles }] }), {
      failOnErrors: 'filters',
    });
  }, 90_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('highlights each word as it is said: the lit word read by OCR is the word timed then, and it moves along the line', async () => {
    const said = cues.flatMap((c) => cueWords(c));
    expect(normalisedWords(said.map((w) => w.text).join(' ')).join(' ')).toContain('great experience');
    const probes = said.filter((w) => w.text.length >= 5 && w.end - w.start >= 0.15);
    expect(probes.length).toBeGreaterThanOrEqual(2);
    const boxes: Box[] = [];
    for (const [i, w] of probes.entries()) {
      const at = (w.start + w.end) / 2;
      const png = await grabFrame(output, at, `wordcap-${i}`);
      const lit = await colourBox(png, YELLOW);
      expect(lit, `a highlighted word at ${at}s`).not.toBeNull();
      boxes.push(lit!);
      expect(boxInside(lit!, safeArea(640, 360, 'answer'))).toBe(true);
      const read = (await readWords(await maskOf(png, `lit-${i}`, YELLOW))).map((r) => r.text).join(' ');
      expect(normalisedWords(read), `OCR of the lit word at ${at}s`).toEqual(normalisedWords(w.text));
      // The rest of the caption is white, and does not contain the lit word on its own line twice.
      const white = (await readWords(await grabFrame(output, at, `wordcap-white-${i}`, { light: 200 }))).map((r) => r.text);
      expect(white.length).toBeGreaterThan(0);
    }
    expect(new Set(boxes.map((b) => `${b.x},${b.y}`)).size).toBe(boxes.length);
    // After the last word no caption is drawn.
    const last = Math.max(...cues.map((c) => c.end));
    expect(last).toBeLessThan(3.6);
    expect(await colourBox(await grabFrame(output, last + 0.2, 'wordcap-after'), YELLOW)).toBeNull();
  }, 90_000);

  // Each export frame a caption can land on (issue 31): 9:16, 1:1 and 4:5 (16:9 is wide enough for one line).
  const TALL_FRAMES: { name: string; frame: Frame }[] = [
    { name: '9:16', frame: { width: 1080, height: 1920, kind: 'vertical' } },
    { name: '1:1', frame: { width: 1080, height: 1080, kind: 'square' } },
    { name: '4:5', frame: { width: 1080, height: 1350, kind: 'portrait' } },
  ];
  for (const { name, frame } of TALL_FRAMES) {
    it(`draws a long cue in two lines at most, large and inside the safe area of a ${name} export`, async () => {
      const { width, height, kind } = frame;
      const answer = path.join(dir, `tall-${kind}.mp4`);
      await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x203040:s=${width}x${height}:r=30:d=0.6`, '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', answer]);
      const text = 'Working with this team was a great experience and I recommend them to everyone';
      // One short line first, to measure a line of this frame; then the long cue.
      const subtitles = await writeSubtitles(dir, `tall-${kind}`, [{ start: 0, end: 0.25, text: 'Working with' }, { start: 0.3, end: 0.6, text }], wordStyle({ size: 34 }), frame);
      const tall = path.join(dir, `tall-captioned-${kind}.mp4`);
      await runFfmpeg(composeArgs({ output: tall, frame, style: { background: '#000000', color: '#ffffff', size: 36, face: { font: 'Arial', bold: false }, fontFile: '' }, segments: [{ answer, source: frame, subtitles }] }), { failOnErrors: 'filters' });
      const line = await colourBox(await grabFrame(tall, 0.1, `wordcap-line-${kind}`), (r, g, b) => r > 190 && (g > 160 || b > 190));
      expect(line).not.toBeNull();
      const png = await grabFrame(tall, 0.35, `wordcap-tall-${kind}`);
      // WORD_CAPTION_SHOTS_DIR keeps the frame grabs (the README's screenshots).
      if (process.env.WORD_CAPTION_SHOTS_DIR) await run('cp', [png, path.join(process.env.WORD_CAPTION_SHOTS_DIR, `word-captions-${kind}.png`)]);
      const drawn = await colourBox(png, (r, g, b) => r > 190 && (g > 160 || b > 190));
      const safe = safeArea(width, height, kind);
      expect(drawn).not.toBeNull();
      expect(boxInside(drawn!, safe)).toBe(true);
      // Large: a line is over 5 % of the frame's width (measured: 77 px at 9:16, 61 px at 1:1 and 4:5).
      expect(line!.height).toBeGreaterThan(width * 0.05);
      // Two lines: not one, not three.
      expect(drawn!.height).toBeGreaterThan(line!.height * 1.6);
      expect(drawn!.height).toBeLessThan(line!.height * 2.6);
      // Centred across the frame.
      expect(Math.abs(drawn!.x + drawn!.width / 2 - width / 2)).toBeLessThan(width * 0.05);
      // Early in the cue (words timed by characters) the lit word is on the first line.
      const lit = await colourBox(png, YELLOW);
      expect(lit!.y).toBeLessThan(drawn!.y + drawn!.height / 2);
    }, 90_000);
  }
});
