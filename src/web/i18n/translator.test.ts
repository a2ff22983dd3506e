import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import fr from './fr.json';
import recordingEn from './recording-messages.en';
import recordingFr from './recording-messages.fr';
import { createTranslator } from './translator';
import type { TMessages } from './translator';

/**
 * The recording page's own translator (docs/decisions/139) against i18next, which the rest of the app
 * keeps: the same text for every message of the page, in both languages.
 */

const messages: TMessages = {
  greeting: 'Hello {{name}}!',
  spaced: 'Hello {{ name }} from {{company}}',
  nested: { deeper: { key: 'Deep' } },
  answers_one: '{{count}} answer',
  answers_other: '{{count}} answers',
  only_other: 'always {{count}}',
};
// A loose signature for the fixtures above (the real keys are typed by en.json).
const looseT = (language: string) =>
  createTranslator(language, messages) as unknown as (key: string, values?: Record<string, unknown>) => string;

describe('createTranslator', () => {
  it('finds a message by its dotted key and fills in its values', () => {
    const t = looseT('en');
    expect(t('greeting', { name: 'Claire' })).toBe('Hello Claire!');
    expect(t('spaced', { name: 'Claire', company: 'Fleurs & Co' })).toBe('Hello Claire from Fleurs & Co');
    expect(t('nested.deeper.key')).toBe('Deep');
    expect(t('greeting', { name: 42 })).toBe('Hello 42!');
  });

  it('leaves the values unescaped (React escapes them) and a placeholder without a value as written', () => {
    const t = looseT('en');
    expect(t('greeting', { name: '<b>&' })).toBe('Hello <b>&!');
    expect(t('greeting')).toBe('Hello {{name}}!');
    expect(t('greeting', { name: undefined })).toBe('Hello !');
  });

  it('returns the key of a missing message, or of a branch that is not a message', () => {
    const t = looseT('en');
    expect(t('nothing.here')).toBe('nothing.here');
    expect(t('nested.deeper')).toBe('nested.deeper');
    expect(t('greeting.more')).toBe('greeting.more');
  });

  it("picks the plural form of the language's rules, then _other", () => {
    const t = looseT('en');
    expect(t('answers', { count: 1 })).toBe('1 answer');
    expect(t('answers', { count: 0 })).toBe('0 answers');
    expect(t('answers', { count: 2 })).toBe('2 answers');
    expect(t('only_other', { count: 1 })).toBe('always 1');
    const tFr = looseT('fr');
    // In French, 0 and 1 are both singular.
    expect(tFr('answers', { count: 0 })).toBe('0 answer');
    expect(tFr('answers', { count: 1 })).toBe('1 answer');
    expect(tFr('answers', { count: 1_000_000 })).toBe('1000000 answers');
  });
});

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(at, value);
    else for (const [k, v] of flatten(value, at)) out.set(k, v);
  }
  return out;
}

describe("the recording page's messages, as i18next gives them", () => {
  const reference = i18next.createInstance();
  const ready = reference.init({
    resources: { en: { translation: en }, fr: { translation: fr } },
    lng: 'en',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });

  for (const [language, picked] of [
    ['en', recordingEn],
    ['fr', recordingFr],
  ] as const) {
    it(`gives every message in ${language === 'en' ? 'English' : 'French'} as i18next does`, async () => {
      await ready;
      const ours = createTranslator(language, picked) as unknown as (key: string, values?: Record<string, unknown>) => string;
      const theirs = reference.getFixedT(language) as unknown as (key: string, values?: Record<string, unknown>) => string;
      const keys = new Set([...flatten(picked as Tree).keys()].map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')));
      expect(keys.size).toBeGreaterThan(50);
      for (const key of keys) {
        const text = flatten(picked as Tree).get(key) ?? flatten(picked as Tree).get(`${key}_other`) ?? '';
        const values = Object.fromEntries([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(([, name]) => [name, `<${name}>`]));
        for (const count of [0, 1, 2, 7]) {
          const withCount = { ...values, count };
          expect(ours(key, withCount), `${language} ${key} (${count})`).toBe(theirs(key, withCount));
        }
        expect(ours(key, values), `${language} ${key}`).toBe(theirs(key, values));
      }
    });
  }
});
