import { describe, expect, it } from 'vitest';
import { ZResponseTranscriptions, ZTranscription } from '../../../../contract/api/transcription.schema.js';
import type { TResponseTranscriptions } from '../../../../contract/api/transcription.schema.js';
import { parseSrt, parseTxt, proportionalWords } from '../../../../contract/subtitles.js';
import { mergedJson, mergedTxt, publishableCues, transcriptFile, transcriptFileName } from './transcription-files';

const CUES = [
  { start: 0.48, end: 2.9, text: 'Working with this team was a great' },
  { start: 2.9, end: 4.25, text: '  ' },
  { start: 4.25, end: 7.105, text: 'experience.   I recommend them to everyone, they answered every question we had in minutes.' },
  { start: 3725.5, end: 3727, text: 'Still talking after an hour' },
];

describe('transcript files', () => {
  it('drops cues left empty by an edit and tidies spaces', () => {
    expect(publishableCues(CUES).map((c) => c.text)).toEqual([
      'Working with this team was a great',
      'experience. I recommend them to everyone, they answered every question we had in minutes.',
      'Still talking after an hour',
    ]);
  });

  it('keeps the words of a cue that still spell it, and re-times by characters those of an edited cue (issue 31)', () => {
    const words = [{ start: 0.5, end: 0.9, text: 'Great' }, { start: 1, end: 1.4, text: 'team' }];
    const [kept, edited] = publishableCues([
      { start: 0.5, end: 1.5, text: 'Great  team ', words },
      { start: 2, end: 3, text: 'Great people', words },
    ]);
    expect(kept!.words).toEqual(words);
    expect(edited!.words).toEqual(proportionalWords({ start: 2, end: 3, text: 'Great people' }));
  });

  it('writes SRT with hh:mm:ss,ms times and cue lines of at most 42 characters, which reads back the same', () => {
    const srt = transcriptFile(CUES, 'srt');
    expect(srt).toContain('1\n00:00:00,480 --> 00:00:02,900\nWorking with this team was a great\n');
    expect(srt).toContain('3\n01:02:05,500 --> 01:02:07,000\n');
    const blocks = srt.trim().split('\n\n');
    expect(blocks).toHaveLength(3);
    for (const block of blocks) for (const line of block.split('\n').slice(2)) expect(line.length).toBeLessThanOrEqual(42);
    expect(parseSrt(srt)).toEqual(publishableCues(CUES));
  });

  it('writes text with mm:ss.ms times, which reads back the same', () => {
    const txt = transcriptFile(CUES, 'txt');
    expect(txt.split('\n')[0]).toBe('[00:00.480 - 00:02.900] Working with this team was a great');
    expect(parseTxt(txt).slice(0, 2)).toEqual(publishableCues(CUES).slice(0, 2));
  });

  it('writes JSON that the contract accepts as a transcription', () => {
    const json = transcriptFile(CUES, 'json');
    expect(ZTranscription.parse(JSON.parse(json))).toEqual(publishableCues(CUES));
  });

  it('writes nothing but an empty list when there are no cues', () => {
    expect(transcriptFile([], 'srt')).toBe('');
    expect(transcriptFile([], 'txt')).toBe('');
    expect(JSON.parse(transcriptFile([{ start: 0, end: 1, text: ' ' }], 'json'))).toEqual([]);
  });
});

describe('merged transcript files', () => {
  const ITEMS: TResponseTranscriptions = [
    {
      responseId: '1e2d3c4b-5a69-4877-8a9b-0c1d2e3f4a5b',
      questionText: 'Would you recommend us?',
      orderPosition: 2,
      transcription: [{ start: 0.5, end: 2, text: 'Yes, to everyone.' }],
      error: null,
    },
    {
      responseId: '7b0c1c3e-4a57-4c1e-9d8e-2f1a6b7c8d90',
      questionText: 'What did you like?',
      orderPosition: 1,
      transcription: [{ start: 0.25, end: 1.5, text: 'The support.' }, { start: 1.5, end: 2, text: '' }],
      error: null,
    },
    {
      responseId: '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
      questionText: 'Anything else?',
      orderPosition: 3,
      transcription: [],
      error: 'The audio could not be read',
    },
  ];
  const labels = { noSpeech: 'no speech found', failed: 'not transcribed' };

  it('writes one text section per answer, in order, with the reason an answer failed', () => {
    const txt = mergedTxt(ITEMS, labels);
    const sections = txt.split('\n\n');
    expect(sections).toHaveLength(3);
    expect(sections[0]).toBe('1. What did you like?\n=====================\n[00:00.250 - 00:01.500] The support.');
    expect(sections[1]).toContain('2. Would you recommend us?\n');
    expect(sections[1]).toContain('[00:00.500 - 00:02.000] Yes, to everyone.');
    expect(sections[2]).toBe('3. Anything else?\n=================\n(not transcribed: The audio could not be read)\n');
    const empty = mergedTxt([{ ...ITEMS[1]!, transcription: [] }], labels);
    expect(empty).toContain('(no speech found)');
  });

  it('writes JSON in the contract shape of per-response transcriptions, edited cues only', () => {
    const parsed = ZResponseTranscriptions.parse(JSON.parse(mergedJson(ITEMS)));
    expect(parsed.map((item) => item.orderPosition)).toEqual([1, 2, 3]);
    expect(parsed[0]!.transcription).toEqual([{ start: 0.25, end: 1.5, text: 'The support.' }]);
    expect(parsed[2]!.error).toBe('The audio could not be read');
  });
});

describe('transcript file names', () => {
  it('joins readable parts without accents or punctuation', () => {
    expect(transcriptFileName(['transcription', 'Claire Dubois', 'What did you like most?'], 'srt')).toBe(
      'transcription-claire-dubois-what-did-you-like-most.srt',
    );
    expect(transcriptFileName(['transcription', 'Hélène Çelik', 'Qu’avez-vous préféré ?'], 'txt')).toBe(
      'transcription-helene-celik-qu-avez-vous-prefere.txt',
    );
  });

  it('skips missing parts, stays short, never ends with a dash, and always has a name', () => {
    expect(transcriptFileName(['transcription', undefined, '', null, 'Q'], 'json')).toBe('transcription-q.json');
    const long = transcriptFileName(['transcription', 'a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)], 'srt');
    expect(long.length).toBeLessThanOrEqual(84);
    expect(long).not.toMatch(/-\.srt$/);
    expect(transcriptFileName(['???'], 'srt')).toBe('transcription.srt');
  });
});
