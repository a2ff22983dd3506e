import type { TExportPlatform } from '../../../contract/api/studio.schema.js';
import type { TLanguage } from '../../../contract/constants.js';
import { t } from '../../mail/i18n.js';
import { renderEmail } from '../../mail/layout.js';
import type { MailMessage } from '../../mail/mailer.js';

/**
 * What a finished render's output is, as its 'ready' e-mail names it (`videoReady.outputs.<output>`):
 * an answer's enhanced version with its intro, its intro and subtitles, or its subtitles only; the merged
 * video with or without subtitles; an export for a platform.
 */
export type ReadyOutput = 'intro' | 'intro_subtitles' | 'subtitles' | 'merge' | 'merged_subtitles' | `export_${TExportPlatform}` | 'draft';

/** One video in a 'ready' e-mail: what it is, the (shortened) question of its answer, and whether an export is of the original recording. */
export interface ReadyItem {
  output: ReadyOutput;
  /** The question of the answer it is made from; null for the testimonial's own videos (merges and their exports). */
  question: string | null;
  original: boolean;
}

/** The line of one video: its name, and the answer's question or 'of the merged video'. */
function itemLine(tr: ReturnType<typeof t>, item: ReadyItem): string {
  const output = tr(`videoReady.outputs.${item.output}`);
  if (item.question !== null) return tr(item.original ? 'videoReady.itemAnswerOriginal' : 'videoReady.itemAnswer', { output, question: item.question });
  return item.output.startsWith('export_') ? tr('videoReady.itemMerged', { output }) : output;
}

/**
 * 'Your videos are ready', in the company's mail language: the subject names the video ("Intro with
 * subtitles — Sarah Miller") or counts them ("3 videos ready — Sarah Miller"); the body lists each one,
 * with a link to the testimonial.
 */
export function readyVideosEmail(o: { lang: TLanguage; brand: string; to: string; firstname: string; customerName: string; items: ReadyItem[]; url: string }): MailMessage {
  const tr = t(o.lang);
  const count = o.items.length;
  const { html, text } = renderEmail({
    lang: o.lang,
    brand: o.brand,
    heading: tr('videoReady.heading', { count }),
    paragraphs: [tr('common.hello', { name: o.firstname }), tr('videoReady.body', { count, customerName: o.customerName }), ...o.items.map((item) => `• ${itemLine(tr, item)}`)],
    button: { label: tr('videoReady.button'), url: o.url },
    linkHint: tr('common.linkHint'),
    // A draft alone was started by nobody: the testimonial's unlocking made it (issue 31).
    footer: tr(o.items.every((item) => item.output === 'draft') ? 'videoReady.footerDraft' : 'videoReady.footer', { brand: o.brand }),
  });
  const subject = tr('videoReady.subject', { count, customerName: o.customerName, output: count === 1 ? tr(`videoReady.outputs.${o.items[0]!.output}`) : '' });
  return { to: o.to, subject, html, text };
}
