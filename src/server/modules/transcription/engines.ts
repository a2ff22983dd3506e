import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Cue } from '../../../contract/subtitles.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { pocketsphinxArgs } from './pocketsphinx.js';

const run = promisify(execFile);

/** One interface, two real engines: the offline default and any OpenAI-compatible endpoint. */
export interface TranscriptionEngine {
  name: string;
  languages: readonly ('en' | 'fr')[];
  /** Timed words or segments of a 16 kHz mono WAV file. */
  transcribe(wavFile: string, language: 'en' | 'fr'): Promise<Cue[]>;
}

/** Debian's pocketsphinx with its US English model: offline, no account, word times. English only. */
export function pocketsphinxEngine(binary: string): TranscriptionEngine {
  return {
    name: 'pocketsphinx (offline, English)',
    languages: ['en'],
    async transcribe(wavFile) {
      const { stdout } = await run(binary, pocketsphinxArgs(wavFile), { maxBuffer: 8 * 1024 * 1024, timeout: 5 * 60_000 });
      const words: Cue[] = [];
      for (const line of stdout.split('\n')) {
        const m = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\d+\.\d+)$/.exec(line.trim());
        if (!m) continue;
        const word = m[1]!.replace(/\(\d+\)$/, '');
        if (/^<.*>$|^\[.*\]$/.test(word)) continue; // <s>, </s>, <sil>, [NOISE]
        words.push({ start: Number(m[2]), end: Number(m[3]), text: word === 'i' ? 'I' : word });
      }
      return words;
    },
  };
}

interface VerboseJson {
  text?: string;
  segments?: { start: number; end: number; text: string }[];
  /** With `timestamp_granularities[]=word` (issue 31). */
  words?: { start: number; end: number; word: string }[];
}

/**
 * An OpenAI-compatible `POST {url}/audio/transcriptions` with `verbose_json`, asking for word and
 * segment times (English and French). Its words, when it gives them, are what is grouped (word-by-word
 * captions highlight them); otherwise its segments.
 */
export function openAiEngine(o: { url: string; apiKey: string | undefined; model: string }): TranscriptionEngine {
  return {
    name: `openai-compatible (${o.model})`,
    languages: ['en', 'fr'],
    async transcribe(wavFile, language) {
      const form = new FormData();
      form.append('file', new Blob([await readFile(wavFile)], { type: 'audio/wav' }), 'answer.wav');
      form.append('model', o.model);
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'word');
      form.append('timestamp_granularities[]', 'segment');
      form.append('language', language);
      const res = await fetch(`${o.url}/audio/transcriptions`, {
        method: 'POST',
        headers: o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {},
        body: form,
        signal: AbortSignal.timeout(5 * 60_000),
      });
      if (!res.ok) throw new Error(`transcription service answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const json = (await res.json()) as VerboseJson;
      const words = (json.words ?? []).filter((w) => Number.isFinite(w.start) && Number.isFinite(w.end) && w.word.trim());
      if (words.length) return words.map((w) => ({ start: w.start, end: Math.max(w.start, w.end), text: w.word.trim() }));
      return (json.segments ?? []).map((s) => ({ start: s.start, end: s.end, text: s.text.trim() }));
    },
  };
}

export function engineFor(config: Pick<Config, 'transcribe'>): TranscriptionEngine {
  const t = config.transcribe;
  return t.url ? openAiEngine({ url: t.url, apiKey: t.apiKey, model: t.model }) : pocketsphinxEngine(t.pocketsphinxPath);
}

/** What the operator can do about a language no engine knows (logged, and in docs/deployment.md; never shown to a business). */
export function operatorHint(engine: TranscriptionEngine, language: 'en' | 'fr'): string {
  return `${engine.name} cannot transcribe '${language}': set TRANSCRIBE_URL (and TRANSCRIBE_API_KEY, TRANSCRIBE_MODEL) to an OpenAI-compatible transcription service to transcribe it. Until then the business is offered to type the subtitles.`;
}

/**
 * Refuses (422, reason `transcription_language_not_set_up`) a language the engine does not know: the
 * business is told in its language and offered to type the subtitles (decision 167).
 */
export function assertLanguage(engine: TranscriptionEngine, language: 'en' | 'fr'): void {
  if (!engine.languages.includes(language)) {
    throw new AppError('invalid_data', { status: 422, reason: 'transcription_language_not_set_up', params: { language } });
  }
}
