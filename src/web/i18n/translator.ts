import type { TFunction } from 'i18next';

/** A catalogue of messages: nested objects of strings, as en.json and fr.json are written. */
export type TMessages = { [key: string]: string | TMessages };

/** The values a message names: `{{company}}`, and `count` for plurals. */
export type TMessageValues = Record<string, unknown>;

/**
 * The customer's recording page's own translator (docs/decisions/139): the part of i18next that
 * page uses, on the same catalogues and with the same results. `t('a.b.c', values)` finds the
 * message by its dotted key; `{{name}}` takes `values.name` as it is (React escapes it, as i18next is
 * set up with `escapeValue: false`), and stays as written when `values` has no `name`; with a
 * numeric `count` the plural form of the language comes first (`key_one`, `key_other`, by
 * `Intl.PluralRules`), then `key_other`, then `key`. A key that names no message comes back as it
 * is, as i18next returns it.
 *
 * The result is typed as i18next's `TFunction`, so the keys are checked against en.json
 * (i18next.d.ts) and the page's helpers take either translator; only types come from i18next.
 */
export function createTranslator(language: string, messages: TMessages): TFunction {
  const plurals = new Intl.PluralRules(language);
  const find = (key: string): string | undefined => {
    let node: string | TMessages | undefined = messages;
    for (const part of key.split('.')) {
      if (typeof node !== 'object') return undefined;
      node = node[part];
    }
    return typeof node === 'string' ? node : undefined;
  };
  const translate = (key: string, values?: TMessageValues): string => {
    const count = values?.count;
    const message =
      (typeof count === 'number' ? (find(`${key}_${plurals.select(count)}`) ?? find(`${key}_other`)) : undefined) ?? find(key);
    if (message === undefined) return key;
    return message.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
      if (!values || !Object.hasOwn(values, name)) return whole;
      const value = values[name];
      return value === undefined || value === null ? '' : String(value);
    });
  };
  return translate as unknown as TFunction;
}
