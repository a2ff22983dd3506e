import { describe, expect, it } from 'vitest';
import { CUE_LIMITS, cueLines, groupCues, parseSrt, parseTxt, shortTime, srtTime, toJson, toSrt, toTxt, type Cue } from './subtitles.js';

const words = (text: string, start = 0, step = 0.35): Cue[] =>
  text.split(' ').map((w, i) => ({ start: start + i * step, end: start + i * step + step * 0.9, text: w }));

describe('cue grouping', () => {
  it('keeps every cue within 2 lines of 42 characters, 1 to 6 s, ordered, without overlap, inside the clip', () => {
    const input = words('Working with this team was a great experience. I recommend them to everyone who needs a website that actually brings in customers every single week of the year.');
    const duration = 12;
    const cues = groupCues(input, duration);
    expect(cues.length).toBeGreaterThan(1);
    for (const [i, c] of cues.entries()) {
      expect(cueLines(c.text).length).toBeLessThanOrEqual(CUE_LIMITS.lines);
      for (const line of cueLines(c.text)) expect(line.length).toBeLessThanOrEqual(CUE_LIMITS.lineChars);
      expect(c.end - c.start).toBeLessThanOrEqual(CUE_LIMITS.maxSeconds + 1e-9);
      expect(c.start).toBeGreaterThanOrEqual(0);
      expect(c.end).toBeLessThanOrEqual(duration);
      if (i > 0) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1]!.end);
      if (i < cues.length - 1) expect(c.end - c.start).toBeGreaterThanOrEqual(CUE_LIMITS.minSeconds - 1e-9);
    }
    expect(cues.map((c) => c.text).join(' ')).toBe(input.map((w) => w.text).join(' '));
    // A sentence end closes a cue.
    expect(cues[0]!.text.endsWith('experience.')).toBe(true);
  });

  it('cuts one long engine segment into pieces that fit, and clamps to the clip', () => {
    const cues = groupCues([{ start: 0, end: 14, text: 'a '.repeat(120).trim() }], 10);
    expect(cues.every((c) => c.text.length <= 84 && c.end <= 10)).toBe(true);
  });
});

describe('subtitle files', () => {
  const cues: Cue[] = [
    { start: 0.5, end: 2.25, text: 'Working with this team was a great experience.' },
    { start: 3661.007, end: 3662.5, text: "Je les recommande à tout le monde, c'est sûr !" },
  ];

  it('formats times as the spec says', () => {
    expect(srtTime(3661.007)).toBe('01:01:01,007');
    expect(shortTime(75.5)).toBe('01:15.500');
  });

  it('round-trips SRT, TXT and JSON', () => {
    const srt = toSrt(cues);
    expect(srt).toContain('1\n00:00:00,500 --> 00:00:02,250\nWorking with this team was a great\nexperience.\n');
    expect(parseSrt(srt)).toEqual(cues);
    expect(parseTxt(toTxt(cues))).toEqual(cues);
    expect(JSON.parse(toJson(cues))).toEqual(cues);
  });
});
