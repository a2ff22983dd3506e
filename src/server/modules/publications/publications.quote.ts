import { and, eq, isNull } from 'drizzle-orm';
import type { TSetQuoteResponse } from '../../../contract/api/publications.schema.js';
import type { AppContext } from '../../context.js';
import { publications, type PublicationCaptionPart, type TranscriptionSegment } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { assertPublicationUsable, paragraphOf, partTranscripts } from './publications.service.js';

/**
 * A publication's quote (issue 19): a sentence or two of what the customer said, picked by the company
 * from the published video's transcript. The server checks that it is found in that transcript, so a
 * company cannot put words in the customer's mouth (decision 146). The transcript can be edited by the
 * company, so a quote found only in the edited words, not in the engine's, is kept as edited and the
 * share page says so (decision 154).
 */

/** Text as compared: spaces and line breaks collapsed, quotation marks and an ellipsis at either end dropped, case ignored. */
export function quoteForm(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'«»“”‘’„…]+|[\s"'«»“”‘’„…]+$/g, '')
    .toLocaleLowerCase();
}

/** Whether `quote` is found in the transcript's paragraphs (a selection may run across two of them). */
export function isQuoteOf(quote: string, paragraphs: string[]): boolean {
  const wanted = quoteForm(quote);
  return wanted.length > 0 && quoteForm(paragraphs.join(' ')).includes(wanted);
}

/**
 * Text as words: case, punctuation and symbols ignored (an engine writes none, a company adds them).
 * Whether a quote is what the engine heard is a question of words, not of their punctuation.
 */
export function wordsForm(text: string): string {
  return text
    .normalize('NFKC')
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether the quote's words are found, whole words, in the paragraphs' words. */
export function isSaidIn(quote: string, paragraphs: string[]): boolean {
  const wanted = wordsForm(quote);
  return wanted.length > 0 && ` ${wordsForm(paragraphs.join(' '))} `.includes(` ${wanted} `);
}

/**
 * The engine's own words of a stored transcription: kept apart from the edits since migration 0018, or
 * its segments when it was never edited; null when they are not known (cues the company wrote itself, or
 * a transcript edited before the engine's words were kept).
 */
export function engineWords(row: { segments: TranscriptionSegment[]; originalSegments: TranscriptionSegment[] | null; edited: boolean }): TranscriptionSegment[] | null {
  return row.originalSegments ?? (row.edited ? null : row.segments);
}

/**
 * The published video's transcript as a quote is checked against: `shown`, one paragraph per answer as
 * the page shows it (edited), and `said`, the engine's words in runs of consecutive answers whose words
 * are known (a quote across two answers is the customer's only where the words of both are known).
 */
export async function quoteSources(ctx: AppContext, captionParts: PublicationCaptionPart[]): Promise<{ shown: string[]; said: string[][] }> {
  const shown: string[] = [];
  const said: string[][] = [[]];
  for (const { transcript: row } of await partTranscripts(ctx, captionParts)) {
    const paragraph = paragraphOf(row.segments);
    if (paragraph) shown.push(paragraph);
    const words = engineWords(row);
    if (words === null) said.push([]);
    else if (paragraphOf(words)) said.at(-1)!.push(paragraphOf(words));
  }
  return { shown, said: said.filter((run) => run.length > 0) };
}

/**
 * Whether a quote is the customer's words ('said': its words, whole and in order, are found in the
 * engine's words, even where the company's edits changed them; case and punctuation aside), found only
 * in the transcript as edited ('edited'), or in neither (null: refused).
 */
export function quoteWords(quote: string, sources: { shown: string[]; said: string[][] }): 'said' | 'edited' | null {
  if (sources.said.some((run) => isSaidIn(quote, run))) return 'said';
  return isQuoteOf(quote, sources.shown) ? 'edited' : null;
}

/** Sets (or, with null, removes) the quote of one of the company's live publications. */
export async function setQuote(ctx: AppContext, input: { companyId: string; id: string; quote: string | null }): Promise<TSetQuoteResponse> {
  const [row] = await ctx.db
    .select({ captionParts: publications.captionParts })
    .from(publications)
    .where(and(eq(publications.id, input.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)));
  if (!row) throw new AppError('not_found', { message: 'This publication does not exist or was taken down.' });
  await assertPublicationUsable(ctx.db, input.companyId, [input.id]);
  const quote = input.quote?.replace(/\s+/g, ' ').trim() || null;
  const words = quote === null ? 'said' : quoteWords(quote, await quoteSources(ctx, row.captionParts));
  if (words === null) throw new AppError('invalid_data', { reason: 'quote_not_in_transcript', field: 'quote' });
  const quoteEdited = quote !== null && words === 'edited';
  await ctx.db
    .update(publications)
    .set({ quote, quoteEdited })
    .where(and(eq(publications.id, input.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)));
  return { quote, quoteEdited };
}
