import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QUOTE_MAX_LENGTH, type TPublication } from '../../../../contract/api/publications.schema.js';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { apiErrorMessage } from '../../../lib/api-error-message';
import { useSetPublicationQuoteMutation } from '../api/set-publication-quote';

/** Text of a selection as it will be saved: spaces and line breaks collapsed. */
export const selectionText = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The quote of a publication (issue 19): the company selects a sentence or two in the published video's
 * transcript and keeps it as the quote shown beside the video (share page, wall, link previews). The
 * last selection made inside the transcript is kept until it is used, so that pressing the button
 * (which may clear the page's selection) still uses it. A quote whose words are not what the engine
 * heard (the company corrected them) is labelled on the video's page, and the section says so (decision
 * 154). Test ids: `quote-section`, `quote-current`, `quote-edited`, `quote-remove`, `quote-transcript`,
 * `quote-selection`, `quote-use`, `quote-error`, `quote-none`.
 */
export function PublicationQuote({ publication }: { publication: TPublication }) {
  const { t } = useTranslation();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState('');
  const save = useSetPublicationQuoteMutation();

  useEffect(() => {
    const onChange = () => {
      const selection = document.getSelection();
      const root = box.current;
      if (!selection || !root || selection.isCollapsed) return;
      if (!root.contains(selection.anchorNode) || !root.contains(selection.focusNode)) return;
      setSelected(selectionText(selection.toString()));
    };
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, []);

  const tooLong = selected.length > QUOTE_MAX_LENGTH;
  const use = (quote: string | null) =>
    save.mutate(
      { id: publication.id, quote },
      {
        onSuccess: () => {
          setSelected('');
          document.getSelection()?.removeAllRanges();
        },
      },
    );

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2 border-t border-gray-200 pt-4" data-testid="quote-section">
      <h3 id={`${id}-title`} className="text-sm font-medium text-gray-900">
        {t('testimonialDetail.publish.quote.title')}
      </h3>
      {publication.quote ? (
        <figure className="flex flex-col gap-2 rounded-control bg-brand-50 px-4 py-3 ring-1 ring-brand-200 sm:flex-row sm:items-start sm:justify-between">
          <blockquote className="text-sm font-medium text-gray-900" data-testid="quote-current">
            {t('testimonialDetail.publish.quote.quoted', { quote: publication.quote })}
          </blockquote>
          <Button size="sm" variant="ghost" className="shrink-0 self-start" onClick={() => use(null)} disabled={save.isPending} data-testid="quote-remove">
            {t('testimonialDetail.publish.quote.remove')}
          </Button>
        </figure>
      ) : null}
      {publication.quote && publication.quoteEdited ? (
        <p className="text-xs text-gray-600" data-testid="quote-edited">
          {t('testimonialDetail.publish.quote.editedNote')}
        </p>
      ) : null}
      {publication.transcript.length === 0 ? (
        <p className="text-xs text-gray-500" data-testid="quote-none">
          {t('testimonialDetail.publish.quote.noTranscript')}
        </p>
      ) : (
        <>
          <p id={`${id}-hint`} className="text-xs text-gray-500">
            {t(publication.quote ? 'testimonialDetail.publish.quote.hintReplace' : 'testimonialDetail.publish.quote.hint')}{' '}
            {t('testimonialDetail.publish.quote.labelRule')}
          </p>
          <div
            ref={box}
            tabIndex={0}
            role="region"
            aria-label={t('testimonialDetail.publish.quote.transcript')}
            aria-describedby={`${id}-hint`}
            className="max-h-40 overflow-y-auto rounded-control border border-gray-300 bg-white px-3 py-2 text-sm leading-6 text-gray-800 selection:bg-brand-200 focus-visible:outline-2 focus-visible:outline-brand-600"
            data-testid="quote-transcript"
          >
            {publication.transcript.map((paragraph, i) => (
              <p key={i} className="mb-2 last:mb-0">
                {paragraph}
              </p>
            ))}
          </div>
          {selected ? (
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between" aria-live="polite">
              <p className="line-clamp-2 text-sm text-gray-700" data-testid="quote-selection">
                {t('testimonialDetail.publish.quote.quoted', { quote: selected })}
              </p>
              <Button size="sm" variant="secondary" className="shrink-0 self-start sm:self-auto" onClick={() => use(selected)} disabled={tooLong || save.isPending} data-testid="quote-use">
                {t('testimonialDetail.publish.quote.use')}
              </Button>
            </div>
          ) : null}
          {tooLong ? (
            <p className="text-xs text-error-700" role="alert">
              {t('testimonialDetail.publish.quote.tooLong', { max: QUOTE_MAX_LENGTH })}
            </p>
          ) : null}
        </>
      )}
      {save.isError ? (
        <Alert tone="error" data-testid="quote-error">
          {apiErrorMessage(save.error, t)}
        </Alert>
      ) : null}
    </section>
  );
}
