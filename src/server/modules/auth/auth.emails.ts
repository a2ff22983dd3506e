import type { TLanguage } from '../../../contract/constants.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

const TEXT = {
  en: {
    confirmSubject: (brand: string) => `Confirm your e-mail address for ${brand}`,
    confirmHeading: 'Confirm your e-mail address',
    confirmBody: (name: string, brand: string) => [
      `Hello ${name},`,
      `Welcome to ${brand}! Please confirm your e-mail address to activate your account. The link is valid for 24 hours and works once.`,
    ],
    confirmButton: 'Confirm my e-mail',
    resetSubject: (brand: string) => `Reset your ${brand} password`,
    resetHeading: 'Reset your password',
    resetBody: (name: string) => [
      `Hello ${name},`,
      'Someone asked to reset the password of your account. If it was you, choose a new password with the button below. The link is valid for 1 hour and works once.',
      'If you did not ask for this, you can ignore this e-mail: your password stays the same.',
    ],
    resetButton: 'Choose a new password',
    linkHint: 'If the button does not work, copy this link into your browser:',
    footer: (brand: string) => `You receive this e-mail because of an action on your ${brand} account.`,
  },
  fr: {
    confirmSubject: (brand: string) => `Confirmez votre adresse e-mail pour ${brand}`,
    confirmHeading: 'Confirmez votre adresse e-mail',
    confirmBody: (name: string, brand: string) => [
      `Bonjour ${name},`,
      `Bienvenue sur ${brand} ! Confirmez votre adresse e-mail pour activer votre compte. Le lien est valable 24 heures et ne fonctionne qu'une fois.`,
    ],
    confirmButton: 'Confirmer mon adresse',
    resetSubject: (brand: string) => `Réinitialisez votre mot de passe ${brand}`,
    resetHeading: 'Réinitialisez votre mot de passe',
    resetBody: (name: string) => [
      `Bonjour ${name},`,
      "Une demande de réinitialisation du mot de passe de votre compte a été faite. Si c'est vous, choisissez un nouveau mot de passe avec le bouton ci-dessous. Le lien est valable 1 heure et ne fonctionne qu'une fois.",
      "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.",
    ],
    resetButton: 'Choisir un nouveau mot de passe',
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    footer: (brand: string) => `Vous recevez cet e-mail suite à une action sur votre compte ${brand}.`,
  },
} as const;

export function confirmationEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; url: string }): MailMessage {
  const t = TEXT[o.lang];
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: t.confirmHeading,
    paragraphs: [...t.confirmBody(o.firstname, o.brand)],
    button: { label: t.confirmButton, url: o.url },
    linkHint: t.linkHint,
    footer: t.footer(o.brand),
  });
  return { to: o.to, subject: t.confirmSubject(o.brand), html, text };
}

export function resetPasswordEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; url: string }): MailMessage {
  const t = TEXT[o.lang];
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: t.resetHeading,
    paragraphs: [...t.resetBody(o.firstname)],
    button: { label: t.resetButton, url: o.url },
    linkHint: t.linkHint,
    footer: t.footer(o.brand),
  });
  return { to: o.to, subject: t.resetSubject(o.brand), html, text };
}
