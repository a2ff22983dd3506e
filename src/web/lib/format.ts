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

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * A date as DD/MM/YYYY in the viewer's time zone (spec §9: the dates of the requests screens), the
 * same in both languages. An unreadable value gives an empty string.
 */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad2(date.getDate())}/${pad2(date.getMonth() + 1)}/${date.getFullYear()}`;
}
