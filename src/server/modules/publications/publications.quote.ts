import { and, eq, isNull } from 'drizzle-orm';
import type { TSetQuoteResponse } from '../../../contract/api/publications.schema.js';
import type { AppContext } from '../../context.js';
import { publications } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { captionsOf } from './publications.service.js';

/**
 * A publication's quote (issue 19): a sentence or two of what the customer said, picked by the company
 * from the published video's transcript. It must be the customer's words: the server checks that it is
 * found in that transcript, so a company cannot put words in the customer's mouth (decision 146).
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

/** Sets (or, with null, removes) the quote of one of the company's live publications. */
export async function setQuote(ctx: AppContext, input: { companyId: string; id: string; quote: string | null }): Promise<TSetQuoteResponse> {
  const [row] = await ctx.db
    .select({ captionParts: publications.captionParts })
    .from(publications)
    .where(and(eq(publications.id, input.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)));
  if (!row) throw new AppError('not_found', { message: 'This publication does not exist or was taken down.' });
  const quote = input.quote?.replace(/\s+/g, ' ').trim() || null;
  if (quote !== null && !isQuoteOf(quote, (await captionsOf(ctx, row)).paragraphs)) {
    throw new AppError('invalid_data', { reason: 'quote_not_in_transcript', field: 'quote' });
  }
  await ctx.db
    .update(publications)
    .set({ quote })
    .where(and(eq(publications.id, input.id), eq(publications.companyId, input.companyId), isNull(publications.unpublishedAt)));
  return { quote };
}
