import type { TRole } from '../../../contract/api/members.schema.js';
import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

/** The invitation to join a company as a member (issue 32), in the company's mail language. */
export function memberInvitationEmail(o: {
  lang: TLanguage;
  brand: string;
  to: string;
  inviter: string;
  company: string;
  role: TRole;
  url: string;
}): MailMessage {
  const tr = t(o.lang);
  const role = tr(`memberInvitation.roles.${o.role}`);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('memberInvitation.heading', { company: o.company }),
    paragraphs: [tr('memberInvitation.body', { inviter: o.inviter, company: o.company, brand: o.brand, role }), tr('memberInvitation.expiry')],
    button: { label: tr('memberInvitation.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('auth.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('memberInvitation.subject', { inviter: o.inviter, company: o.company, brand: o.brand }), html, text };
}
