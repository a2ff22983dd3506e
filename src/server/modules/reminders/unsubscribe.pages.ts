import { html, raw, type SafeHtml } from '../../lib/html.js';
import { PRIVATE_PAGE_BASE_CSS } from '../../http/private-page-style.js';
import { deFr, missingPage, PAGE_FONT } from '../publications/publications.pages.js';
import type { UnsubscribeView } from './reminders.service.js';

/**
 * The unsubscribe page `/unsubscribe/{token}` (issue 30, decision 195): plain HTML written by the server
 * like the customer's pages, no script, phone first, in the request's language. It asks for one click on
 * a button whose form posts back to the same address (the same POST a mail client's one-click button
 * sends), then says that it is done and what it means.
 */

type Lang = 'en' | 'fr';

const dateOnly = (lang: Lang, at: Date) => new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

const TEXT = {
  en: {
    tag: 'E-mail preferences',
    title: (company: string) => `Stop reminders from ${company}?`,
    body: (company: string, email: string | null) =>
      `${company} asked you for a video testimonial${email ? ` at ${email}` : ''}. If you would rather not be reminded about it, unsubscribe here.`,
    what: (company: string) => [
      `${company} will send no more reminders to this address, automatic or manual.`,
      'Your link stays valid: you can still record your testimonial if you change your mind.',
    ],
    button: 'Unsubscribe from reminders',
    doneTitle: 'You are unsubscribed',
    done: (company: string, date: string) => `Since ${date}, ${company} sends no more reminders to this address.`,
    doneMore: 'Your testimonial link still works if you change your mind. You can close this page.',
    noEmail: (company: string) => `${company} has no e-mail address for this request: there is nothing to unsubscribe from.`,
    footer: (brand: string) => `Sent on behalf of the company through ${brand}. One click is enough; no account needed.`,
    notFoundTitle: 'This link does not work',
    notFound: 'The unsubscribe link may be incomplete. Open it again from the e-mail you received.',
  },
  fr: {
    tag: 'Préférences e-mail',
    title: (company: string) => `Ne plus recevoir de relances ${deFr(company)}\u00a0?`,
    body: (company: string, email: string | null) =>
      `${company} vous a demandé un témoignage vidéo${email ? ` à l’adresse ${email}` : ''}. Si vous préférez ne plus être relancé, désabonnez-vous ici.`,
    what: (company: string) => [
      `${company} n’enverra plus aucune relance à cette adresse, automatique ou manuelle.`,
      'Votre lien reste valable\u00a0: vous pourrez toujours enregistrer votre témoignage si vous changez d’avis.',
    ],
    button: 'Me désabonner des relances',
    doneTitle: 'Vous êtes désabonné',
    done: (company: string, date: string) => `Depuis le ${date}, ${company} n’envoie plus de relances à cette adresse.`,
    doneMore: 'Votre lien de témoignage fonctionne toujours si vous changez d’avis. Vous pouvez fermer cette page.',
    noEmail: (company: string) => `${company} n’a pas d’adresse e-mail pour cette demande\u00a0: il n’y a rien à désabonner.`,
    footer: (brand: string) => `Envoyé pour le compte de l’entreprise par ${brand}. Un clic suffit, sans compte.`,
    notFoundTitle: 'Ce lien ne fonctionne pas',
    notFound: 'Le lien de désabonnement est peut-être incomplet. Ouvrez-le à nouveau depuis l’e-mail reçu.',
  },
} as const;

const STYLE = raw(`${PRIVATE_PAGE_BASE_CSS}
main{max-width:560px;margin:0 auto;padding:24px 16px 40px}
section{background:#fff;border:1px solid #e4e5ea;border-radius:14px;padding:20px;margin:0 0 16px}
h1{font-size:24px;line-height:1.25;margin:0 0 12px}p{margin:0 0 12px}.muted{color:#5b6170}
ul{margin:0 0 16px;padding-left:20px}li{margin:0 0 8px}
.button{display:block;width:100%;text-align:center;font:600 16px/1.2 ${PAGE_FONT};padding:14px 18px;border-radius:10px;border:0;cursor:pointer;background:#6d28d9;color:#fff;margin:8px 0 0}
.button:focus-visible{outline:3px solid #c4b5fd;outline-offset:2px}
.done{border-color:#a6e9c0}.done h1{color:#0f5132}
.check{display:inline-flex;align-items:center;justify-content:center;width:40px;height:40px;border-radius:999px;background:#ecfdf3;color:#0f5132;font-size:22px;font-weight:700;margin:0 0 12px}
footer{max-width:560px;margin:0 auto;padding:0 16px 32px;font-size:13px;color:#5b6170;text-align:center}
@media (min-width:600px){main{padding-top:48px}h1{font-size:28px}.button{display:inline-block;width:auto}}`);

function layout(lang: Lang, company: UnsubscribeView['company'], title: string, body: SafeHtml, brand: string): string {
  const t = TEXT[lang];
  const logo = company.logoUrl ? html`<img src="${company.logoUrl}" alt="${company.name}" height="36">` : html`<span class="company">${company.name}</span>`;
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="same-origin"><title>${title}</title>
<style>${STYLE}</style></head>
<body><header>${logo}<span class="tag">${t.tag}</span></header>
<main>${body}</main><footer>${t.footer(brand)}</footer></body></html>`.value;
}

/** The page: the question and its button, or (already unsubscribed) the confirmation. */
export function unsubscribePage(view: UnsubscribeView, action: string, brand: string): string {
  const t = TEXT[view.lang];
  const company = view.company.name;
  if (!view.maskedEmail) {
    return layout(view.lang, view.company, t.notFoundTitle, html`<section data-testid="unsubscribe-no-email"><p>${t.noEmail(company)}</p></section>`, brand);
  }
  if (view.unsubscribedAt) {
    const body = html`<section class="done" role="status" data-testid="unsubscribe-done"><div class="check" aria-hidden="true">✓</div><h1>${t.doneTitle}</h1>
<p>${t.done(company, dateOnly(view.lang, view.unsubscribedAt))}</p><p class="muted">${t.doneMore}</p></section>`;
    return layout(view.lang, view.company, t.doneTitle, body, brand);
  }
  const body = html`<section data-testid="unsubscribe-ask"><h1>${t.title(company)}</h1><p class="muted">${t.body(company, view.maskedEmail)}</p>
<ul>${t.what(company).map((line) => html`<li>${line}</li>`)}</ul>
<form method="post" action="${action}" data-testid="unsubscribe-form"><input type="hidden" name="List-Unsubscribe" value="One-Click"><input type="hidden" name="from" value="page"><button class="button" type="submit" data-testid="unsubscribe-button">${t.button}</button></form></section>`;
  return layout(view.lang, view.company, t.title(company), body, brand);
}

/** An unknown or forged token: 404 in the browser's language. */
export function unsubscribeNotFoundPage(lang: Lang): string {
  return missingPage(lang, TEXT[lang].notFoundTitle, TEXT[lang].notFound);
}
