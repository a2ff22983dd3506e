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

/**
 * A date and time as DD/MM/YYYY HH:mm (24 h) in the viewer's time zone, the same in both languages:
 * the consent record's moments (issue 29). An unreadable value gives an empty string.
 */
export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDate(date)} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/**
 * A video's length as the browser's own player shows it (Chromium's media controls: whole seconds cut,
 * never rounded, as m:ss, and h:mm:ss from an hour), so that a card and the player beside it always
 * agree: 9.6 s is 0:09 in both. The value is the stored file's probed length where the server has it.
 * An unknown or negative length gives an empty string.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s)}` : `${m}:${pad2(s)}`;
}

/**
 * Whether a text someone typed (a question) already ends its sentence: with . ? ! or …, before any
 * closing quote or bracket. A text quoted in a sentence of ours then takes the variant of the sentence
 * that adds no full stop after the quote (“What did you like?” never becomes “What did you like?”.).
 */
export function endsSentence(text: string): boolean {
  return /[.?!…][\s"'”’»)\]]*$/u.test(text.trim());
}
