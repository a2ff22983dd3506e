// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n/i18n';
import { RequestPreviewDialog } from './request-preview-dialog';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The preview of a request in the other language than the interface's (issue 27, item 5): the app
 * holds only the catalogue it shows, so the preview fetches the request's first and shows a loading
 * state meanwhile, never a message key.
 */

const question = {
  id: '2b2b2b2b-2222-4222-8222-222222222222',
  company_id: '3c3c3c3c-3333-4333-8333-333333333333',
  text: 'What changed for you?',
  text_en: 'What changed for you?',
  text_fr: 'Qu’est-ce qui a changé pour vous ?',
  order_position: 1,
};
/** A question written only in French: an English request falls back to it (decision 165). */
const frenchOnly = { ...question, id: '2b2b2b2b-2222-4222-8222-222222222223', text: 'Le recommanderiez-vous ?', text_en: null, text_fr: 'Le recommanderiez-vous ?', order_position: 2 };

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
});

describe('the request preview in the request’s language', () => {
  it('shows a French request’s invitation in French in an English interface, never its keys', async () => {
    // Only the interface's catalogue is there, as in the app.
    if (i18n.hasResourceBundle('fr', 'translation')) i18n.removeResourceBundle('fr', 'translation');
    render(
      <RequestPreviewDialog open onOpenChange={() => undefined} companyName="Fleurs & Co" customerName="Camille" questions={[question]} gift="" language="french" expiresInDays={7} />,
    );
    // The dialog's own words are the interface's; the invitation waits for its catalogue.
    expect(screen.getByTestId('preview-dialog').textContent).not.toMatch(/requests\.preview\./);
    const content = await screen.findByTestId('preview-content');
    expect(content.getAttribute('lang')).toBe('fr');
    expect(content.textContent).toContain('Bonjour Camille');
    // The question in the request's language, not the interface's.
    expect(screen.getByTestId('preview-questions').textContent).toContain('Qu’est-ce qui a changé pour vous ?');
    expect(screen.getByTestId('preview-questions').textContent).not.toContain('What changed for you?');
    expect(screen.getByTestId('preview-dialog').textContent).not.toMatch(/requests\.preview\./);
  });

  it('shows an English request’s questions in English, falling back to French where a question has no English', async () => {
    render(
      <RequestPreviewDialog open onOpenChange={() => undefined} companyName="Fleurs & Co" customerName="Sam" questions={[question, frenchOnly]} gift="" language="english" expiresInDays={7} />,
    );
    const items = [...(await screen.findByTestId('preview-questions')).querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['1What changed for you?', '2Le recommanderiez-vous ?']);
  });
});
