import type { TResponseTranscription, TTranscription } from '../../../../contract/api/transcription.schema.js';
import { cueWords, toJson, toSrt, toTxt } from '../../../../contract/subtitles.js';

/**
 * The review's downloads (spec §2, §9: .txt, .json and .srt; text times mm:ss.ms, SRT times
 * hh:mm:ss,ms), built in the browser from the edited cues with the contract's writers, so a download
 * is exactly what would be burned in.
 */

export type TranscriptFormat = 'txt' | 'json' | 'srt';

export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['txt', 'json', 'srt'];

export const TRANSCRIPT_MIME: Record<TranscriptFormat, string> = {
  txt: 'text/plain;charset=utf-8',
  json: 'application/json;charset=utf-8',
  srt: 'application/x-subrip;charset=utf-8',
};

/**
 * The cues worth writing or burning in: text trimmed, cues left empty by an edit dropped (an empty
 * cue would end an SRT block early and show nothing anyway).
 */
export function publishableCues(cues: TTranscription): TTranscription {
  return cues
    .map((cue) => {
      const clean = { ...cue, text: cue.text.replace(/\s+/g, ' ').trim() };
      // Issue 31: a cue's words always spell its text inside its time (an edited one re-timed by characters).
      return clean.words ? { ...clean, words: cueWords(clean) } : clean;
    })
    .filter((cue) => cue.text.length > 0);
}

/** One answer's file in the given format. */
export function transcriptFile(cues: TTranscription, format: TranscriptFormat): string {
  const clean = publishableCues(cues);
  if (format === 'srt') return toSrt(clean);
  if (format === 'json') return `${toJson(clean)}\n`;
  return toTxt(clean);
}

/** The answers of the merged review, in their order. */
function inOrder(items: readonly TResponseTranscription[]): TResponseTranscription[] {
  return [...items].sort((a, b) => a.orderPosition - b.orderPosition);
}

/**
 * Every answer as a section of text: its position and question, then its cues (times relative to the
 * start of that answer), or the reason it could not be transcribed.
 */
export function mergedTxt(items: readonly TResponseTranscription[], labels: { noSpeech: string; failed: string }): string {
  return inOrder(items)
    .map((item) => {
      const heading = `${item.orderPosition}. ${item.questionText.trim()}`;
      const cues = publishableCues(item.transcription);
      const body = item.error ? `(${labels.failed}: ${item.error})\n` : cues.length ? toTxt(cues) : `(${labels.noSpeech})\n`;
      return `${heading}\n${'='.repeat(Math.min(heading.length, 60))}\n${body}`;
    })
    .join('\n');
}

/** Every answer with its edited cues, in the shape of the contract's per-response transcription. */
export function mergedJson(items: readonly TResponseTranscription[]): string {
  const out = inOrder(items).map((item) => ({
    responseId: item.responseId,
    questionText: item.questionText,
    orderPosition: item.orderPosition,
    transcription: publishableCues(item.transcription),
    error: item.error,
  }));
  return `${JSON.stringify(out, null, 2)}\n`;
}

/**
 * A file name from readable parts: accents and punctuation dropped, words joined by dashes, at most
 * 80 characters before the extension ('transcription-claire-dubois-what-did-you-like.srt').
 */
export function transcriptFileName(parts: readonly (string | null | undefined)[], format: TranscriptFormat): string {
  const slug = parts
    .filter((part): part is string => Boolean(part && part.trim()))
    .join(' ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return `${slug || 'transcription'}.${format}`;
}

/** Saves text as a file through a temporary object URL (the browser's download). */
export function saveTextFile(content: string, fileName: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after the click returns: it is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
