import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { CustomerMailUnsubscribe } from '../reminders/unsubscribe-link.js';

export interface InvitationInput {
  lang: TLanguage;
  brand: string;
  to: string;
  customerName: string;
  company: { name: string; logoUrl: string | null };
  gift: string | null;
  url: string;
  expiresAt: Date;
  questionCount: number;
  reminder: boolean;
  /** The request's unsubscribe link and RFC 8058 headers (issue 30): on every e-mail to a customer. */
  unsubscribe: CustomerMailUnsubscribe;
}

const formatDate = (date: Date, lang: TLanguage) =>
  new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);

/** The invitation (or its reminder) a customer receives, in the request's language. */
export function invitationEmail(o: InvitationInput): MailMessage {
  const tr = t(o.lang);
  const company = o.company.name;
  const body = o.reminder ? tr('invitation.reminderBody', { company }) : tr('invitation.body', { company, count: o.questionCount });
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    preheader: body,
    heading: o.reminder ? tr('invitation.reminderHeading', { company }) : tr('invitation.heading', { company }),
    paragraphs: [
      tr('common.hello', { name: o.customerName }),
      body,
      ...(o.gift ? [tr('invitation.gift', { gift: o.gift })] : []),
      tr('invitation.expiry', { date: formatDate(o.expiresAt, o.lang) }),
    ],
    button: { label: tr('invitation.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('invitation.footer', { company, brand: o.brand }),
    company: { name: company, logoUrl: o.company.logoUrl },
    unsubscribe: { label: tr('common.unsubscribe', { company }), url: o.unsubscribe.url },
  });
  return { to: o.to, subject: o.reminder ? tr('invitation.reminderSubject', { company }) : tr('invitation.subject', { company }), html, text, headers: o.unsubscribe.headers, requestId: o.unsubscribe.requestId };
}
