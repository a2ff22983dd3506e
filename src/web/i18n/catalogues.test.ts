import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { TLanguage } from '../../contract/constants.js';
import { CATALOGUES, catalogueBackend, i18nOptions } from './i18n';

/** A fresh i18next with the app's options and backend, recording which catalogues it imports. */
async function instanceIn(lng: TLanguage) {
  const imported: TLanguage[] = [];
  const spy = (language: TLanguage) => () => {
    imported.push(language);
    return CATALOGUES[language]();
  };
  const instance = i18next.createInstance();
  await instance.use(catalogueBackend({ en: spy('en'), fr: spy('fr') })).init({ ...i18nOptions(), lng });
  return { instance, imported };
}

describe('the app’s catalogues (docs/decisions/141)', () => {
  it('imports only the language shown, and the other one when the visitor switches', async () => {
    const { instance, imported } = await instanceIn('en');
    expect(imported).toEqual(['en']);
    expect(instance.hasResourceBundle('fr', 'translation')).toBe(false);
    expect(instance.t('nav.signIn')).toBe('Sign in');

    // changeLanguage resolves once the catalogue has arrived: the page never shows a key.
    await instance.changeLanguage('fr');
    expect(imported).toEqual(['en', 'fr']);
    expect(instance.t('nav.signIn')).toBe('Se connecter');

    // Back to English: nothing is imported again.
    await instance.changeLanguage('en');
    expect(imported).toEqual(['en', 'fr']);
  });

  it('a French visitor imports the French catalogue alone (no fallback language is fetched)', async () => {
    const { instance, imported } = await instanceIn('fr');
    expect(imported).toEqual(['fr']);
    expect(instance.language).toBe('fr');
    expect(instance.t('nav.getStarted')).not.toBe('nav.getStarted');
  });

  it('a regional code reads its base language’s catalogue', async () => {
    const { instance, imported } = await instanceIn('fr-CA' as TLanguage);
    expect(imported).toEqual(['fr']);
    expect(instance.resolvedLanguage).toBe('fr');
  });
});
