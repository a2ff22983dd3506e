// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n/i18n';
import { QUESTION_LONG_LENGTH, QuestionForm, type QuestionFormTexts } from './question-form';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/** The question form's hint: past 150 characters it says a long question is hard to answer in 20 seconds (issue 27, decision 159). */

const LONG =
  'When you think back over the whole project, from the first phone call to the delivery of the final files, what was the single moment where you felt we truly understood what your team needed?';

function renderForm(initialText = '', onSave: (texts: QuestionFormTexts) => Promise<boolean> = async () => true) {
  render(<QuestionForm initialTexts={{ text_en: initialText, text_fr: null }} editing={false} pending={false} onSave={onSave} onCancel={() => undefined} />);
  return screen.getByTestId('question-text-input') as HTMLTextAreaElement;
}

describe('QuestionForm hint', () => {
  afterEach(async () => {
    cleanup();
    await i18n.changeLanguage('en');
  });

  it('keeps the usual hint up to 150 characters, and says a long question is hard to answer past it', async () => {
    await i18n.changeLanguage('en');
    const field = renderForm();
    expect(screen.getByText(/^One idea per question, answerable in 20 seconds\./)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'x'.repeat(QUESTION_LONG_LENGTH) } });
    expect(screen.queryByTestId('question-long-hint')).toBeNull();
    fireEvent.change(field, { target: { value: LONG } });
    expect(LONG.length).toBeGreaterThan(QUESTION_LONG_LENGTH);
    const hint = screen.getByTestId('question-long-hint');
    expect(hint.textContent).toBe("A long question is hard to answer in 20 seconds, and may not fit on a phone's screen. Shorter questions get better answers.");
    // It is the field's description, read with it.
    const describedBy = field.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').some((id) => document.getElementById(id)?.contains(hint))).toBe(true);
    // Shortened again, the usual hint is back; spaces around the text do not count.
    fireEvent.change(field, { target: { value: `   ${'y'.repeat(QUESTION_LONG_LENGTH)}   ` } });
    expect(screen.queryByTestId('question-long-hint')).toBeNull();
  });

  it('says it in French, and shows it when editing a long question', async () => {
    await i18n.changeLanguage('fr');
    renderForm(LONG);
    expect(screen.getByTestId('question-long-hint').textContent).toMatch(/^Il est difficile de répondre à une question longue en 20 secondes/);
  });

  it('leaves an over-long question to the limit’s error, not the hint', async () => {
    await i18n.changeLanguage('en');
    const field = renderForm();
    fireEvent.change(field, { target: { value: 'z'.repeat(501) } });
    expect(screen.queryByTestId('question-long-hint')).toBeNull();
    expect(screen.getByText('501/500')).toBeTruthy();
  });

  it('offers a field per language, the interface’s first, and sends both texts trimmed', async () => {
    await i18n.changeLanguage('fr');
    const onSave = vi.fn(async () => true);
    renderForm('', onSave);
    const fields = [...document.querySelectorAll('textarea')];
    expect(fields.map((f) => f.getAttribute('data-field'))).toEqual(['question-text-fr', 'question-text-en']);
    expect(screen.getByLabelText('En français')).toBe(fields[0]);
    fireEvent.change(fields[0]!, { target: { value: '  Qu’avez-vous aimé ?  ' } });
    fireEvent.change(fields[1]!, { target: { value: 'What did you like?' } });
    fireEvent.click(screen.getByTestId('question-submit'));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledWith({ text_en: 'What did you like?', text_fr: 'Qu’avez-vous aimé ?' }));
  });

  it('refuses a question with no text in either language, and says so', async () => {
    await i18n.changeLanguage('en');
    const onSave = vi.fn(async () => true);
    renderForm('', onSave);
    fireEvent.click(screen.getByTestId('question-submit'));
    expect(await screen.findByText('Write the question in English, in French, or in both.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });
});
