import { PUBLICATION_PAGES } from '../../../contract/api/publications.schema.js';
import { clock } from '../../../contract/clock.js';
import { html, raw, type SafeHtml } from '../../lib/html.js';
import type { CaptionCue, LivePublication } from './publications.service.js';
import { BEACON_SCRIPT_TAG, viewAttribute, type Viewed } from './views.beacon.js';

/**
 * The public pages of a publication (issue 19), written by the server as small plain HTML: no script,
 * no framework, inline CSS, every user text escaped. The video, its poster and its captions are
 * addressed through the publication's own media routes (`/v/{slug}/…`), never by a storage key or a
 * signed /files address, so that taking the publication down stops them at once.
 */

export type PageLang = 'en' | 'fr';

/** French "de" before a name: "d'" before a vowel (Élodie → d’Élodie); an h is left as it is, since it may be aspirated. */
export const deFr = (name: string): string => (/^[aeiouyàâäæéèêëîïôöœùûü]/i.test(name.trim()) ? `d’${name}` : `de ${name}`);

const TEXT = {
  en: {
    title: (name: string, company: string) => `${name} on ${company}`,
    heading: (name: string) => `Testimonial from ${name}`,
    description: (name: string, position: string | null, company: string) =>
      `Watch ${name}${position ? `, ${position},` : ''} talk about ${company}.`,
    video: (name: string) => `Video testimonial of ${name}`,
    transcript: 'Transcript',
    quoted: (quote: string) => `“${quote}”`,
    // Under a quote found only in the transcript as the company edited it (decision 154).
    corrected: (company: string) => `Transcript corrected by ${company}`,
    logo: (company: string) => `${company} logo`,
    length: 'Length',
    noVideo: 'Your browser cannot play this video.',
    download: 'Open the video',
    notFoundTitle: 'This video is not available',
    notFound: 'The link may be wrong, or the company has taken this video down.',
  },
  fr: {
    title: (name: string, company: string) => `${name} à propos ${deFr(company)}`,
    heading: (name: string) => `Le témoignage ${deFr(name)}`,
    description: (name: string, position: string | null, company: string) =>
      `Regardez ${name}${position ? `, ${position},` : ''} parler ${deFr(company)}.`,
    video: (name: string) => `Témoignage vidéo ${deFr(name)}`,
    transcript: 'Transcription',
    // No-break spaces inside the guillemets, as French typography asks: a » never starts a line alone.
    quoted: (quote: string) => `«\u00a0${quote}\u00a0»`,
    corrected: (company: string) => `Transcription corrigée par ${company}`,
    logo: (company: string) => `Logo ${deFr(company)}`,
    length: 'Durée',
    noVideo: 'Votre navigateur ne peut pas lire cette vidéo.',
    download: 'Ouvrir la vidéo',
    notFoundTitle: "Cette vidéo n'est pas disponible",
    notFound: "Le lien est peut-être erroné, ou l'entreprise a retiré cette vidéo.",
  },
} as const;

/** The pages' font stack, for their style sheets: put into a template with `raw` (a `<style>` is not HTML text). */
export const PAGE_FONT = "system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** Relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The company's logo in a page header: on the light plate when it needs one (decision 172). */
export const companyLogo = (img: SafeHtml, plate: boolean): SafeHtml => (plate ? html`<span class="plate" data-plate>${img}</span>` : img);

/** The company's colours for the header, with the text made black or white when its own does not contrast enough (4.5:1). */
export function headerColors(colors: { background: string; text: string }): { background: string; text: string } {
  const valid = (c: string) => /^#[0-9a-fA-F]{6}$/.test(c);
  const background = valid(colors.background) ? colors.background : '#15171f';
  const text = valid(colors.text) ? colors.text : '#ffffff';
  const ratio = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };
  if (ratio(background, text) >= 4.5) return { background, text };
  return { background, text: ratio(background, '#ffffff') >= ratio(background, '#000000') ? '#ffffff' : '#000000' };
}

/** A captions track's label: the name of the captions' language, in the page's. */
const LANGUAGE_NAMES: Record<PageLang, Record<PageLang, string>> = {
  en: { en: 'English', fr: 'French' },
  fr: { en: 'Anglais', fr: 'Français' },
};

/**
 * The captions `<track>` of a publication's player (share page, embed, wall card): in the publication's
 * language, labelled in the page's, shown by default unless the picture carries its subtitles already.
 */
export function captionsTrack(p: { slug: string; language: PageLang; subtitlesBurnedIn: boolean }, pageLang: PageLang): SafeHtml {
  return html`<track kind="captions" src="${PUBLICATION_PAGES.captions(p.slug)}" srclang="${p.language}" label="${LANGUAGE_NAMES[pageLang][p.language]}"${p.subtitlesBurnedIn ? '' : ' default'}>`;
}

/**
 * The length badge of a player (issue 27 item 12): put right after its `<video>`, inside a positioned
 * parent, it shows "0:42" on the poster's corner until the video starts (the beacon sets `data-played`).
 * Its style is DURATION_BADGE_CSS. Nothing when the length is unknown.
 */
export function durationBadge(seconds: number | null, lang: PageLang): SafeHtml {
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) return html``;
  return html`<span class="len"><span class="sr">${TEXT[lang].length} </span>${clock(seconds)}</span>`;
}
export const DURATION_BADGE_CSS = raw(
  `.len{position:absolute;top:10px;left:10px;padding:3px 8px;border-radius:6px;background:rgba(8,9,13,.78);color:#fff;font:600 13px/1.4 ${PAGE_FONT};font-variant-numeric:tabular-nums;letter-spacing:.02em;pointer-events:none}` +
  `video[data-played]+.len{display:none}` +
  `.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`,
);

const size = (p: Pick<LivePublication, 'width' | 'height'>) => ({ width: p.width ?? 1280, height: p.height ?? 720 });

/** The player: the publication's own media routes, the poster first, captions when a transcript exists. */
function player(p: LivePublication & Viewed, lang: PageLang, withCaptions: boolean): SafeHtml {
  const t = TEXT[lang];
  const { width, height } = size(p);
  const poster = p.posterKey ? html` poster="${PUBLICATION_PAGES.poster(p.slug)}"` : null;
  const track = withCaptions ? captionsTrack(p, lang) : null;
  return html`<div class="player"><video controls playsinline preload="none" width="${width}" height="${height}"${poster} ${viewAttribute(p.slug, p.viewToken)} aria-label="${t.video(p.name)}"><source src="${PUBLICATION_PAGES.video(p.slug)}" type="video/mp4">${track}<a href="${PUBLICATION_PAGES.video(p.slug)}">${t.download}</a></video>${durationBadge(p.durationSeconds, lang)}</div>`;
}

export interface PageContext {
  /** The server's public origin, for the absolute addresses of the Open Graph tags. */
  appUrl: string;
  brandName: string;
}

/** The share page `/v/{slug}`. */
export function sharePage(p: LivePublication & Viewed, transcript: { cues: CaptionCue[]; paragraphs: string[] }, site: PageContext): string {
  const t = TEXT[p.language];
  const lang = p.language;
  const title = t.title(p.name, p.company.name);
  // A quote is what the customer said: the best summary a preview can show. One the company's edits
  // made says so in the preview too (decision 154).
  const corrected = p.quote && p.quoteEdited ? t.corrected(p.company.name) : null;
  const description = p.quote ? `${t.quoted(p.quote)} ${p.name}${corrected ? ` · ${corrected}` : ''}` : t.description(p.name, p.position, p.company.name);
  const abs = (path: string) => `${site.appUrl}${path}`;
  const share = abs(PUBLICATION_PAGES.share(p.slug));
  const embed = abs(PUBLICATION_PAGES.embed(p.slug));
  const video = abs(PUBLICATION_PAGES.video(p.slug));
  const { width, height } = size(p);
  const colors = headerColors(p.colors);
  const poster = p.posterKey ? abs(PUBLICATION_PAGES.poster(p.slug)) : null;
  const oembed = `${site.appUrl}/api/oembed?url=${encodeURIComponent(share)}&format=json`;
  const meta = [
    html`<meta name="description" content="${description}">`,
    html`<link rel="canonical" href="${share}">`,
    html`<link rel="alternate" type="application/json+oembed" href="${oembed}" title="${title}">`,
    html`<meta property="og:type" content="video.other">`,
    html`<meta property="og:site_name" content="${site.brandName}">`,
    html`<meta property="og:locale" content="${lang === 'fr' ? 'fr_FR' : 'en_US'}">`,
    html`<meta property="og:title" content="${title}">`,
    html`<meta property="og:description" content="${description}">`,
    html`<meta property="og:url" content="${share}">`,
    ...(poster ? [html`<meta property="og:image" content="${poster}">`, html`<meta property="og:image:width" content="${width}">`, html`<meta property="og:image:height" content="${height}">`] : []),
    html`<meta property="og:video" content="${video}">`,
    html`<meta property="og:video:secure_url" content="${video}">`,
    html`<meta property="og:video:type" content="video/mp4">`,
    html`<meta property="og:video:width" content="${width}">`,
    html`<meta property="og:video:height" content="${height}">`,
    html`<meta name="twitter:card" content="player">`,
    html`<meta name="twitter:title" content="${title}">`,
    html`<meta name="twitter:description" content="${description}">`,
    ...(poster ? [html`<meta name="twitter:image" content="${poster}">`] : []),
    html`<meta name="twitter:player" content="${embed}">`,
    html`<meta name="twitter:player:width" content="${width}">`,
    html`<meta name="twitter:player:height" content="${height}">`,
  ].map((line) => html`${line}\n`);
  const logo = p.company.logoUrl
    ? companyLogo(html`<img src="${p.company.logoUrl}" alt="${t.logo(p.company.name)}" height="40">`, p.company.logoPlate)
    : html`<span class="company">${p.company.name}</span>`;
  const quoteFigure = p.quote
    ? html`<figure><blockquote><p>${t.quoted(p.quote)}</p></blockquote><figcaption>${p.position ? `${p.name}, ${p.position}` : p.name}${corrected && html`<small class="corrected">${corrected}</small>`}</figcaption></figure>`
    : null;
  const transcriptSection = transcript.paragraphs.length
    ? html`<section aria-labelledby="transcript"><h2 id="transcript">${t.transcript}</h2>${transcript.paragraphs.map((para) => html`<p>${para}</p>`)}</section>`
    : null;
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
${meta}<style>
*{box-sizing:border-box}body{margin:0;font-family:${raw(PAGE_FONT)};background:#f6f6f8;color:#16181d;line-height:1.55}
header{background:${colors.background};color:${colors.text};padding:14px 20px;display:flex;align-items:center;min-height:68px}
header img{display:block;height:40px;width:auto;max-width:min(200px,60vw);object-fit:contain}.plate{display:inline-flex;background:#fff;padding:6px 10px;border-radius:8px}.company{font-weight:700;font-size:18px}
main{max-width:960px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:clamp(22px,4vw,32px);line-height:1.2;margin:0 0 4px}.position{margin:0 0 20px;color:#4a4f5c}
video{display:block;width:100%;height:auto;max-width:calc(80vh*${width}/${height});margin:0 auto;background:#000;border-radius:12px;aspect-ratio:${width}/${height}}
.player{position:relative;max-width:calc(80vh*${width}/${height});margin:0 auto;width:100%}${DURATION_BADGE_CSS}
section{margin-top:28px;max-width:70ch}h2{font-size:18px;margin:0 0 8px}section p{margin:0 0 12px}
footer{text-align:center;font-size:13px;color:#5b6170;padding:0 16px 32px}
.stage{display:grid;gap:20px;align-items:center}figure{margin:0}
blockquote{margin:0;font-size:clamp(19px,2.4vw,24px);line-height:1.4;font-weight:600;color:#16181d;border-left:4px solid ${colors.background};padding:4px 0 4px 16px}
blockquote p{margin:0}figcaption{margin-top:10px;padding-left:20px;color:#4a4f5c;font-size:15px}.corrected{display:block;margin-top:4px;font-size:13px;font-style:italic}
@media (min-width:900px){.stage.quoted{grid-template-columns:minmax(0,2fr) minmax(0,1fr)}}
</style></head>
<body><header>${logo}</header>
<main><h1>${t.heading(p.name)}</h1>${p.position && html`<p class="position">${p.position}</p>`}
<div class="stage${p.quote ? ' quoted' : ''}">${player(p, lang, transcript.cues.length > 0)}${quoteFigure}</div>
${transcriptSection}
</main><footer>${site.brandName}</footer>${BEACON_SCRIPT_TAG}</body></html>`.value;
}

/** The embed `/embed/{slug}`: the player alone, filling its frame. */
export function embedPage(p: LivePublication & Viewed, withCaptions: boolean): string {
  const t = TEXT[p.language];
  return html`<!doctype html>
<html lang="${p.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${t.video(p.name)}</title>
<link rel="canonical" href="${PUBLICATION_PAGES.share(p.slug)}">
<style>html,body{margin:0;height:100%;background:#000}.player{position:relative;height:100%}video{display:block;width:100%;height:100%;object-fit:contain}${DURATION_BADGE_CSS}</style>
</head><body>${player(p, p.language, withCaptions)}${BEACON_SCRIPT_TAG}</body></html>`.value;
}

/** A public page that is not there (a publication's, a wall's): its title and one sentence, not indexed. */
export function missingPage(lang: PageLang, title: string, text: string): string {
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{margin:0;font-family:${raw(PAGE_FONT)};background:#f6f6f8;color:#16181d}main{max-width:520px;margin:15vh auto;padding:0 20px}h1{font-size:24px;margin:0 0 8px}p{color:#4a4f5c;line-height:1.55}</style>
</head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`.value;
}

/** The page of a slug that is unknown or taken down: the same for both. */
export function notFoundPage(lang: PageLang): string {
  return missingPage(lang, TEXT[lang].notFoundTitle, TEXT[lang].notFound);
}

const stamp = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/**
 * The captions as WebVTT: the cue text escaped as the format asks (&, <, >), every line break (CR, CRLF,
 * LF, and the Unicode separators) made one LF, other control characters dropped, and a blank line
 * never inside a cue (either would end it in the player).
 */
export function webVtt(cues: CaptionCue[]): string {
  const text = (s: string) =>
    s
      .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/-->/g, '--&gt;')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
  return `WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${stamp(c.start)} --> ${stamp(c.end)}\n${text(c.text)}\n`).join('\n')}`;
}
