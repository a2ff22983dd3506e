/** The Intl locale used to format numbers, dates and lists for an interface language. */
export function intlLocale(lang: string): string {
  return lang.toLowerCase().startsWith('fr') ? 'fr-FR' : 'en-GB';
}

/** '20 %' in French, '20%' in English. */
export function formatPercent(percent: number, lang: string): string {
  return new Intl.NumberFormat(intlLocale(lang), { style: 'percent', maximumFractionDigits: 0 }).format(percent / 100);
}

/** 'a, b and c' in English, 'a, b et c' in French. */
export function formatList(items: readonly string[], lang: string): string {
  return new Intl.ListFormat(intlLocale(lang), { style: 'long', type: 'conjunction' }).format(items);
}
