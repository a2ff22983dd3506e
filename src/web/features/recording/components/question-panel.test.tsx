// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRecordingMessages, RecordingI18nProvider } from '../../../i18n/recording-i18n';
import { QuestionPanel, questionTypeClass } from './question-panel';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The question above the camera (issue 27, decision 159): a long question steps down a type size; one
 * that still does not fit says that it scrolls. jsdom lays nothing out: the panel's heights are set here.
 */

const LONG_206 =
  'Think back to the moment you first saw the finished result: what did you feel, what did your staff say about it, and which part of our work made the biggest difference to your business across the past year?';

function sizes(el: HTMLElement, scrollHeight: number, clientHeight: number) {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: clientHeight });
}

async function renderPanel(text: string, language: 'en' | 'fr' = 'en', heights?: [number, number]) {
  const messages = await loadRecordingMessages(language);
  // The heights must be known when the panel first measures itself (before paint).
  const restore = heights ? stubHeights(heights) : () => undefined;
  render(
    <RecordingI18nProvider initial={{ language, messages }}>
      <QuestionPanel text={text} bgColor="#0f172a" tone="light" />
    </RecordingI18nProvider>,
  );
  restore();
  return screen.getByTestId('question-panel');
}

function stubHeights([scrollHeight, clientHeight]: [number, number]) {
  const scroll = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(scrollHeight);
  const client = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(clientHeight);
  return () => {
    scroll.mockRestore();
    client.mockRestore();
  };
}

afterEach(() => cleanup());

describe('questionTypeClass', () => {
  it('steps down a size for long questions', () => {
    expect(LONG_206).toHaveLength(206);
    expect(questionTypeClass(60)).toBe('text-xl sm:text-2xl');
    expect(questionTypeClass(206)).toBe('text-lg sm:text-xl');
    expect(questionTypeClass(500)).toBe('text-base sm:text-lg');
  });
});

describe('QuestionPanel', () => {
  it('shows a question that fits with no scroll cue and no tab stop', async () => {
    const panel = await renderPanel('What problem did we help you solve?', 'en', [120, 120]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('What problem did we help you solve?');
    expect(screen.queryByTestId('question-more')).toBeNull();
    expect(panel.getAttribute('tabindex')).toBeNull();
    expect(panel.hasAttribute('data-scrolls')).toBe(false);
  });

  it('says that a question taller than its panel scrolls, until it is read to the end', async () => {
    const panel = await renderPanel(LONG_206, 'en', [400, 260]);
    expect(screen.getByRole('heading', { level: 1 }).className).toContain('text-lg');
    expect(screen.getByTestId('question-more').textContent).toBe('Scroll for the rest');
    // A keyboard can reach it and scroll it; it is named for a screen reader.
    expect(panel.getAttribute('tabindex')).toBe('0');
    expect(panel.getAttribute('aria-label')).toBe('The question: scroll to read it all');
    sizes(panel, 400, 260);
    act(() => {
      panel.scrollTop = 140;
      fireEvent.scroll(panel);
    });
    expect(screen.queryByTestId('question-more')).toBeNull();
    // Still a scrolling region (it can be scrolled back).
    expect(panel.getAttribute('tabindex')).toBe('0');
  });

  it('says it in French', async () => {
    await renderPanel(LONG_206, 'fr', [400, 260]);
    expect(screen.getByTestId('question-more').textContent).toBe('Faites défiler pour la suite');
  });
});
