import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCropArea } from '../../contract/api/studio.schema.js';
import { makeClip } from '../test/clips.js';
import { createMediaTools } from './ffmpeg.js';
import { fontFile, subtitleFont } from './fonts.js';
import { burnInSrt, CARD_SECONDS, concatArgs, cardChain, cropPixels, exportArgs, introArgs, literalCueText, subtitledArgs, wrapText } from './render.js';
import { toSrt } from '../../contract/subtitles.js';

const run = promisify(execFile);
const { probe, runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });

describe('crop maths', () => {
  it('turns fractions into even pixels inside the frame', () => {
    expect(cropPixels({ x: 0.25, y: 0, width: 0.3164, height: 1 }, 1280, 720)).toEqual({ x: 320, y: 0, w: 404, h: 720 });
    expect(cropPixels({ x: 0.999, y: 0.999, width: 0.001, height: 0.001 }, 641, 481)).toEqual({ x: 638, y: 478, w: 2, h: 2 });
    // Fractions made from whole pixels come back to the same even pixels despite floating point.
    expect(cropPixels({ x: 0, y: 0, width: 26 / 360, height: 26 / 360 }, 360, 360)).toMatchObject({ w: 26, h: 26 });
    const full = cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 1081, 1921);
    expect(full).toEqual({ x: 0, y: 0, w: 1080, h: 1920 });
    expect(() => cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 0, 720)).toThrow(/Invalid video dimensions/);
  });

  it.each([
    [{ x: -0.1, y: 0, width: 0.5, height: 0.5 }],
    [{ x: 0, y: 1.1, width: 0.5, height: 0.5 }],
    [{ x: 0, y: 0, width: 0, height: 0.5 }],
    [{ x: 0, y: 0, width: 0.5, height: 1.2 }],
    [{ x: 0.6, y: 0, width: 0.5, height: 0.5 }],
    [{ x: 0, y: 0.7, width: 0.5, height: 0.31 }],
    [{ x: '0', y: 0, width: 0.5, height: 0.5 }],
  ])('refuses the invalid area %j', (area) => {
    expect(ZCropArea.safeParse(area).success).toBe(false);
  });
});

describe('filter graphs', () => {
  it('scales and pads an answer into the frame unless it already has the frame size', () => {
    const style = { background: '#000000', color: '#ffffff', size: 36, fontFile: '/f.ttf' };
    const graph = (fits: boolean) => {
      const args = introArgs({ answer: 'a.mp4', output: 'o.mp4', width: 1280, height: 720, fits, style, lineFiles: [] });
      return args[args.indexOf('-filter_complex') + 1]!;
    };
    expect(graph(false)).toContain('[0:v]scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720');
    expect(graph(true)).not.toContain('scale=');
    expect(graph(true)).toContain('[0:v]setsar=1,fps=30');
  });
});

describe('user text in filters', () => {
  it('turns off drawtext expansion on every line of the card', () => {
    const chain = cardChain({ width: 640, height: 360, style: { background: '#000000', color: '#ffffff', size: 36, fontFile: '/f.ttf' }, lineFiles: ['/a.txt', '/b.txt'], label: 'c' });
    expect(chain.match(/drawtext=/g)).toHaveLength(2);
    expect(chain.match(/:expansion=none:/g)).toHaveLength(2);
  });

  it('keeps subtitle markup literal: braces, backslashes, tags and timing arrows', () => {
    const Z = '\u200b';
    expect(literalCueText('{\\fs80}big')).toBe(`\\{${Z}\\${Z}fs80\\}big`);
    expect(literalCueText('a \\N b <b>c</b> --> d')).toBe(`a \\${Z}N b <${Z}b>c<${Z}/b> --${Z}> d`);
    expect(literalCueText('50% of "us" aren\'t: 1/2')).toBe('50% of "us" aren\'t: 1/2');
    const srt = burnInSrt([{ start: 0, end: 1, text: 'x\n\n2\n00:00:01,000 --> 00:00:09,000 y' }]);
    expect(srt.match(/-->/g)).toHaveLength(1); // only the cue's own timing line
  });
});

describe('text wrapping', () => {
  it('wraps on words within the limit and cuts over-long words', () => {
    expect(wrapText('What did you like most about working with us?', 16)).toEqual(['What did you', 'like most about', 'working with us?']);
    expect(wrapText('Supercalifragilistic', 8)).toEqual(['Supercal', 'ifragili', 'stic']);
    expect(wrapText('  ', 10)).toEqual([]);
  });
});

describe('rendering with real ffmpeg', () => {
  let dir: string;
  let answer: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vr-render-'));
    answer = await makeClip({ format: 'mp4', seconds: 4, size: '640x360', tone: 500 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The RGB of one pixel of the frame at `seconds`. */
  async function pixel(file: string, seconds: number, x: number, y: number): Promise<[number, number, number]> {
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=2:2:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    return [stdout[0]!, stdout[1]!, stdout[2]!];
  }

  it('renders the card then the answer at the answer resolution, with sound, card colours and text', async () => {
    const lines = wrapText('Qu’est-ce qui vous a décidé ?', 22);
    const lineFiles = await Promise.all(lines.map(async (l, i) => {
      const f = path.join(dir, `line${i}.txt`);
      await writeFile(f, l);
      return f;
    }));
    const output = path.join(dir, 'intro.mp4');
    await runFfmpeg(introArgs({ answer, output, width: 640, height: 360, lineFiles, style: { background: '#1e3a8a', color: '#ffcc00', size: 48, fontFile: fontFile('Georgia', true) } }));
    const info = await probe(output);
    expect(info.video).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationSeconds - (CARD_SECONDS + 4))).toBeLessThan(0.25);

    const [r, g, b] = await pixel(output, 1, 10, 10);
    expect(Math.abs(r - 0x1e) + Math.abs(g - 0x3a) + Math.abs(b - 0x8a)).toBeLessThan(40);
    // Somewhere on the text's middle row, pixels take the question colour.
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', '1', '-i', output, '-frames:v', '1', '-vf', 'crop=640:40:0:160', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    let yellow = 0;
    for (let i = 0; i < stdout.length; i += 3) if (stdout[i]! > 200 && stdout[i + 1]! > 160 && stdout[i + 2]! < 90) yellow += 1;
    expect(yellow).toBeGreaterThan(50);
  }, 120_000);

  /** The text of a frame's region, read by tesseract from a 2× upscale (also saved under /tmp to look at). */
  async function ocr(file: string, seconds: number, crop: string, name: string): Promise<string> {
    const image = path.join(os.tmpdir(), `vr-ocr-${name}.png`);
    await run('ffmpeg', ['-v', 'error', '-y', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `crop=${crop},scale=iw*2:ih*2:flags=lanczos`, '-update', '1', image]);
    const { stdout } = await run('tesseract', [image, 'stdout', '--psm', '6']);
    return stdout;
  }

  it('draws user text literally: %{…}, a lone %, colons, backslashes and quotes on the card, markup in subtitles', async () => {
    // What a company can type as a question (drawtext used to expand %{localtime} into the server's
    // clock, and drop the whole "50% or more?" line while the render still finished).
    const lines = ['50% or more?', 'Clock: %{localtime} frame %{n}', `a:b \\ "quoted" 'single'`];
    const lineFiles = await Promise.all(lines.map(async (l, i) => {
      const f = path.join(dir, `literal${i}.txt`);
      await writeFile(f, l);
      return f;
    }));
    const srtFile = path.join(dir, 'literal.srt');
    await writeFile(srtFile, burnInSrt([{ start: 0.2, end: 3.8, text: '{hidden} 50% \\N <b>tag</b>' }]));
    const output = path.join(dir, 'literal.mp4');
    await runFfmpeg(
      introArgs({ answer, output, width: 1280, height: 720, lineFiles, style: { background: '#000000', color: '#ffffff', size: 30, fontFile: fontFile('Arial', false) }, subtitles: { srtFile, ...subtitleFont('Arial'), size: 30, color: '#ffffff', bold: false, border: true } }),
      { failOnErrors: 'filters' },
    );
    const card = await ocr(output, 1, '1280:300:0:210', 'card');
    expect(card).toContain('50% or more?');
    expect(card).toContain('%{localtime}');
    expect(card).toContain('%{n}');
    expect(card).toMatch(/a:b \\ "quoted" ['‘’]single['‘’]/); // tesseract reads plain single quotes as curly ones
    // No clock, no date and no frame number in place of the text.
    expect(card).not.toMatch(/\d{1,2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}/);
    expect(card).not.toMatch(/frame \d/);

    const subtitle = await ocr(output, CARD_SECONDS + 1.5, '1280:200:0:520', 'subtitle');
    expect(subtitle).toContain('{hidden} 50% \\N <b>tag</b>');
  }, 120_000);

  it('reports a render whose filter logs an error as failed, though ffmpeg exits with 0', async () => {
    // drawtext with expansion on: a lone % is logged as an error and the line is left out of the frame.
    const text = path.join(dir, 'stray.txt');
    await writeFile(text, '50% or more?');
    const args = ['-f', 'lavfi', '-i', `color=c=black:s=320x180:d=0.2,drawtext=fontfile=${fontFile('Arial', false)}:textfile=${text}:fontsize=20:fontcolor=white`, '-frames:v', '1', '-f', 'null', '-'];
    await expect(runFfmpeg(args)).resolves.toBeUndefined(); // what a plain run makes of it
    await expect(runFfmpeg(args, { failOnErrors: 'filters' })).rejects.toThrow(/Stray %/);
  }, 60_000);

  it('exports exactly 1080x1920 and 1920x1080, and merges segments by stream copy', async () => {
    const shorts = path.join(dir, 'shorts.mp4');
    await runFfmpeg(exportArgs({ input: answer, output: shorts, crop: cropPixels({ x: 0.34, y: 0, width: 0.316, height: 1 }, 640, 360), platform: 'shorts' }));
    expect((await probe(shorts)).video).toMatchObject({ width: 1080, height: 1920 });
    const wide = path.join(dir, 'wide.mp4');
    await runFfmpeg(exportArgs({ input: answer, output: wide, crop: cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 640, 360), platform: 'linkedin' }));
    const wideInfo = await probe(wide);
    expect(wideInfo.video).toMatchObject({ width: 1920, height: 1080 });
    expect(wideInfo.audio?.codec).toBe('aac');

    const segment = path.join(dir, 'seg.mp4');
    await runFfmpeg(introArgs({ answer, output: segment, width: 640, height: 360, lineFiles: [], style: { background: '#000000', color: '#ffffff', size: 36, fontFile: fontFile('Arial', false) } }));
    const list = path.join(dir, 'list.txt');
    await writeFile(list, [segment, segment, segment].map((s) => `file '${s}'`).join('\n'));
    const merged = path.join(dir, 'merged.mp4');
    await runFfmpeg(concatArgs({ listFile: list, output: merged }));
    const one = (await probe(segment)).durationSeconds;
    expect(Math.abs((await probe(merged)).durationSeconds - 3 * one)).toBeLessThan(0.3);
  }, 120_000);

  it('burns subtitles in: the subtitle band changes during a cue and not outside every cue', async () => {
    const srtFile = path.join(dir, 'cues.srt');
    await writeFile(srtFile, toSrt([{ start: 0.5, end: 2, text: 'Great team, great experience' }]));
    const output = path.join(dir, 'subtitled.mp4');
    await runFfmpeg(subtitledArgs({ answer, output, width: 640, height: 360, background: '#000000', subtitles: { srtFile, ...subtitleFont('Arial'), size: 28, color: '#ffff00', bold: true, border: true } }));
    const band = async (file: string, at: number) =>
      (await run('ffmpeg', ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-vf', 'crop=640:70:0:285', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { encoding: 'buffer' })).stdout;
    const diff = (a: Buffer, b: Buffer) => {
      let d = 0;
      for (let i = 0; i < Math.min(a.length, b.length); i++) d += Math.abs(a[i]! - b[i]!);
      return d / a.length;
    };
    const during = diff(await band(output, 1.2), await band(answer, 1.2));
    const outside = diff(await band(output, 3.2), await band(answer, 3.2));
    expect(during).toBeGreaterThan(outside * 3);
    expect(during).toBeGreaterThan(3);
  }, 120_000);
});
