import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { CustomerMailUnsubscribe } from '../reminders/unsubscribe-link.js';

export interface EmailCodeInput {
  lang: TLanguage;
  brand: string;
  to: string;
  customerName: string;
  company: { name: string; logoUrl: string | null };
  code: string;
  minutes: number;
  /** The request's unsubscribe link and RFC 8058 headers (issue 30), like every e-mail to a customer. */
  unsubscribe: CustomerMailUnsubscribe;
}

/** The code a customer types on a collection link that asks to confirm the e-mail, in the link's language. */
export function emailCodeEmail(o: EmailCodeInput): MailMessage {
  const tr = t(o.lang);
  const company = o.company.name;
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    preheader: tr('collectCode.subject', { company, code: o.code }),
    heading: tr('collectCode.heading'),
    paragraphs: [
      tr('common.hello', { name: o.customerName }),
      tr('collectCode.body', { company }),
      o.code.split('').join(' '),
      tr('collectCode.expiry', { minutes: o.minutes }),
    ],
    footer: tr('collectCode.footer', { company, brand: o.brand }),
    unsubscribe: { label: tr('common.unsubscribe', { company }), url: o.unsubscribe.url },
    company: { name: company, logoUrl: o.company.logoUrl },
  });
  return { to: o.to, subject: tr('collectCode.subject', { company, code: o.code }), html, text, headers: o.unsubscribe.headers, requestId: o.unsubscribe.requestId };
}
