import type { TLanguage } from '../../contract/constants.js';
import { t } from './i18n.js';
import { renderEmail } from './layout.js';
import type { MailMessage } from './mailer.js';

/**
 * The frame of a notice to one of the company's users: a greeting by first name, one paragraph, a
 * button, the link hint and a footer, all from one group of the mail strings (`<group>.subject`,
 * `.heading`, `.body`, `.button`, `.footer`). Each notice gives its group and its strings' values.
 */
export function companyNoticeEmail(o: {
  group: 'newTestimonial' | 'webhookDisabled';
  lang: TLanguage;
  brand: string;
  to: string;
  firstname: string;
  url: string;
  /** Values of `<group>.body` (with `count` for plurals). */
  body: Record<string, string | number>;
  /** Values of `<group>.subject`. */
  subject?: Record<string, string | number>;
}): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr(`${o.group}.heading`),
    paragraphs: [tr('common.hello', { name: o.firstname }), tr(`${o.group}.body`, o.body)],
    button: { label: tr(`${o.group}.button`), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr(`${o.group}.footer`, { brand: o.brand }),
  });
  return { to: o.to, subject: tr(`${o.group}.subject`, o.subject ?? {}), html, text };
}
