/**
 * The image-rights authorisation a customer accepts before recording. The page shows the text of the
 * request's language; the server stores the version, the exact text, the time and the address.
 * A new wording gets a new version: stored consents keep the text their customer saw.
 */
export const CONSENT_TEXTS = {
  'image-rights-v1': {
    en: 'I authorise {company} to use the videos I record here, my name and my position, to promote its business on its website, social networks and marketing materials, without time limit and free of charge. I can ask {company} to stop using them at any time.',
    fr: "J'autorise {company} à utiliser les vidéos que j'enregistre ici, mon nom et ma fonction, pour promouvoir son activité sur son site web, ses réseaux sociaux et ses supports marketing, sans limite de durée et à titre gratuit. Je peux demander à {company} d'arrêter de les utiliser à tout moment.",
  },
} as const;

export type TConsentVersion = keyof typeof CONSENT_TEXTS;
export const CURRENT_CONSENT_VERSION: TConsentVersion = 'image-rights-v1';

export function consentText(version: TConsentVersion, lang: 'en' | 'fr', company: string): string {
  return CONSENT_TEXTS[version][lang].replaceAll('{company}', company);
}

export function isConsentVersion(value: string): value is TConsentVersion {
  return Object.hasOwn(CONSENT_TEXTS, value);
}
