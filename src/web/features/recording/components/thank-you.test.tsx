// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRecordingMessages, RecordingI18nProvider } from '../../../i18n/recording-i18n';
import { ThankYou } from './thank-you';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/** The thank-you screen (issue 29): a customer without e-mail gets their private page's address there, in their language. */

async function renderThankYou(language: 'en' | 'fr', pageUrl: string | null) {
  const messages = await loadRecordingMessages(language);
  render(
    <RecordingI18nProvider initial={{ language, messages }}>
      <ThankYou name="Élodie" company="Acme" pageUrl={pageUrl} />
    </RecordingI18nProvider>,
  );
}

describe('ThankYou', () => {
  afterEach(cleanup);

  it('offers the private page to keep when there was no e-mail to send it to', async () => {
    const url = 'https://app.test/my-testimonial/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    await renderThankYou('fr', url);
    const link = screen.getByTestId('thank-you-page-link');
    expect(link.getAttribute('href')).toBe(url);
    expect(screen.getByTestId('thank-you-page').textContent).toContain('retirer votre consentement');
    expect(screen.getByTestId('thank-you-page').textContent).toContain('Acme');
  });

  it('says nothing of a page when the receipt went by e-mail', async () => {
    await renderThankYou('en', null);
    expect(screen.queryByTestId('thank-you-page')).toBeNull();
    expect(screen.getByTestId('thank-you').textContent).toContain('Thank you, Élodie!');
  });
});
