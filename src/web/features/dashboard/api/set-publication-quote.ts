import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import { ZSetQuoteResponse } from '../../../../contract/api/publications.schema.js';
import type { TSetQuoteResponse } from '../../../../contract/api/publications.schema.js';
import { apiFetch } from '../../../lib/api-client';
import { publicationKeys } from './list-publications';

/**
 * PUT /api/publications/{id}/quote { quote } → 200 { quote }: words of the published video's transcript
 * shown beside it (null removes the quote). Words the customer did not say are refused (400,
 * reason quote_not_in_transcript).
 */
export function setPublicationQuote(id: string, quote: string | null): Promise<TSetQuoteResponse> {
  return apiFetch(API.publications.quote.path(id), { method: API.publications.quote.method, body: { quote }, schema: ZSetQuoteResponse });
}

/** Sets the quote, then reads the list again before it settles. */
export function useSetPublicationQuoteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, quote }: { id: string; quote: string | null }) => setPublicationQuote(id, quote),
    onSettled: () => queryClient.invalidateQueries({ queryKey: publicationKeys.all }),
  });
}
