import type { TLanguage } from '../../../contract/constants.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

export interface InvitationInput {
  lang: TLanguage;
  brand: string;
  to: string;
  customerName: string;
  company: { name: string; logoUrl: string | null };
  gift: string | null;
  url: string;
  expiresAt: Date;
  questionCount: number;
  reminder: boolean;
}

const formatDate = (date: Date, lang: TLanguage) =>
  new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);

const TEXT = {
  en: {
    subject: (c: string) => `${c} would love a short video from you`,
    reminderSubject: (c: string) => `Reminder: ${c} is waiting for your video`,
    heading: (c: string) => `${c} would love your feedback`,
    reminderHeading: (c: string) => `A quick reminder from ${c}`,
    hello: (n: string) => `Hello ${n},`,
    body: (c: string, q: number) =>
      `${c} invites you to record a short video testimonial: ${q} ${q > 1 ? 'questions' : 'question'}, up to 20 seconds each, right in your browser on your phone or computer. No account, nothing to install.`,
    reminderBody: (c: string) => `${c} sent you an invitation to record a short video testimonial, and it is still waiting for you. It only takes a couple of minutes.`,
    gift: (g: string) => `As a thank-you: ${g}`,
    expiry: (d: string) => `The link is personal and works until ${d}.`,
    button: 'Record my testimonial',
    linkHint: 'If the button does not work, copy this link into your browser:',
    footer: (c: string, b: string) => `${c} sent you this invitation through ${b}. If you did not expect it, you can ignore this e-mail.`,
  },
  fr: {
    subject: (c: string) => `${c} aimerait une courte vidéo de votre part`,
    reminderSubject: (c: string) => `Rappel : ${c} attend votre vidéo`,
    heading: (c: string) => `${c} aimerait votre avis`,
    reminderHeading: (c: string) => `Un petit rappel de ${c}`,
    hello: (n: string) => `Bonjour ${n},`,
    body: (c: string, q: number) =>
      `${c} vous invite à enregistrer un court témoignage vidéo : ${q} question${q > 1 ? 's' : ''}, 20 secondes maximum chacune, directement dans votre navigateur, sur téléphone ou ordinateur. Sans compte, rien à installer.`,
    reminderBody: (c: string) => `${c} vous a invité à enregistrer un court témoignage vidéo, et l'invitation vous attend toujours. Cela ne prend que quelques minutes.`,
    gift: (g: string) => `En remerciement : ${g}`,
    expiry: (d: string) => `Ce lien est personnel et reste valable jusqu'au ${d}.`,
    button: 'Enregistrer mon témoignage',
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    footer: (c: string, b: string) => `${c} vous a envoyé cette invitation via ${b}. Si vous ne l'attendiez pas, ignorez simplement cet e-mail.`,
  },
} as const;

/** The invitation (or its reminder) a customer receives, in the request's language. */
export function invitationEmail(o: InvitationInput): MailMessage {
  const t = TEXT[o.lang];
  const c = o.company.name;
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    preheader: o.reminder ? t.reminderBody(c) : t.body(c, o.questionCount),
    heading: o.reminder ? t.reminderHeading(c) : t.heading(c),
    paragraphs: [
      t.hello(o.customerName),
      o.reminder ? t.reminderBody(c) : t.body(c, o.questionCount),
      ...(o.gift ? [t.gift(o.gift)] : []),
      t.expiry(formatDate(o.expiresAt, o.lang)),
    ],
    button: { label: t.button, url: o.url },
    linkHint: t.linkHint,
    footer: t.footer(c, o.brand),
    company: { name: c, logoUrl: o.company.logoUrl },
  });
  return { to: o.to, subject: o.reminder ? t.reminderSubject(c) : t.subject(c), html, text };
}
