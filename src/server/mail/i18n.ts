import i18next, { type TFunction } from 'i18next';
import { LANGUAGES, type TLanguage } from '../../contract/constants.js';
import en from '../../web/i18n/mail.en.json' with { type: 'json' };
import fr from '../../web/i18n/mail.fr.json' with { type: 'json' };

/**
 * The e-mail texts: the `mail` namespace of the web's i18next catalogue, kept in its own files
 * (src/web/i18n/mail.<lang>.json) so the browser bundle, which embeds en.json and fr.json whole, does
 * not carry them. tsc copies the JSON into dist/node/web/i18n, so the built server reads the same files.
 *
 * Values are not escaped here: the layout escapes every text once for HTML and keeps the plain-text
 * part raw. No fallback language: both files hold every key (src/web/i18n/translations.test.ts), and a
 * missing key shows as `mail:the.key`, which the e-mail tests look for.
 */
const mailI18n = i18next.createInstance();
void mailI18n.init({
  resources: { en: { mail: en }, fr: { mail: fr } },
  ns: ['mail'],
  defaultNS: 'mail',
  supportedLngs: [...LANGUAGES],
  fallbackLng: false,
  initAsync: false,
  appendNamespaceToMissingKey: true,
  interpolation: { escapeValue: false },
});

/** The e-mail texts of one language: `t(lang)('invitation.body', { count, company })`. */
export function t(lang: TLanguage): TFunction<'mail'> {
  return mailI18n.getFixedT(lang, 'mail');
}
