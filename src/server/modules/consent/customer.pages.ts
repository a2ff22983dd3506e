import { PUBLICATION_PAGES } from '../../../contract/api/publications.schema.js';
import { WALL_PAGES } from '../../../contract/api/wall.schema.js';
import { clock } from '../../../contract/clock.js';
import { html, raw, type SafeHtml } from '../../lib/html.js';
import { PRIVATE_PAGE_BASE_CSS } from '../../http/private-page-style.js';
import { deFr, missingPage, PAGE_FONT } from '../publications/publications.pages.js';
import type { ApprovalPageData, CustomerLang, CustomerPageData } from './customer.service.js';

/**
 * The customer's pages (issue 29, decision 183), written by the server as plain HTML like the share
 * pages: no script, inline CSS, phone first, every user text escaped, in the request's language. Each
 * action is a link to a confirmation page whose form posts with its anti-forgery field.
 */

export type Notice = 'withdrawn' | 'removed' | 'approved' | 'changes';

const dateTime = (lang: CustomerLang, at: Date) =>
  `${new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
const dateOnly = (lang: CustomerLang, at: Date) => new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);
const quoted = (lang: CustomerLang, text: string) => (lang === 'fr' ? `«\u00a0${text}\u00a0»` : `“${text}”`);

const TEXT = {
  en: {
    privatePage: 'Private page',
    title: (company: string) => `Your testimonial for ${company}`,
    intro: (company: string, withdrawn: boolean) =>
      `Here is what you recorded for ${company}, what they published from it, and the consent you gave.${withdrawn ? '' : ' You stay in control: you can ask for one answer to be removed, or withdraw your consent at any time.'}`,
    answers: 'Your answers',
    duration: 'Length',
    noVideo: 'Your browser cannot play this video.',
    removeAnswer: 'Remove this answer',
    removalAsked: (date: string, company: string) => `You asked for this answer to be removed on ${date}. ${company} no longer uses it.`,
    mediaDeleted: 'The video was deleted.',
    published: (company: string) => `What ${company} published`,
    nothingPublished: (company: string) => `${company} has not published anything from your testimonial.`,
    publicationLabel: (question: string | null) => (question ? `Your answer: ${quoted('en', question)}` : 'A video made from your answers'),
    publishedOn: (date: string) => `Published on ${date}`,
    sharePage: 'Share page',
    embed: 'Player embedded on websites',
    wall: (company: string) => `On the wall of ${company}`,
    consent: 'Your consent',
    consentGiven: (date: string) => `Given on ${date}.`,
    consentWithdrawnOn: (date: string) => `Withdrawn on ${date}.`,
    withdraw: 'Withdraw my consent',
    withdrawHint: (company: string) => `${company} will stop using your testimonial at once.`,
    withdrawnTitle: 'You withdrew your consent',
    withdrawnOn: (date: string, company: string) => `You withdrew your consent on ${date}. ${company} can no longer publish, edit, download or share your testimonial, and has been told.`,
    takenDown: (n: number) => (n === 0 ? 'Nothing of it was published.' : n === 1 ? 'The one publication made from it was taken down.' : `The ${n} publications made from it were taken down.`),
    deletedOn: (date: string) => `Your videos were deleted on ${date}.`,
    deletingNow: 'Your videos are being deleted now.',
    deletedBy: (date: string) => `Your videos will be deleted on ${date} at the latest.`,
    cannotRecall: (company: string) =>
      `What we cannot recall: copies ${company} downloaded before your withdrawal, and posts where ${company} shared the video itself (for example on social networks). Ask ${company} directly to delete them.`,
    privateFooter: 'This page is private: anyone with its address can act on your testimonial. Do not share it.',
    notices: {
      withdrawn: 'Your consent is withdrawn. Thank you for telling us.',
      removed: 'Done: the answer is removed from everything that is published, and the company has been told.',
      approved: 'Thank you: you approved the video.',
      changes: 'Thank you: your request for changes was sent.',
    } satisfies Record<Notice, string>,
    back: 'Back to my testimonial',
    cancel: 'Cancel',
    confirmWithdrawTitle: 'Withdraw your consent?',
    confirmWithdraw: (company: string, days: number) => [
      `Everything ${company} published from your testimonial is taken down at once: share pages, players embedded on websites, the wall.`,
      `${company} can no longer publish, edit, download or share it, and is told by e-mail.`,
      days > 0 ? `Your videos are deleted within ${days} days.` : 'Your videos are deleted at once.',
      `This cannot be undone. Copies ${company} already downloaded are out of our reach.`,
    ],
    confirmWithdrawButton: 'Yes, withdraw my consent',
    confirmRemoveTitle: 'Remove this answer?',
    confirmRemove: (company: string) => [
      `${company} stops using this answer: it is left out of every video made from now on.`,
      'Every publication that contains it is taken down until it is made again without it.',
      `${company} is told by e-mail. Your other answers stay as they are.`,
    ],
    confirmRemoveButton: 'Yes, remove this answer',
    refusedTitle: 'This action could not be confirmed',
    refused: 'Please open your page again from the link you received, and try once more.',
    notFoundTitle: 'This page does not exist',
    notFound: 'The link may be incomplete. Open it again from the e-mail you received.',
    approval: {
      title: (company: string) => `${company} asks for your approval`,
      intro: (company: string) => `Before publishing it, ${company} would like you to watch the video made from your testimonial.`,
      answer: (question: string) => `Your answer to ${quoted('en', question)}`,
      approve: 'Approve this video',
      changes: 'Ask for changes',
      commentLabel: 'What would you like changed?',
      commentHint: 'Up to 2000 characters.',
      commentError: 'Please write what you would like changed (at most 2000 characters).',
      approvedOn: (date: string) => `You approved this video on ${date}.`,
      changesOn: (date: string) => `You asked for changes on ${date}:`,
      cancelled: (company: string) => `${company} no longer needs your approval for this video. There is nothing to do.`,
      withdrawn: (date: string) => `You withdrew your consent on ${date}: nothing of your testimonial will be published.`,
      unavailable: 'This video is no longer available.',
    },
  },
  fr: {
    privatePage: 'Page privée',
    title: (company: string) => `Votre témoignage pour ${company}`,
    intro: (company: string, withdrawn: boolean) =>
      `Voici ce que vous avez enregistré pour ${company}, ce qui en a été publié et le consentement que vous avez donné.${withdrawn ? '' : " Vous gardez la main\u00a0: vous pouvez demander le retrait d'une réponse ou retirer votre consentement à tout moment."}`,
    answers: 'Vos réponses',
    duration: 'Durée',
    noVideo: 'Votre navigateur ne peut pas lire cette vidéo.',
    removeAnswer: 'Retirer cette réponse',
    removalAsked: (date: string, company: string) => `Vous avez demandé le retrait de cette réponse le ${date}. ${company} ne l'utilise plus.`,
    mediaDeleted: 'La vidéo a été supprimée.',
    published: (company: string) => `Ce que ${company} a publié`,
    nothingPublished: (company: string) => `${company} n'a rien publié de votre témoignage.`,
    publicationLabel: (question: string | null) => (question ? `Votre réponse\u00a0: ${quoted('fr', question)}` : 'Une vidéo faite de vos réponses'),
    publishedOn: (date: string) => `Publiée le ${date}`,
    sharePage: 'Page de partage',
    embed: 'Lecteur intégré aux sites web',
    wall: (company: string) => `Sur le mur ${deFr(company)}`,
    consent: 'Votre consentement',
    consentGiven: (date: string) => `Donné le ${date}.`,
    consentWithdrawnOn: (date: string) => `Retiré le ${date}.`,
    withdraw: 'Retirer mon consentement',
    withdrawHint: (company: string) => `${company} cessera aussitôt d'utiliser votre témoignage.`,
    withdrawnTitle: 'Vous avez retiré votre consentement',
    withdrawnOn: (date: string, company: string) =>
      `Vous avez retiré votre consentement le ${date}. ${company} ne peut plus publier, modifier, télécharger ni partager votre témoignage, et en a été informée.`,
    takenDown: (n: number) => (n === 0 ? "Rien n'en avait été publié." : n === 1 ? "La publication qui en avait été faite a été retirée." : `Les ${n} publications qui en avaient été faites ont été retirées.`),
    deletedOn: (date: string) => `Vos vidéos ont été supprimées le ${date}.`,
    deletingNow: 'Vos vidéos sont en cours de suppression.',
    deletedBy: (date: string) => `Vos vidéos seront supprimées le ${date} au plus tard.`,
    cannotRecall: (company: string) =>
      `Ce que nous ne pouvons pas rappeler\u00a0: les copies que ${company} a téléchargées avant votre retrait, et les publications où ${company} a partagé la vidéo elle-même (sur les réseaux sociaux par exemple). Demandez directement à ${company} de les supprimer.`,
    privateFooter: "Cette page est privée\u00a0: toute personne qui a son adresse peut agir sur votre témoignage. Ne la partagez pas.",
    notices: {
      withdrawn: 'Votre consentement est retiré. Merci de nous avoir prévenus.',
      removed: "C'est fait\u00a0: la réponse est retirée de tout ce qui est publié, et l'entreprise est prévenue.",
      approved: 'Merci\u00a0: vous avez approuvé la vidéo.',
      changes: 'Merci\u00a0: votre demande de modifications a été envoyée.',
    } satisfies Record<Notice, string>,
    back: 'Retour à mon témoignage',
    cancel: 'Annuler',
    confirmWithdrawTitle: 'Retirer votre consentement\u00a0?',
    confirmWithdraw: (company: string, days: number) => [
      `Tout ce que ${company} a publié de votre témoignage est retiré aussitôt\u00a0: pages de partage, lecteurs intégrés aux sites web, mur.`,
      `${company} ne peut plus le publier, le modifier, le télécharger ni le partager, et en est informée par e-mail.`,
      days > 0 ? `Vos vidéos sont supprimées sous ${days}\u00a0jours.` : 'Vos vidéos sont supprimées aussitôt.',
      `C'est définitif. Les copies que ${company} a déjà téléchargées échappent à notre contrôle.`,
    ],
    confirmWithdrawButton: 'Oui, retirer mon consentement',
    confirmRemoveTitle: 'Retirer cette réponse\u00a0?',
    confirmRemove: (company: string) => [
      `${company} cesse d'utiliser cette réponse\u00a0: elle est exclue de toutes les vidéos faites désormais.`,
      "Toute publication qui la contient est retirée jusqu'à ce qu'elle soit refaite sans elle.",
      `${company} en est informée par e-mail. Vos autres réponses restent telles quelles.`,
    ],
    confirmRemoveButton: 'Oui, retirer cette réponse',
    refusedTitle: "Cette action n'a pas pu être confirmée",
    refused: 'Rouvrez votre page depuis le lien que vous avez reçu, puis réessayez.',
    notFoundTitle: "Cette page n'existe pas",
    notFound: "Le lien est peut-être incomplet. Rouvrez-le depuis l'e-mail que vous avez reçu.",
    approval: {
      title: (company: string) => `${company} vous demande votre accord`,
      intro: (company: string) => `Avant de la publier, ${company} aimerait que vous regardiez la vidéo faite à partir de votre témoignage.`,
      answer: (question: string) => `Votre réponse à ${quoted('fr', question)}`,
      approve: 'Approuver cette vidéo',
      changes: 'Demander des modifications',
      commentLabel: 'Que souhaitez-vous changer\u00a0?',
      commentHint: "Jusqu'à 2000\u00a0caractères.",
      commentError: 'Écrivez ce que vous souhaitez changer (2000\u00a0caractères au plus).',
      approvedOn: (date: string) => `Vous avez approuvé cette vidéo le ${date}.`,
      changesOn: (date: string) => `Vous avez demandé des modifications le ${date}\u00a0:`,
      cancelled: (company: string) => `${company} n'a plus besoin de votre accord pour cette vidéo. Vous n'avez rien à faire.`,
      withdrawn: (date: string) => `Vous avez retiré votre consentement le ${date}\u00a0: rien de votre témoignage ne sera publié.`,
      unavailable: "Cette vidéo n'est plus disponible.",
    },
  },
} as const;

const STYLE = raw(`${PRIVATE_PAGE_BASE_CSS}
main{max-width:640px;margin:0 auto;padding:20px 16px 40px}
h1{font-size:24px;line-height:1.25;margin:4px 0 8px}h2{font-size:18px;margin:0 0 12px}
p{margin:0 0 12px}.muted{color:#5b6170}.small{font-size:14px}
section,.card{background:#fff;border:1px solid #e4e5ea;border-radius:14px;padding:16px;margin:16px 0}
.answer+.answer{margin-top:20px;padding-top:20px;border-top:1px solid #eceef2}
.answer h3{font-size:16px;margin:0 0 8px;line-height:1.4}
video{display:block;width:100%;max-height:70vh;background:#000;border-radius:10px;margin:0 0 8px}
.row{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px}
a{color:#4c1d95}a.quiet{font-size:14px;color:#7a2a2a}
.notice{background:#ecfdf3;border:1px solid #a6e9c0;color:#0f5132;border-radius:12px;padding:12px 14px;margin:0 0 16px;font-weight:600}
.alert{background:#fff7ed;border-color:#fed7aa}.alert h2{color:#9a3412}
.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:10px;padding:10px 12px;margin:0 0 12px}
blockquote{margin:0 0 10px;padding:8px 0 8px 14px;border-left:4px solid #c4b5fd;color:#2b2f38}
ul.pubs{list-style:none;margin:0;padding:0}ul.pubs li+li{margin-top:14px;padding-top:14px;border-top:1px solid #eceef2}
ul.pubs .links{display:flex;flex-wrap:wrap;gap:8px 16px;margin-top:4px;font-size:15px}
ul.list{margin:0 0 16px;padding-left:20px}ul.list li{margin:0 0 8px}
.button{display:block;width:100%;text-align:center;font:600 16px/1.2 ${PAGE_FONT};padding:14px 18px;border-radius:10px;border:0;cursor:pointer;text-decoration:none;margin:8px 0 0}
.primary{background:#6d28d9;color:#fff}.danger{background:#b42318;color:#fff}.secondary{background:#fff;color:#16181d;border:1px solid #cfd2da}
textarea{display:block;width:100%;min-height:120px;font:16px/1.5 ${PAGE_FONT};padding:10px 12px;border:1px solid #cfd2da;border-radius:10px;margin:6px 0 4px}
label{font-weight:600}
footer{max-width:640px;margin:0 auto;padding:0 16px 32px;font-size:13px;color:#5b6170;text-align:center}
@media (min-width:600px){main{padding-top:32px}h1{font-size:28px}.button{display:inline-block;width:auto}}`);

function layout(lang: CustomerLang, company: { name: string; logoUrl: string | null }, title: string, body: SafeHtml, footer: string): string {
  const t = TEXT[lang];
  const logo = company.logoUrl ? html`<img src="${company.logoUrl}" alt="${company.name}" height="36">` : html`<span class="company">${company.name}</span>`;
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="same-origin"><title>${title}</title>
<style>${STYLE}</style></head>
<body><header>${logo}<span class="tag">${t.privatePage}</span></header>
<main>${body}</main><footer>${footer}</footer></body></html>`.value;
}

export interface PageLinks {
  /** The page's own path (`/my-testimonial/{token}` or `/approve/{token}`). */
  base: string;
  /** The anti-forgery field of each action. */
  proof: (action: string) => string;
}

/** The customer's page `/my-testimonial/{token}`. */
export function customerPage(d: CustomerPageData, links: PageLinks, site: { appUrl: string; brandName: string; retentionDays: number }, notice: Notice | null): string {
  const lang = d.lang;
  const t = TEXT[lang];
  const company = d.company.name;
  const withdrawnAt = d.request.consentWithdrawnAt;
  const noticeBlock = notice && html`<p class="notice" role="status" data-testid="customer-notice">${t.notices[notice]}</p>`;
  const deletion = (() => {
    if (!withdrawnAt) return null;
    if (d.request.mediaDeletedAt) return t.deletedOn(dateOnly(lang, d.request.mediaDeletedAt));
    if (!d.deletionDueAt || d.deletionDueAt.getTime() <= Date.now()) return t.deletingNow;
    return t.deletedBy(dateOnly(lang, d.deletionDueAt));
  })();
  const withdrawnCard =
    withdrawnAt &&
    html`<section class="alert" data-testid="customer-withdrawn"><h2>${t.withdrawnTitle}</h2><p>${t.withdrawnOn(dateTime(lang, withdrawnAt), company)}</p><p>${t.takenDown(d.takenDown)}</p><p>${deletion}</p><p class="muted small">${t.cannotRecall(company)}</p></section>`;

  const answers = d.answers.map((a) => {
    const video = a.playable
      ? html`<video data-testid="customer-answer" controls playsinline preload="metadata" src="${links.base}/answers/${a.id}">${t.noVideo}</video>`
      : html`<p class="muted">${t.mediaDeleted}</p>`;
    const action = a.removalRequestedAt
      ? html`<p class="muted small" data-testid="answer-removal-asked">${t.removalAsked(dateTime(lang, a.removalRequestedAt), company)}</p>`
      : withdrawnAt
        ? null
        : html`<a class="quiet" data-testid="remove-answer-link" href="${links.base}/remove/${a.id}">${t.removeAnswer}</a>`;
    return html`<div class="answer" data-answer="${a.id}"><h3>${a.question}</h3>${video}<div class="row"><span class="muted small">${t.duration} ${a.seconds ? clock(a.seconds) : '–'}</span>${action}</div></div>`;
  });

  const pubs = d.publications.length
    ? html`<ul class="pubs">${d.publications.map(
        (p) =>
          html`<li data-publication="${p.slug}"><strong>${t.publicationLabel(p.question)}</strong><div class="muted small">${t.publishedOn(dateOnly(lang, p.publishedAt))}</div><div class="links"><a href="${site.appUrl}${PUBLICATION_PAGES.share(p.slug)}" rel="noreferrer">${t.sharePage}</a><a href="${site.appUrl}${PUBLICATION_PAGES.embed(p.slug)}" rel="noreferrer">${t.embed}</a>${p.onWall && d.wallSlug && html`<a href="${site.appUrl}${WALL_PAGES.wall(d.wallSlug)}" rel="noreferrer">${t.wall(company)}</a>`}</div></li>`,
      )}</ul>`
    : html`<p class="muted">${t.nothingPublished(company)}</p>`;

  const consent = d.consent
    ? html`<section data-testid="customer-consent"><h2>${t.consent}</h2><blockquote>${d.consent.text}</blockquote><p class="muted small">${t.consentGiven(dateTime(lang, d.consent.acceptedAt))}${d.consent.withdrawnAt && html` ${t.consentWithdrawnOn(dateTime(lang, d.consent.withdrawnAt))}`}</p></section>`
    : null;
  const withdraw = withdrawnAt
    ? null
    : html`<section><h2>${t.withdraw}</h2><p class="muted">${t.withdrawHint(company)}</p><a class="button secondary" data-testid="withdraw-link" href="${links.base}/withdraw">${t.withdraw}</a></section>`;

  const body = html`${noticeBlock}<h1>${t.title(company)}</h1><p class="muted">${t.intro(company, Boolean(withdrawnAt))}</p>${withdrawnCard}
<section><h2>${t.answers}</h2>${answers}</section>
<section data-testid="customer-publications"><h2>${t.published(company)}</h2>${pubs}</section>
${consent}${withdraw}`;
  return layout(lang, d.company, t.title(company), body, t.privateFooter);
}

/** The confirmation page of the withdrawal. */
export function withdrawConfirmPage(d: CustomerPageData, links: PageLinks, retentionDays: number): string {
  const t = TEXT[d.lang];
  const body = html`<h1>${t.confirmWithdrawTitle}</h1><section><ul class="list">${t.confirmWithdraw(d.company.name, retentionDays).map((line) => html`<li>${line}</li>`)}</ul>
<form method="post" action="${links.base}/withdraw" data-testid="withdraw-form"><input type="hidden" name="proof" value="${links.proof('withdraw')}"><button class="button danger" type="submit">${t.confirmWithdrawButton}</button></form>
<a class="button secondary" href="${links.base}">${t.cancel}</a></section>`;
  return layout(d.lang, d.company, t.confirmWithdrawTitle, body, t.privateFooter);
}

/** The confirmation page of an answer's removal. */
export function removeConfirmPage(d: CustomerPageData, answer: CustomerPageData['answers'][number], links: PageLinks): string {
  const t = TEXT[d.lang];
  const body = html`<h1>${t.confirmRemoveTitle}</h1><section><h2>${answer.question}</h2><ul class="list">${t.confirmRemove(d.company.name).map((line) => html`<li>${line}</li>`)}</ul>
<form method="post" action="${links.base}/remove/${answer.id}" data-testid="remove-answer-form"><input type="hidden" name="proof" value="${links.proof(`remove:${answer.id}`)}"><button class="button danger" type="submit">${t.confirmRemoveButton}</button></form>
<a class="button secondary" href="${links.base}">${t.cancel}</a></section>`;
  return layout(d.lang, d.company, t.confirmRemoveTitle, body, t.privateFooter);
}

/** The approval page `/approve/{token}`. */
export function approvalPage(d: ApprovalPageData, links: PageLinks, notice: Notice | null, error: { comment: string } | null = null): string {
  const lang = d.lang;
  const t = TEXT[lang];
  const a = t.approval;
  const company = d.company.name;
  const state = d.approval.state;
  const withdrawnAt = d.request.consentWithdrawnAt;
  const video = d.playable
    ? html`<video data-testid="approval-video" controls playsinline preload="metadata" src="${links.base}/video">${t.noVideo}</video>`
    : null;
  let decision: SafeHtml;
  if (withdrawnAt) decision = html`<section class="alert" data-testid="approval-state" data-state="withdrawn"><p>${a.withdrawn(dateTime(lang, withdrawnAt))}</p></section>`;
  else if (state === 'cancelled') decision = html`<section data-testid="approval-state" data-state="cancelled"><p>${a.cancelled(company)}</p></section>`;
  else if (state === 'approved') decision = html`<section data-testid="approval-state" data-state="approved"><p>${a.approvedOn(dateTime(lang, d.approval.decidedAt ?? new Date()))}</p></section>`;
  else if (state === 'changes_requested')
    decision = html`<section data-testid="approval-state" data-state="changes_requested"><p>${a.changesOn(dateTime(lang, d.approval.decidedAt ?? new Date()))}</p><blockquote>${d.approval.comment ?? ''}</blockquote></section>`;
  else
    decision = html`<section data-testid="approval-state" data-state="pending">
<form method="post" action="${links.base}/approve" data-testid="approve-form"><input type="hidden" name="proof" value="${links.proof('approve')}"><button class="button primary" type="submit">${a.approve}</button></form></section>
<section><h2>${a.changes}</h2><form method="post" action="${links.base}/changes" data-testid="changes-form"><input type="hidden" name="proof" value="${links.proof('changes')}">
${error && html`<p class="error" role="alert">${a.commentError}</p>`}<label for="comment">${a.commentLabel}</label><textarea id="comment" name="comment" required maxlength="2000">${error?.comment ?? ''}</textarea><p class="muted small">${a.commentHint}</p><button class="button secondary" type="submit">${a.changes}</button></form></section>`;
  const body = html`${notice && html`<p class="notice" role="status" data-testid="customer-notice">${t.notices[notice]}</p>`}<h1>${a.title(company)}</h1><p class="muted">${a.intro(company)}</p>
<section>${d.question && html`<h2>${a.answer(d.question)}</h2>`}${video ?? html`<p class="muted">${a.unavailable}</p>`}</section>${decision}`;
  return layout(lang, d.company, a.title(company), body, t.privateFooter);
}

/** An action refused (a forged or missing anti-forgery field, another site's request): 403, in the page's language. */
export function refusedPage(lang: CustomerLang): string {
  return missingPage(lang, TEXT[lang].refusedTitle, TEXT[lang].refused);
}

/** An unknown token or a path that is not there: 404 in the browser's language, never the web app. */
export function customerNotFoundPage(lang: CustomerLang): string {
  return missingPage(lang, TEXT[lang].notFoundTitle, TEXT[lang].notFound);
}
