import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

export function newTestimonialEmail(o: {
  lang: TLanguage;
  brand: string;
  to: string;
  firstname: string;
  customerName: string;
  answers: number;
  url: string;
}): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('newTestimonial.heading'),
    paragraphs: [tr('common.hello', { name: o.firstname }), tr('newTestimonial.body', { customerName: o.customerName, count: o.answers })],
    button: { label: tr('newTestimonial.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('newTestimonial.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('newTestimonial.subject', { customerName: o.customerName }), html, text };
}
