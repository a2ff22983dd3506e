import { describe, expect, it } from 'vitest';
import { AUTH_ERROR_KEYS, ERROR_CODES } from '../../contract/errors.js';
import en from './en.json';
import fr from './fr.json';
import mailEn from './mail.en.json';
import mailFr from './mail.fr.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const enKeys = flatten(en as Tree);
  const frKeys = flatten(fr as Tree);

  it('has exactly the same keys in English and French', () => {
    expect([...frKeys.keys()].sort()).toEqual([...enKeys.keys()].sort());
  });

  it('has no empty string', () => {
    for (const [key, value] of [...enKeys, ...frKeys]) expect(value.trim(), key).not.toBe('');
  });

  it('uses the same interpolation placeholders in both languages', () => {
    for (const [key, value] of enKeys) expect(placeholders(frKeys.get(key) ?? ''), key).toEqual(placeholders(value));
  });

  it('translates every auth error key and every backend error code', () => {
    for (const key of AUTH_ERROR_KEYS) {
      expect(enKeys.has(`auth.errors.${key}`), key).toBe(true);
      expect(frKeys.has(`auth.errors.${key}`), key).toBe(true);
    }
    for (const code of ERROR_CODES) {
      expect(enKeys.has(`errors.codes.${code}`), code).toBe(true);
      expect(frKeys.has(`errors.codes.${code}`), code).toBe(true);
    }
  });
});

/** The e-mail texts: the `mail` namespace, in files of their own so the browser bundle does not carry them. */
describe('e-mail translations (mail.en.json, mail.fr.json)', () => {
  const enKeys = flatten(mailEn as Tree);
  const frKeys = flatten(mailFr as Tree);

  it('has the same keys, no empty string and the same placeholders in English and French', () => {
    expect([...frKeys.keys()].sort()).toEqual([...enKeys.keys()].sort());
    for (const [key, value] of [...enKeys, ...frKeys]) expect(value.trim(), key).not.toBe('');
    for (const [key, value] of enKeys) expect(placeholders(frKeys.get(key) ?? ''), key).toEqual(placeholders(value));
  });
});
