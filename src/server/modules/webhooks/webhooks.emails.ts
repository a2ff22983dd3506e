import type { TLanguage } from "../../../contract/constants.js";
import { t } from "../../mail/i18n.js";
import { renderEmail } from "../../mail/layout.js";
import type { MailMessage } from "../../mail/mailer.js";

/** Told to the company's users when an endpoint that failed for 5 days was turned off (issue 32). */
export function webhookDisabledEmail(o: {
  lang: TLanguage;
  brand: string;
  to: string;
  firstname: string;
  endpointUrl: string;
  days: number;
  url: string;
}): MailMessage {
  const tr = t(o.lang);
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr("webhookDisabled.heading"),
    paragraphs: [
      tr("common.hello", { name: o.firstname }),
      tr("webhookDisabled.body", { endpointUrl: o.endpointUrl, count: o.days }),
    ],
    button: { label: tr("webhookDisabled.button"), url: o.url },
    linkHint: tr("common.linkHint"),
    footer: tr("webhookDisabled.footer", { brand: o.brand }),
  });
  return { to: o.to, subject: tr("webhookDisabled.subject"), html, text };
}
