import type { TLanguage } from '../../../contract/constants.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

const WHAT = {
  en: { intro: 'the answer with its intro', regenerate: 'the regenerated answer', merge: 'the merged video', regenerate_merged: 'the regenerated merged video', export: 'the social media export', subtitles: 'the subtitled answer', merge_subtitles: 'the merged video with subtitles' },
  fr: { intro: "la réponse avec son intro", regenerate: 'la réponse régénérée', merge: 'la vidéo fusionnée', regenerate_merged: 'la vidéo fusionnée régénérée', export: "l'export pour les réseaux sociaux", subtitles: 'la réponse sous-titrée', merge_subtitles: 'la vidéo fusionnée sous-titrée' },
} as const;

export type OutputKind = keyof (typeof WHAT)['en'];

/** 'Your video is ready', in the company's mail language, with a link to the testimonial. */
export function videoReadyEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; customerName: string; kind: OutputKind; url: string }): MailMessage {
  const en = o.lang === 'en';
  const what = WHAT[o.lang][o.kind];
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: en ? 'Your video is ready' : 'Votre vidéo est prête',
    paragraphs: en
      ? [`Hello ${o.firstname},`, `${what[0]!.toUpperCase()}${what.slice(1)} for ${o.customerName}'s testimonial is ready to watch and download.`]
      : [`Bonjour ${o.firstname},`, `${what[0]!.toUpperCase()}${what.slice(1)} du témoignage de ${o.customerName} est prête à être regardée et téléchargée.`],
    button: { label: en ? 'Open the testimonial' : 'Ouvrir le témoignage', url: o.url },
    linkHint: en ? 'If the button does not work, copy this link into your browser:' : 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    footer: en ? `You receive this e-mail because you started a video in ${o.brand}.` : `Vous recevez cet e-mail car vous avez lancé une vidéo dans ${o.brand}.`,
  });
  return { to: o.to, subject: en ? `Your video is ready: ${o.customerName}` : `Votre vidéo est prête : ${o.customerName}`, html, text };
}
