import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cuesInKept,
  keptPart,
  normalisedTrim,
  trimProblem,
} from "../../contract/trim.js";
import { createMediaTools } from "./ffmpeg.js";
import { fontFile } from "./fonts.js";
import {
  composeArgs,
  cropPixels,
  exportArgs,
  trimInputArgs,
  type CardStyle,
  type Frame,
} from "./render.js";

/**
 * Trims (issue 31, decision 201), rendered with real ffmpeg: the clip's picture says its frame number
 * (its grey level is 16 + 3 × frame) and its sound is silent until a tone starts at exactly 1.0 s, so
 * the first frame of an output and the instant its sound starts say where the cut fell, to the frame.
 */

const run = promisify(execFile);
const { probe, runFfmpeg } = createMediaTools({ ffmpegConcurrency: 2 });
const FRAME = 1 / 30;
const style: CardStyle = {
  background: "#000000",
  color: "#ffffff",
  size: 36,
  face: { font: "Arial", bold: false },
  fontFile: fontFile("Arial", false),
};

describe("the rules of a trim", () => {
  it("refuses a trim outside the answer, too short, or of an answer not prepared, and stores untouched sides as null", () => {
    expect(trimProblem({ start: 1, end: 3 }, 5)).toBeNull();
    expect(trimProblem({ start: null, end: null }, 5)).toBeNull();
    expect(trimProblem({ start: 1, end: 2.5 }, null)?.reason).toBe(
      "trim_not_ready",
    );
    expect(trimProblem({ start: 5, end: null }, 5)).toMatchObject({
      reason: "trim_start_outside",
      field: "start",
      params: { duration: "0:05.0" },
    });
    expect(trimProblem({ start: null, end: 6 }, 5)).toMatchObject({
      reason: "trim_end_outside",
      field: "end",
    });
    expect(trimProblem({ start: 2, end: 2.9 }, 5)).toMatchObject({
      reason: "trim_too_short",
      field: "end",
      params: { seconds: 1 },
    });
    expect(trimProblem({ start: 3, end: 2 }, 5)?.reason).toBe("trim_too_short");
    expect(trimProblem({ start: 4.2, end: null }, 5)?.reason).toBe(
      "trim_too_short",
    );
    expect(normalisedTrim({ start: 0, end: 4.98 }, 5)).toEqual({
      start: null,
      end: null,
    });
    expect(normalisedTrim({ start: 1 / 3, end: 4 }, 5)).toEqual({
      start: 0.333,
      end: 4,
    });
    expect(keptPart({ start: null, end: null }, 5, 33)).toBeNull();
    expect(keptPart({ start: 1, end: null }, 5, 33)).toEqual({
      start: 1,
      end: 5,
    });
  });

  it("shifts subtitles to the kept part, clipping those across a cut and leaving out those outside", () => {
    const cues = [
      { start: 0, end: 0.9, text: "before" },
      { start: 0.5, end: 1.5, text: "across the start" },
      { start: 2, end: 3, text: "inside" },
      { start: 3.5, end: 4.5, text: "across the end" },
      { start: 4.5, end: 5, text: "after" },
    ];
    expect(cuesInKept(cues, { start: 1, end: 4 })).toEqual([
      { start: 0, end: 0.5, text: "across the start" },
      { start: 1, end: 2, text: "inside" },
      { start: 2.5, end: 3, text: "across the end" },
    ]);
    expect(cuesInKept(cues, null)).toEqual(cues);
  });

  it("moves the words of word-by-word captions with their line, a word said in the cut part lasting no time", () => {
    const across = {
      start: 0.5,
      end: 1.5,
      text: "across the start",
      words: [
        { start: 0.5, end: 0.8, text: "across" },
        { start: 0.8, end: 1.1, text: "the" },
        { start: 1.1, end: 1.5, text: "start" },
      ],
    };
    expect(cuesInKept([across], { start: 1, end: 4 })).toEqual([
      {
        start: 0,
        end: 0.5,
        text: "across the start",
        words: [
          { start: 0, end: 0, text: "across" },
          { start: 0, end: expect.closeTo(0.1, 6), text: "the" },
          { start: expect.closeTo(0.1, 6), end: 0.5, text: "start" },
        ],
      },
    ]);
  });

  it("reads only the kept part by input seeking, replacing the input limit", () => {
    expect(trimInputArgs(undefined)).toEqual([]);
    expect(trimInputArgs({ start: 0, end: 2.5 })).toEqual(["-t", "2.5"]);
    const args = composeArgs({
      output: "o.mp4",
      frame: { width: 640, height: 360, kind: "answer" },
      style,
      segments: [
        {
          answer: "a.mp4",
          source: { width: 640, height: 360 },
          trim: { start: 1.5, end: 3.25 },
        },
      ],
    });
    const input = args.indexOf("a.mp4");
    expect(args.slice(input - 5, input)).toEqual([
      "-ss",
      "1.5",
      "-t",
      "1.75",
      "-i",
    ]);
  });
});

describe("trimmed renders with real ffmpeg", () => {
  let dir: string;
  let clip: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "vr-trim-"));
    clip = path.join(dir, "ramp.mp4");
    // 2.5 s at 30 fps, keyframes every 2 s (as a phone's), grey = 16 + 3 × frame; a tone from 1.0 s.
    await run("ffmpeg", [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      "color=c=black:s=320x180:r=30:d=2.5,format=gray,geq=lum='16+3*N',format=yuv420p",
      "-f",
      "lavfi",
      "-i",
      "aevalsrc='if(gte(t,1),0.5*sin(2*PI*440*t),0)':s=48000:d=2.5",
      "-c:v",
      "libx264",
      "-g",
      "60",
      "-crf",
      "12",
      "-c:a",
      "aac",
      "-shortest",
      clip,
    ]);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The mean grey of the frame at `seconds` (the clip's frame number there: (grey − 16) / 3). */
  async function frameNumber(file: string, seconds: number): Promise<number> {
    const { stdout } = await run(
      "ffmpeg",
      [
        "-v",
        "error",
        "-ss",
        String(seconds),
        "-i",
        file,
        "-frames:v",
        "1",
        "-vf",
        "crop=64:64:0:0,format=gray",
        "-f",
        "rawvideo",
        "pipe:1",
      ],
      { encoding: "buffer" },
    );
    let sum = 0;
    for (const v of stdout) sum += v;
    return (sum / stdout.length - 16) / 3;
  }

  /** When the output's sound starts (the end of its leading silence), in seconds. */
  async function soundStart(file: string): Promise<number> {
    const { stderr } = await run("ffmpeg", [
      "-v",
      "info",
      "-i",
      file,
      "-vn",
      "-af",
      "silencedetect=n=-40dB:d=0.1",
      "-f",
      "null",
      "-",
    ]);
    const end = /silence_end: ([\d.]+)/.exec(stderr);
    return end ? Number(end[1]) : 0;
  }

  /** Picture and sound of the output, from ffprobe: each stream's start and length. */
  async function streams(file: string) {
    const { stdout } = await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "stream=codec_type,start_time,duration",
      "-of",
      "json",
      file,
    ]);
    const list = (
      JSON.parse(stdout) as {
        streams: { codec_type: string; start_time: string; duration: string }[];
      }
    ).streams;
    const of = (type: string) => list.find((s) => s.codec_type === type)!;
    return {
      video: {
        start: Number(of("video").start_time),
        duration: Number(of("video").duration),
      },
      audio: {
        start: Number(of("audio").start_time),
        duration: Number(of("audio").duration),
      },
    };
  }

  it("composes the kept part only: its length, the frame at the start first, the sound in sync within a frame", async () => {
    const frame: Frame = { width: 320, height: 180, kind: "answer" };
    const output = path.join(dir, "composed.mp4");
    // From frame 15 (0.5 s) to 1.7 s: the tone starts 0.5 s into the output, on frame 15 of the output (frame 30 of the clip).
    await runFfmpeg(
      composeArgs({
        output,
        frame,
        style,
        segments: [
          {
            answer: clip,
            source: { width: 320, height: 180 },
            trim: { start: 0.5, end: 1.7 },
          },
        ],
      }),
      { failOnErrors: "filters" },
    );
    const info = await probe(output);
    expect(Math.abs(info.durationSeconds - 1.2)).toBeLessThan(FRAME * 1.5);
    expect(await frameNumber(output, 0)).toBeCloseTo(15, 0);
    expect(await frameNumber(output, 0.5)).toBeCloseTo(30, 0);
    expect(Math.abs((await soundStart(output)) - 0.5)).toBeLessThan(FRAME);
    const s = await streams(output);
    expect(Math.abs(s.video.start - s.audio.start)).toBeLessThan(FRAME);
    expect(Math.abs(s.video.duration - s.audio.duration)).toBeLessThan(FRAME);
    expect(Math.abs(s.video.duration - 1.2)).toBeLessThan(FRAME * 1.5);
  }, 60_000);

  it("cuts an answer's original export the same way, the sound encoded again from the cut", async () => {
    const output = path.join(dir, "export.mp4");
    await runFfmpeg(
      exportArgs({
        input: clip,
        output,
        source: { width: 320, height: 180 },
        crop: cropPixels({ x: 0, y: 0, width: 1, height: 1 }, 320, 180),
        platform: "linkedin",
        trim: { start: 0.7, end: 2.2 },
      }),
    );
    const info = await probe(output);
    expect(info.video).toMatchObject({ width: 1920, height: 1080 });
    expect(Math.abs(info.durationSeconds - 1.5)).toBeLessThan(FRAME * 1.5);
    expect(await frameNumber(output, 0)).toBeCloseTo(21, 0);
    expect(Math.abs((await soundStart(output)) - 0.3)).toBeLessThan(FRAME);
    const s = await streams(output);
    expect(Math.abs(s.video.start - s.audio.start)).toBeLessThan(FRAME);
    expect(Math.abs(s.video.duration - s.audio.duration)).toBeLessThan(FRAME);
  }, 60_000);
});
