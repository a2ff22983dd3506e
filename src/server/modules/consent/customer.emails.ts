import { clock } from '../../../contract/clock.js';
import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { CustomerMailUnsubscribe } from '../reminders/unsubscribe-link.js';

/** A moment as the customer and the company read it in an e-mail: date and time, UTC. */
export function mailDate(lang: TLanguage, at: Date): string {
  const text = new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at);
  return `${text} UTC`;
}

/** The customer's receipt after their submission (issue 29): what they recorded, the consent, their page. */
export function receiptEmail(o: {
  lang: TLanguage;
  brand: string;
  to: string;
  name: string;
  company: { name: string; logoUrl: string | null };
  answers: { question: string; seconds: number | null }[];
  consent: { text: string; acceptedAt: Date };
  pageUrl: string;
  /** The request's unsubscribe link and RFC 8058 headers (issue 30). */
  unsubscribe: CustomerMailUnsubscribe;
}): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    company: { name: o.company.name, logoUrl: o.company.logoUrl },
    heading: tr('receipt.heading', { company: o.company.name }),
    paragraphs: [
      tr('common.hello', { name: o.name }),
      tr('receipt.body', { company: o.company.name, count: o.answers.length }),
      ...o.answers.map((a, i) => tr('receipt.answer', { n: i + 1, question: a.question, duration: a.seconds ? clock(a.seconds) : '–' })),
      tr('receipt.consent', { date: mailDate(o.lang, o.consent.acceptedAt) }),
      o.lang === 'fr' ? `«\u00a0${o.consent.text}\u00a0»` : `“${o.consent.text}”`,
      tr('receipt.page', { company: o.company.name }),
    ],
    button: { label: tr('receipt.button'), url: o.pageUrl },
    linkHint: tr('common.linkHint'),
    footer: tr('receipt.footer', { company: o.company.name }),
    unsubscribe: { label: tr('common.unsubscribe', { company: o.company.name }), url: o.unsubscribe.url },
  });
  return { to: o.to, subject: tr('receipt.subject', { company: o.company.name }), html, text, headers: o.unsubscribe.headers, requestId: o.unsubscribe.requestId };
}

interface CompanyMail {
  lang: TLanguage;
  brand: string;
  to: string;
  firstname: string;
  customerName: string;
  url: string;
}

/** To the company: the customer withdrew their consent. */
export function consentWithdrawnEmail(o: CompanyMail & { at: Date; unpublished: number; retentionDays: number }): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('consentWithdrawn.heading', { customerName: o.customerName }),
    paragraphs: [
      tr('common.hello', { name: o.firstname }),
      tr('consentWithdrawn.body', { customerName: o.customerName, date: mailDate(o.lang, o.at) }),
      tr('consentWithdrawn.unpublished', { count: o.unpublished }),
      o.retentionDays > 0 ? tr('consentWithdrawn.retention', { count: o.retentionDays }) : tr('consentWithdrawn.retentionNow'),
      tr('consentWithdrawn.copies'),
    ],
    button: { label: tr('consentWithdrawn.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('consentWithdrawn.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('consentWithdrawn.subject', { customerName: o.customerName }), html, text };
}

/** To the company: the customer asked for one answer to be removed. */
export function answerRemovalEmail(o: CompanyMail & { question: string; unpublished: number }): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('answerRemoval.heading', { customerName: o.customerName }),
    paragraphs: [
      tr('common.hello', { name: o.firstname }),
      tr('answerRemoval.body', { customerName: o.customerName, question: o.question }),
      tr('answerRemoval.unpublished', { count: o.unpublished }),
    ],
    button: { label: tr('answerRemoval.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('answerRemoval.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('answerRemoval.subject', { customerName: o.customerName }), html, text };
}

/** To the company: the customer approved a video, or asked for changes with a comment. */
export function approvalDecidedEmail(o: CompanyMail & { approved: boolean; comment: string | null }): MailMessage {
  const tr = t(o.lang);
  const key = o.approved ? 'approved' : 'changes';
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr(`approvalDecided.${key}Heading`, { customerName: o.customerName }),
    paragraphs: [
      tr('common.hello', { name: o.firstname }),
      tr(`approvalDecided.${key}Body`, { customerName: o.customerName }),
      ...(o.comment ? [tr('approvalDecided.comment', { comment: o.comment })] : []),
    ],
    button: { label: tr('approvalDecided.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('approvalDecided.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr(`approvalDecided.${key}Subject`, { customerName: o.customerName }), html, text };
}
