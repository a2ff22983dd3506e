import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

export function confirmationEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; url: string }): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('auth.confirm.heading'),
    paragraphs: [tr('common.hello', { name: o.firstname }), tr('auth.confirm.body', { brand: o.brand })],
    button: { label: tr('auth.confirm.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('auth.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('auth.confirm.subject', { brand: o.brand }), html, text };
}

export function resetPasswordEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; url: string }): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('auth.reset.heading'),
    paragraphs: [tr('common.hello', { name: o.firstname }), tr('auth.reset.body'), tr('auth.reset.ignore')],
    button: { label: tr('auth.reset.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('auth.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('auth.reset.subject', { brand: o.brand }), html, text };
}
