import { EXPORT_PLATFORMS } from '../../contract/api/studio.schema.js';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../contract/constants.js';
import mailEn from '../../web/i18n/mail.en.json' with { type: 'json' };
import mailFr from '../../web/i18n/mail.fr.json' with { type: 'json' };
import { confirmationEmail, resetPasswordEmail } from '../modules/auth/auth.emails.js';
import { invitationEmail } from '../modules/requests/requests.emails.js';
import { readyVideosEmail, type ReadyItem, type ReadyOutput } from '../modules/studio/studio.emails.js';
import { answerRemovalEmail, approvalDecidedEmail, consentWithdrawnEmail, receiptEmail } from '../modules/consent/customer.emails.js';
import { newTestimonialEmail } from '../modules/submissions/submissions.emails.js';
import { approvalEmail } from '../modules/consent/approvals.emails.js';
import { emailCodeEmail } from '../modules/collection/collection.emails.js';
import { memberInvitationEmail } from '../modules/members/members.emails.js';
import { webhookDisabledEmail } from '../modules/webhooks/webhooks.emails.js';
import { t } from './i18n.js';
import type { MailMessage } from './mailer.js';

/** A name a customer may type: markup, an ampersand, quotes, and what looks like i18next syntax. */
const NAME = `Zoë <b>&"O'Brien"</b> {{brand}} $t(common.linkHint)`;
const NAME_HTML = 'Zoë &lt;b&gt;&amp;&quot;O&#39;Brien&quot;&lt;/b&gt; {{brand}} $t(common.linkHint)';
const COMPANY = 'Bloom & <Co>';
const GIFT = 'a 10% <voucher> & "more"';
const QUESTION = 'What did you like <most> & why?';
const UNSUBSCRIBE = { requestId: '00000000-0000-4000-8000-000000000001', url: 'http://x.test/unsubscribe/a.b', headers: { 'List-Unsubscribe': '<http://x.test/unsubscribe/a.b>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
const QUESTION_HTML = 'What did you like &lt;most&gt; &amp; why?';
/** Every output a 'ready' e-mail can name. */
const OUTPUTS: ReadyOutput[] = ['intro', 'intro_subtitles', 'subtitles', 'merge', 'merged_subtitles', 'draft', ...EXPORT_PLATFORMS.map((p) => `export_${p}` as const)];
/** The answer's outputs and the exports name the question of their answer; the merges do not. */
const itemOf = (output: ReadyOutput): ReadyItem => ({ output, question: output.startsWith('merge') ? null : QUESTION, original: false });
/** A burst: an answer's intro with subtitles, an export of its original recording, and the merged video with its LinkedIn export. */
const BURST: ReadyItem[] = [
  { output: 'intro_subtitles', question: QUESTION, original: false },
  { output: 'export_shorts', question: QUESTION, original: true },
  { output: 'merge', question: null, original: false },
  { output: 'export_linkedin', question: null, original: false },
];

type Rendered = { name: string; lang: string; mail: MailMessage; raw: string[] };

/** Every e-mail the server sends, in every language and variant (plurals with 1 and 3, reminder, gift). */
function renderAll(): Rendered[] {
  const out: Rendered[] = [];
  for (const lang of LANGUAGES) {
    const add = (name: string, mail: MailMessage, raw: string[]) => out.push({ name: `${name} (${lang})`, lang, mail, raw });
    add('confirmation', confirmationEmail({ lang, brand: 'Vouchreel', to: 'a@b.test', firstname: NAME, url: 'http://x.test/confirm?token=a&b=1' }), [NAME]);
    add('reset', resetPasswordEmail({ lang, brand: 'Vouchreel', to: 'a@b.test', firstname: NAME, url: 'http://x.test/reset#access_token=a' }), [NAME]);
    for (const role of ['owner', 'editor', 'viewer'] as const) {
      add(
        `member invitation ${role}`,
        memberInvitationEmail({ lang, brand: 'Vouchreel', to: 'e@f.test', inviter: NAME, company: COMPANY, role, url: 'http://x.test/invitation#token=a' }),
        [NAME, COMPANY],
      );
    }
    for (const reminder of [false, true]) {
      for (const questionCount of [1, 3]) {
        add(
          `invitation${reminder ? ' reminder' : ''} ${questionCount}q`,
          invitationEmail({
            lang,
            brand: 'Vouchreel',
            to: 'c@d.test',
            customerName: NAME,
            company: { name: COMPANY, logoUrl: 'https://cdn.test/logo.png?a=1&b=2' },
            gift: GIFT,
            url: 'http://x.test/r/token',
            expiresAt: new Date('2025-03-07T23:30:00Z'),
            questionCount,
            reminder,
            unsubscribe: UNSUBSCRIBE,
          }),
          [NAME, COMPANY, GIFT],
        );
      }
    }
    const ready = (items: ReadyItem[]) => readyVideosEmail({ lang, brand: 'Vouchreel', to: 'o@x.test', firstname: 'Bob', customerName: NAME, items, url: 'http://x.test/t/1' });
    for (const output of OUTPUTS) add(`video ready ${output}`, ready([itemOf(output)]), [NAME]);
    add('video ready burst', ready(BURST), [NAME, QUESTION]);
    // Issue 32: an endpoint failing for days, turned off (its address is the company's, written as text).
    for (const days of [1, 5]) {
      add(`webhook disabled ${days}d`, webhookDisabledEmail({ lang, brand: 'Vouchreel', to: 'o@x.test', firstname: NAME, endpointUrl: 'https://hooks.example.com/a?b=<c>&d', days, url: 'http://x.test/settings' }), [NAME, 'https://hooks.example.com/a?b=<c>&d']);
    }
    for (const answers of [1, 3]) {
      add(`new testimonial ${answers}a`, newTestimonialEmail({ lang, brand: 'Vouchreel', to: 'o@x.test', firstname: 'Bob', customerName: NAME, answers, url: 'http://x.test/t/1' }), [NAME]);
    }
    // Issue 29: the customer's receipt, and what the company is told of the customer's actions.
    for (const answers of [1, 3]) {
      const receipt = receiptEmail({
        lang,
        brand: 'Vouchreel',
        to: 'c@d.test',
        name: NAME,
        company: { name: COMPANY, logoUrl: null },
        answers: Array.from({ length: answers }, (_, i) => ({ question: QUESTION, seconds: 12 + i })),
        consent: { text: `I authorise ${COMPANY}`, acceptedAt: new Date('2025-03-07T10:30:00Z') },
        pageUrl: 'http://x.test/my-testimonial/token',
        unsubscribe: UNSUBSCRIBE,
      });
      add(`receipt ${answers}a`, receipt, [NAME, COMPANY, QUESTION]);
    }
    // Issue 30: the code a collection link's customer confirms their e-mail with.
    const code = emailCodeEmail({ lang, brand: 'Vouchreel', to: 'c@d.test', customerName: NAME, company: { name: COMPANY, logoUrl: null }, code: '482913', minutes: 15, unsubscribe: UNSUBSCRIBE });
    add('collection code', code, [NAME, COMPANY]);
    const company = { lang, brand: 'Vouchreel', to: 'o@x.test', firstname: 'Bob', customerName: NAME, url: 'http://x.test/t/1' };
    const at = new Date('2025-03-07T10:30:00Z');
    for (const [unpublished, retentionDays] of [[1, 1], [3, 30], [0, 0]] as const) {
      add(`consent withdrawn ${unpublished}p ${retentionDays}d`, consentWithdrawnEmail({ ...company, at, unpublished, retentionDays }), [NAME]);
    }
    for (const unpublished of [1, 3]) add(`answer removal ${unpublished}p`, answerRemovalEmail({ ...company, question: QUESTION, unpublished }), [NAME, QUESTION]);
    add('approval approved', approvalDecidedEmail({ ...company, approved: true, comment: null }), [NAME]);
    add('approval changes', approvalDecidedEmail({ ...company, approved: false, comment: 'Cut <the> end & "more"' }), [NAME, 'Cut <the> end & "more"']);
    for (const reminder of [false, true]) {
      const asked = approvalEmail({ lang, brand: 'Vouchreel', to: 'c@d.test', customerName: NAME, company: { name: COMPANY, logoUrl: null }, url: 'http://x.test/approve/token', reminder, unsubscribe: UNSUBSCRIBE });
      add(`approval asked${reminder ? ' (reminder)' : ''}`, asked, [NAME, COMPANY]);
    }
  }
  return out;
}

type Tree = { [key: string]: string | Tree };
const leaves = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`)));

describe('e-mails from the i18next catalogue (src/web/i18n/mail.<lang>.json)', () => {
  const all = renderAll();

  it('renders every e-mail in both languages with a subject, an HTML and a text part, and no missing key', () => {
    expect(all).toHaveLength(2 * (2 + 4 + OUTPUTS.length + 1 + 2 + 2 + 3 + 2 + 2 + 2 + 1 + 3 + 2));
    for (const { name, mail } of all) {
      expect(mail.subject.trim(), name).not.toBe('');
      expect(mail.html, name).toContain('<h1');
      expect(mail.text.trim(), name).not.toBe('');
      for (const part of [mail.subject, mail.html, mail.text]) {
        expect(part, name).not.toMatch(/mail:[\w.]+/); // i18next's missing-key fallback
        expect(part.replaceAll('{{brand}}', ''), name).not.toContain('{{');
      }
    }
  });

  it('gives every e-mail to a customer the RFC 8058 headers, the request id and a visible unsubscribe link (issue 30), and none to the company', () => {
    const toCustomer = /^(invitation|receipt|approval asked|collection code)/;
    const customerMails = all.filter(({ name }) => toCustomer.test(name));
    expect(customerMails).toHaveLength(2 * (4 + 2 + 2 + 1));
    for (const { name, mail } of customerMails) {
      expect(mail.headers, name).toEqual(UNSUBSCRIBE.headers);
      expect(mail.requestId, name).toBe(UNSUBSCRIBE.requestId);
      expect(mail.html, name).toContain(`<a href="${UNSUBSCRIBE.url}"`);
      expect(mail.text, name).toContain(UNSUBSCRIBE.url);
      expect(mail.text, name).toMatch(/Unsubscribe: no more reminders|Se désabonner\u00a0: plus aucune relance/);
    }
    for (const { name, mail } of all.filter(({ name }) => !toCustomer.test(name))) {
      expect(mail.headers, name).toBeUndefined();
      expect(mail.html, name).not.toContain('/unsubscribe/');
    }
  });

  it('escapes customer values in the HTML once, keeps them raw in the text part, and never interprets them', () => {
    for (const { name, mail, raw } of all) {
      expect(mail.html, name).toContain(NAME_HTML);
      expect(mail.html, name).not.toContain('<b>');
      expect(mail.text, name).toContain(NAME);
      for (const value of raw) {
        expect(mail.text, name).toContain(value);
        expect(mail.html, name).not.toContain(value);
      }
    }
    const invitation = all.find((r) => r.name === 'invitation 3q (en)')!.mail;
    expect(invitation.html).toContain('Bloom &amp; &lt;Co&gt;');
    expect(invitation.html).toContain('As a thank-you: a 10% &lt;voucher&gt; &amp; &quot;more&quot;');
    expect(invitation.html).toContain('src="https://cdn.test/logo.png?a=1&amp;b=2"');
    expect(invitation.subject).toBe('Bloom & <Co> would love a short video from you');
  });

  it('keeps the wording, plurals and dates of each language', () => {
    const get = (name: string) => all.find((r) => r.name === name)!.mail;
    expect(get('confirmation (en)').subject).toBe('Confirm your e-mail address for Vouchreel');
    expect(get('confirmation (fr)').text).toContain(
      "Bienvenue sur Vouchreel\u00a0! Confirmez votre adresse e-mail pour activer votre compte. Le lien est valable 24 heures et ne fonctionne qu'une fois.",
    );
    expect(get('reset (fr)').subject).toBe('Réinitialisez votre mot de passe Vouchreel');
    expect(get('invitation 1q (en)').text).toContain('testimonial: 1 question, up to 20 seconds each');
    expect(get('invitation 3q (en)').text).toContain('testimonial: 3 questions, up to 20 seconds each');
    expect(get('invitation 1q (fr)').text).toContain('témoignage vidéo\u00a0: 1 question, 20 secondes maximum chacune');
    expect(get('invitation 3q (fr)').text).toContain('témoignage vidéo\u00a0: 3 questions, 20 secondes maximum chacune');
    expect(get('invitation 1q (en)').text).toContain('The link is personal and works until 7 March 2025.');
    expect(get('invitation 1q (fr)').text).toContain("Ce lien est personnel et reste valable jusqu'au 7 mars 2025.");
    expect(get('invitation reminder 1q (fr)').subject).toBe('Rappel\u00a0: Bloom & <Co> attend votre vidéo');
    expect(get('new testimonial 1a (en)').text).toContain('has just recorded 1 video answer for you.');
    expect(get('new testimonial 3a (fr)').text).toContain("vient d'enregistrer 3 réponses vidéo pour vous.");
    // A 'ready' e-mail names its video in the subject, or counts them, and lists each one.
    expect(get('video ready intro_subtitles (en)').subject).toBe(`Intro with subtitles — ${NAME}`);
    expect(get('video ready intro_subtitles (fr)').subject).toBe(`Intro avec sous-titres — ${NAME}`);
    expect(get('video ready export_shorts (en)').subject).toBe(`Shorts/Reels/TikTok export (9:16) — ${NAME}`);
    expect(get('video ready export_linkedin (fr)').subject).toBe(`Export LinkedIn (16:9) — ${NAME}`);
    expect(get('video ready merged_subtitles (en)').text).toContain(`This video of ${NAME}'s testimonial is ready to watch and download:\n\n• Merged video with subtitles\n`);
    // A draft alone was started by nobody: its e-mail says why it came (issue 31).
    expect(get('video ready draft (en)').subject).toBe(`Draft, ready to post — ${NAME}`);
    expect(get('video ready draft (en)').text).toContain('because a testimonial was unlocked in');
    expect(get('video ready draft (fr)').subject).toBe(`Brouillon prêt à publier — ${NAME}`);
    expect(get('video ready draft (fr)').text).toContain('un témoignage a été débloqué dans');
    expect(get('video ready merge (en)').text).toContain('because you started a video in');
    expect(get('video ready burst (en)').subject).toBe(`4 videos ready — ${NAME}`);
    expect(get('video ready burst (en)').text).toContain(
      [
        `These 4 videos of ${NAME}'s testimonial are ready to watch and download:`,
        `• Intro with subtitles — “${QUESTION}”`,
        `• Shorts/Reels/TikTok export (9:16) of the original recording — “${QUESTION}”`,
        '• Merged video',
        '• LinkedIn export (16:9) of the merged video',
      ].join('\n\n'),
    );
    expect(get('video ready burst (en)').html).toContain(`• Intro with subtitles — “${QUESTION_HTML}”`);
    // French typography: a no-break space before the colon and inside the guillemets, the typographic apostrophe.
    expect(get('video ready burst (fr)').subject).toBe(`4 vidéos prêtes — ${NAME}`);
    expect(get('video ready burst (fr)').text).toContain(
      [
        `Ces 4 vidéos du témoignage de ${NAME} sont prêtes à être regardées et téléchargées\u00a0:`,
        `• Intro avec sous-titres — «\u00a0${QUESTION}\u00a0»`,
        `• Export Shorts/Reels/TikTok (9:16) de l’enregistrement original — «\u00a0${QUESTION}\u00a0»`,
        '• Vidéo fusionnée',
        '• Export LinkedIn (16:9) de la vidéo fusionnée',
      ].join('\n\n'),
    );
    expect(get('video ready intro (fr)').text).toContain('Votre vidéo est prête');
    expect(get('video ready burst (fr)').text).toContain('Vos vidéos sont prêtes');
    expect(get('video ready intro (fr)').html).toContain('Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:');
    // One name per output, in each language.
    for (const lang of LANGUAGES) {
      const subjects = OUTPUTS.map((output) => get(`video ready ${output} (${lang})`).subject);
      expect(new Set(subjects).size).toBe(OUTPUTS.length);
    }
  });

  it('uses every text of the catalogue in some e-mail', () => {
    const unescape = (html: string) =>
      html.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
    const texts = all.map((r) => [r.mail.subject, r.mail.text, unescape(r.mail.html)].join('\n')).join('\n');
    for (const [catalogue, lang] of [
      [mailEn, 'en'],
      [mailFr, 'fr'],
    ] as const) {
      for (const [key, value] of leaves(catalogue as Tree)) {
        // The longest literal piece between placeholders must appear in an e-mail of that language.
        const piece = value.split(/\{\{[^}]*\}\}/).sort((a, b) => b.length - a.length)[0]!;
        expect(texts.includes(piece), `${lang}: ${key}`).toBe(true);
      }
    }
  });

  it('shows a missing key as mail:<key>, the fallback the checks above look for', () => {
    expect(t('en')('nope.missing')).toBe('mail:nope.missing');
    expect(t('fr')('videoReady.outputs.unknown_kind')).toBe('mail:videoReady.outputs.unknown_kind');
  });
});
