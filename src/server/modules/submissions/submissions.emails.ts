import type { TLanguage } from '../../../contract/constants.js';
import { companyNoticeEmail } from '../../mail/notice.js';
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
  return companyNoticeEmail({
    group: 'newTestimonial',
    ...o,
    body: { customerName: o.customerName, count: o.answers },
    subject: { customerName: o.customerName },
  });
}
