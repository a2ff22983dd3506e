import type { TLanguage } from '../../../contract/constants.js';
import { companyNoticeEmail } from '../../mail/notice.js';
import type { MailMessage } from '../../mail/mailer.js';

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
  return companyNoticeEmail({ group: 'webhookDisabled', ...o, body: { endpointUrl: o.endpointUrl, count: o.days } });
}
