import type { RENDER_JOB_KINDS } from '../../../contract/api/jobs.schema.js';
import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

/** The render job kinds (src/contract/api/jobs.schema.ts) that e-mail the company when ready. */
export type OutputKind = (typeof RENDER_JOB_KINDS)[number];

/** 'Your video is ready', in the company's mail language, with a link to the testimonial. */
export function videoReadyEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; customerName: string; kind: OutputKind; url: string }): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('videoReady.heading'),
    // One sentence per kind (i18next context: videoReady.body_<kind>).
    paragraphs: [tr('common.hello', { name: o.firstname }), tr('videoReady.body', { context: o.kind, customerName: o.customerName })],
    button: { label: tr('videoReady.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    footer: tr('videoReady.footer', { brand: o.brand }),
  });
  return { to: o.to, subject: tr('videoReady.subject', { customerName: o.customerName }), html, text };
}
