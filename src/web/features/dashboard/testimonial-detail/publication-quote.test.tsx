// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TPublication } from '../../../../contract/api/publications.schema.js';
import i18n from '../../../i18n/i18n';
import { PublicationQuote } from './publication-quote';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/** The quote section of the Share dialog: a quote the company's corrections made is said to be labelled (decision 154). */

const publication = (over: Partial<TPublication>): TPublication => ({
  id: '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
  testimonialId: '6c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
  jobId: null,
  responseId: '7c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
  slug: 'abc',
  url: 'http://app.test/v/abc',
  embedUrl: 'http://app.test/embed/abc',
  embedHtml: '<iframe></iframe>',
  createdAt: '2026-11-27T10:00:00.000Z',
  quote: null,
  transcript: ['The team at Acme was quick to answer.'],
  views: 0,
  ...over,
});

function renderSection(p: TPublication) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <PublicationQuote publication={p} />
    </QueryClientProvider>,
  );
}

describe('PublicationQuote', () => {
  afterEach(async () => {
    cleanup();
    await i18n.changeLanguage('en');
  });

  it('says that words corrected in the transcript are labelled, and that the current quote is', async () => {
    await i18n.changeLanguage('en');
    renderSection(publication({ quote: 'The team at Acme was quick', quoteEdited: true }));
    expect(screen.getByTestId('quote-edited').textContent).toMatch(/not what the automatic transcription heard.*“Transcript corrected by”/);
    expect(screen.getByText(/Words you corrected in the transcript are shown with “Transcript corrected by”/)).toBeTruthy();
  });

  it('says nothing of a label for the customer’s own words, or from an older server', async () => {
    renderSection(publication({ quote: 'The team at Acme was quick', quoteEdited: false }));
    expect(screen.queryByTestId('quote-edited')).toBeNull();
    cleanup();
    renderSection(publication({ quote: 'The team at Acme was quick' }));
    expect(screen.queryByTestId('quote-edited')).toBeNull();
  });

  it('says it in French', async () => {
    await i18n.changeLanguage('fr');
    renderSection(publication({ quote: 'The team at Acme was quick', quoteEdited: true }));
    expect(screen.getByTestId('quote-edited').textContent).toMatch(/« Transcription corrigée par »/);
  });
});
