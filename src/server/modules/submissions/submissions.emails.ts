import type { TLanguage } from '../../../contract/constants.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

const TEXT = {
  en: {
    subject: (c: string) => `${c} sent you a video testimonial`,
    heading: 'New testimonial received',
    body: (n: string, c: string, a: number) => [
      `Hello ${n},`,
      `${c} has just recorded ${a} video ${a > 1 ? 'answers' : 'answer'} for you. Open the testimonial to watch it, then turn it into branded videos.`,
    ],
    button: 'Open the testimonial',
    linkHint: 'If the button does not work, copy this link into your browser:',
    footer: (b: string) => `You receive this e-mail because a customer answered one of your ${b} requests.`,
  },
  fr: {
    subject: (c: string) => `${c} vous a envoyé un témoignage vidéo`,
    heading: 'Nouveau témoignage reçu',
    body: (n: string, c: string, a: number) => [
      `Bonjour ${n},`,
      `${c} vient d'enregistrer ${a} réponse${a > 1 ? 's' : ''} vidéo pour vous. Ouvrez le témoignage pour le regarder, puis transformez-le en vidéos à vos couleurs.`,
    ],
    button: 'Ouvrir le témoignage',
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    footer: (b: string) => `Vous recevez cet e-mail car un client a répondu à l'une de vos demandes ${b}.`,
  },
} as const;

export function newTestimonialEmail(o: {
  lang: TLanguage;
  brand: string;
  to: string;
  firstname: string;
  customerName: string;
  answers: number;
  url: string;
}): MailMessage {
  const t = TEXT[o.lang];
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: t.heading,
    paragraphs: [...t.body(o.firstname, o.customerName, o.answers)],
    button: { label: t.button, url: o.url },
    linkHint: t.linkHint,
    footer: t.footer(o.brand),
  });
  return { to: o.to, subject: t.subject(o.customerName), html, text };
}
