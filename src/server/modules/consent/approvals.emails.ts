import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { CustomerMailUnsubscribe } from '../reminders/unsubscribe-link.js';

/**
 * The approval e-mail (issue 29) a customer receives in the request's language: the company asks them
 * to watch the final video and approve it or ask for changes, through their own link (`/approve/{token}`).
 * A reminder says the company is still waiting, with a fresh link.
 */
export function approvalEmail(o: {
  lang: TLanguage;
  brand: string;
  to: string;
  customerName: string;
  company: { name: string; logoUrl: string | null };
  url: string;
  reminder: boolean;
  /** The request's unsubscribe link and RFC 8058 headers (issue 30). */
  unsubscribe: CustomerMailUnsubscribe;
}): MailMessage {
  const tr = t(o.lang);
  const company = o.company.name;
  const body = o.reminder ? tr('approval.reminderBody', { company }) : tr('approval.body', { company });
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    preheader: body,
    heading: tr('approval.heading'),
    paragraphs: [tr('common.hello', { name: o.customerName }), body, tr('approval.nothingPublished')],
    button: { label: tr('approval.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('approval.footer', { company, brand: o.brand }),
    company: { name: company, logoUrl: o.company.logoUrl },
    unsubscribe: { label: tr('common.unsubscribe', { company }), url: o.unsubscribe.url },
  });
  return { to: o.to, subject: o.reminder ? tr('approval.reminderSubject', { company }) : tr('approval.subject', { company }), html, text, headers: o.unsubscribe.headers, requestId: o.unsubscribe.requestId };
}
