import type { TRequestLanguage } from '../../../../contract/constants.js';

/** The request language that follows the interface language (spec §2: english by default). */
export function requestLanguageFor(language: string): TRequestLanguage {
  return language === 'fr' ? 'french' : 'english';
}
