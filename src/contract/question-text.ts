/**
 * A question's text in one language (issue 27, decision 165). A question has an English and a French
 * text, either of which may be empty (never both). Whatever is shown to a customer, burnt into a card
 * or sent by e-mail speaks the request's language, and falls back to the other language's text when
 * the question has none in it. No zod here: the customer's page and the web app import this module.
 */
import type { TLanguage } from './constants.js';

export interface QuestionTexts {
  text_en: string | null;
  text_fr: string | null;
}

/** The text in `lang`, or the other language's when `lang` has none. */
export function questionTextIn(texts: QuestionTexts, lang: TLanguage): string {
  const [first, second] = lang === 'fr' ? [texts.text_fr, texts.text_en] : [texts.text_en, texts.text_fr];
  return (first || second) ?? '';
}

/** The languages in which the question has a text, in the order en, fr. */
export function questionLanguages(texts: QuestionTexts): TLanguage[] {
  const langs: TLanguage[] = [];
  if (texts.text_en) langs.push('en');
  if (texts.text_fr) langs.push('fr');
  return langs;
}
