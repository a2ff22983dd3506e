import { PUBLICATION_PAGES } from '../../../contract/api/publications.schema.js';
import { WALL_HEIGHT_MESSAGE, WALL_PAGES } from '../../../contract/api/wall.schema.js';
import { html, raw, type SafeHtml } from '../../lib/html.js';
import { captionsTrack, companyLogo, deFr, DURATION_BADGE_CSS, durationBadge, headerColors, missingPage, PAGE_FONT, type PageContext, type PageLang } from './publications.pages.js';
import type { PublicWall, PublicWallItem } from './wall.service.js';
import { viewAttribute, type Viewed } from './views.beacon.js';

/** A wall as a page shows it: each item with the view token minted for this page (decision 155). */
export type ViewedWall = Omit<PublicWall, 'items'> & { items: (PublicWallItem & Viewed)[] };

/**
 * The wall's public pages (issue 19), written by the server as small plain HTML like the share page
 * (decision 136): inline CSS, every user text escaped, the company's logo and colours, the system font.
 * Each card plays its video lazily (`preload="none"`, the poster first) through the publication's own
 * media routes, never a storage key or a signed /files address, with the captions track of its share page
 * when it has a transcript (`captionsTrack`). The only script is our own small file
 * (`/wall-frame.js`, allowed by `script-src 'self'`): the page works without it.
 */

const TEXT = {
  en: {
    title: (company: string) => `${company}: what our customers say`,
    heading: 'What our customers say',
    count: (n: number) => (n === 1 ? '1 video testimonial' : `${n} video testimonials`),
    // Under a quote found only in the transcript as the company edited it (decision 154).
    corrected: (company: string) => `Transcript corrected by ${company}`,
    description: (company: string) => `Video testimonials from the customers of ${company}.`,
    video: (name: string) => `Video testimonial of ${name}`,
    logo: (company: string) => `${company} logo`,
    open: 'Open the video page',
    newTab: '(opens in a new tab)',
    noVideo: 'Open the video',
    empty: 'No testimonials to show yet.',
    notFoundTitle: 'This wall is not available',
    notFound: 'The link may be wrong, or the company has removed this page.',
  },
  fr: {
    title: (company: string) => `${company} : ce que disent nos clients`,
    heading: 'Ce que disent nos clients',
    count: (n: number) => (n === 1 ? '1 témoignage vidéo' : `${n} témoignages vidéo`),
    corrected: (company: string) => `Transcription corrigée par ${company}`,
    description: (company: string) => `Les témoignages vidéo des clients ${deFr(company)}.`,
    video: (name: string) => `Témoignage vidéo ${deFr(name)}`,
    logo: (company: string) => `Logo ${deFr(company)}`,
    open: 'Voir la page de la vidéo',
    newTab: '(s’ouvre dans un nouvel onglet)',
    noVideo: 'Ouvrir la vidéo',
    empty: 'Aucun témoignage à afficher pour le moment.',
    notFoundTitle: "Ce mur n'est pas disponible",
    notFound: "Le lien est peut-être erroné, ou l'entreprise a retiré cette page.",
  },
} as const;

/** A link colour from the company's header colour when it reads on white (4.5:1), else a neutral indigo. */
function accentOn(background: string): string {
  return headerColors({ background: '#ffffff', text: background }).text === background ? background : '#4338ca';
}

/** The wall's style sheet (raw: a `<style>` is not HTML text; the accent is a colour that headerColors checked). */
const CSS = (accent: string): SafeHtml =>
  raw(
    `*{box-sizing:border-box}body{margin:0;font-family:${PAGE_FONT};background:#f6f6f8;color:#16181d;line-height:1.5}` +
    `.grid{list-style:none;margin:0;padding:0;display:grid;gap:20px;grid-template-columns:repeat(auto-fill,minmax(min(100%,280px),1fr));align-items:start}` +
    `.card{background:#fff;border:1px solid #e4e5ea;border-radius:14px;overflow:hidden;display:flex;flex-direction:column}` +
    `video{display:block;width:100%;height:auto;max-height:560px;background:#0c0d12;object-fit:contain}` +
    `.player{position:relative}${DURATION_BADGE_CSS.value}` +
    `.body{padding:16px 18px 18px;display:flex;flex-direction:column;gap:10px}` +
    `blockquote{margin:0;font-size:16px;line-height:1.5;color:#22252d}blockquote::before{content:"\\201C";display:block;font:700 32px/0.9 Georgia,serif;color:${accent}}` +
    `.corrected{margin:0;color:#5b6170;font-size:13px;font-style:italic}.who{margin:0;font-size:15px}.who strong{display:block;font-weight:650}.who span{color:#5b6170;font-size:14px}` +
    `.open{font-size:14px;font-weight:600;color:${accent};text-underline-offset:3px}` +
    `a:focus-visible,video:focus-visible{outline:2px solid ${accent};outline-offset:2px}` +
    `.empty{color:#5b6170;text-align:center;padding:48px 0}` +
    `@media (prefers-reduced-motion:no-preference){.card{transition:box-shadow .2s}.card:hover{box-shadow:0 6px 24px rgba(16,18,27,.08)}}`,
  );

function card(item: PublicWallItem & Viewed, lang: PageLang, embedded: boolean, company: string): SafeHtml {
  const t = TEXT[lang];
  const width = item.width ?? 1280;
  const height = item.height ?? 720;
  const video = PUBLICATION_PAGES.video(item.slug);
  const poster = item.hasPoster && html` poster="${PUBLICATION_PAGES.poster(item.slug)}"`;
  const target = embedded && html` target="_blank" rel="noopener"`;
  const track = item.captions && captionsTrack(item, lang);
  return html`${[
    html`<li class="card"><div class="player"><video controls playsinline preload="none" width="${width}" height="${height}" style="aspect-ratio:${width}/${height}"${poster} ${viewAttribute(item.slug, item.viewToken)} aria-label="${t.video(item.name)}">`,
    html`<source src="${video}" type="video/mp4">${track}<a href="${video}">${t.noVideo}</a></video>${durationBadge(item.durationSeconds, lang)}</div>`,
    html`<div class="body">${item.quote && html`<blockquote><p style="margin:0">${item.quote}</p></blockquote>`}`,
    html`<p class="who"><strong>${item.name}</strong>${item.title && html`<span>${item.title}</span>`}</p>`,
    item.quote && item.quoteEdited && html`<p class="corrected">${t.corrected(company)}</p>`,
    html`<a class="open" href="${PUBLICATION_PAGES.share(item.slug)}"${target}>${t.open}${embedded && html`<span class="sr"> ${t.newTab}</span>`}</a></div></li>`,
  ]}`;
}

function grid(wall: ViewedWall, lang: PageLang, embedded: boolean): SafeHtml {
  if (!wall.items.length) return html`<p class="empty">${TEXT[lang].empty}</p>`;
  return html`<ul class="grid">${wall.items.map((item) => card(item, lang, embedded, wall.company.name))}</ul>`;
}

/** The wall `/wall/{slug}`: the company's header, a heading and the grid. */
export function wallPage(wall: ViewedWall, lang: PageLang, site: PageContext): string {
  const t = TEXT[lang];
  const colors = headerColors(wall.colors);
  const accent = accentOn(colors.background);
  const url = `${site.appUrl}${WALL_PAGES.wall(wall.slug)}`;
  const logo = wall.company.logoUrl
    ? companyLogo(html`<img src="${wall.company.logoUrl}" alt="${t.logo(wall.company.name)}" height="40">`, wall.company.logoPlate)
    : html`<span class="company">${wall.company.name}</span>`;
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t.title(wall.company.name)}</title>
<meta name="description" content="${t.description(wall.company.name)}">
<link rel="canonical" href="${url}">
<meta property="og:type" content="website"><meta property="og:site_name" content="${site.brandName}">
<meta property="og:title" content="${t.title(wall.company.name)}"><meta property="og:url" content="${url}">
<style>${CSS(accent)}
header{background:${colors.background};color:${colors.text};padding:14px 20px;display:flex;align-items:center;min-height:68px}
header img{display:block;height:40px;width:auto;max-width:min(200px,60vw);object-fit:contain}.plate{display:inline-flex;background:#fff;padding:6px 10px;border-radius:8px}.company{font-weight:700;font-size:18px}
main{max-width:1200px;margin:0 auto;padding:32px 16px 56px}.intro{margin:0 0 24px}
h1{font-size:clamp(24px,4vw,32px);line-height:1.2;margin:0 0 4px}.count{margin:0;color:#5b6170}
footer{text-align:center;font-size:13px;color:#5b6170;padding:0 16px 32px}
</style></head>
<body><header>${logo}</header>
<main><div class="intro"><h1>${t.heading}</h1><p class="count">${t.count(wall.items.length)}</p></div>
${grid(wall, lang, false)}
</main><footer>${site.brandName}</footer>
<script src="${WALL_PAGES.frameScript}" defer></script></body></html>`.value;
}

/** The embed `/embed/wall/{slug}`: the grid alone (no page chrome), posting its height to the page that frames it. */
export function wallEmbedPage(wall: ViewedWall, lang: PageLang): string {
  const t = TEXT[lang];
  const accent = accentOn(headerColors(wall.colors).background);
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${t.title(wall.company.name)}</title>
<link rel="canonical" href="${WALL_PAGES.wall(wall.slug)}">
<style>${CSS(accent)}
body{background:transparent}main{padding:4px}</style></head>
<body><main><h1 class="sr">${t.title(wall.company.name)}</h1>${grid(wall, lang, true)}</main>
<script src="${WALL_PAGES.frameScript}" defer></script></body></html>`.value;
}

/** The page of an unknown wall. */
export function wallNotFoundPage(lang: PageLang): string {
  return missingPage(lang, TEXT[lang].notFoundTitle, TEXT[lang].notFound);
}

/**
 * The wall's own script: in a frame, it posts the page's height to the parent whenever it changes
 * (`{ type, height }`, nothing else); on any wall, a video that starts pauses the others.
 */
export const WALL_FRAME_SCRIPT = `(function(){var d=document,b=d.body,last=0;
function post(){var h=Math.ceil(b.getBoundingClientRect().height);if(h!==last&&window.parent!==window){last=h;window.parent.postMessage({type:${JSON.stringify(WALL_HEIGHT_MESSAGE)},height:h},"*")}}
if(window.ResizeObserver)new ResizeObserver(post).observe(b);window.addEventListener("load",post);post();
d.addEventListener("play",function(ev){var v=d.getElementsByTagName("video");for(var i=0;i<v.length;i++)if(v[i]!==ev.target)v[i].pause()},true)})();
`;

/**
 * The loader a company pastes (`<div data-vouchreel-wall="slug">` + this script): each such element gets
 * an iframe of the wall's embed, in the language of the element (`data-lang`) or of the page, whose
 * height follows the messages of that frame only, from our origin only.
 */
export const WALL_LOADER_SCRIPT = `(function(){var s=document.currentScript;if(!s)return;var base=new URL(s.src).origin,frames=[];
function mount(el){if(el.getAttribute("data-vouchreel-mounted"))return;var slug=el.getAttribute("data-vouchreel-wall")||"";if(!/^[a-z0-9-]{1,80}$/.test(slug))return;
el.setAttribute("data-vouchreel-mounted","1");var lang=(el.getAttribute("data-lang")||document.documentElement.lang||"").slice(0,2).toLowerCase();
var f=document.createElement("iframe");f.src=base+"/embed/wall/"+slug+(lang==="fr"||lang==="en"?"?lang="+lang:"");f.title=el.getAttribute("data-title")||(lang==="fr"?"Témoignages":"Testimonials");
f.setAttribute("allow","fullscreen; picture-in-picture");f.setAttribute("allowfullscreen","");f.setAttribute("scrolling","no");f.style.cssText="display:block;width:100%;height:600px;border:0;overflow:hidden";el.appendChild(f);frames.push(f)}
window.addEventListener("message",function(ev){var m=ev.data;if(ev.origin!==base||!m||m.type!==${JSON.stringify(WALL_HEIGHT_MESSAGE)})return;var h=Math.round(Number(m.height));if(!(h>0&&h<100000))return;
for(var i=0;i<frames.length;i++)if(frames[i].contentWindow===ev.source)frames[i].style.height=h+"px"});
function all(){var l=document.querySelectorAll("[data-vouchreel-wall]");for(var i=0;i<l.length;i++)mount(l[i])}
if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",all);else all()})();
`;
