import en from '../../web/i18n/en.json' with { type: 'json' };
import fr from '../../web/i18n/fr.json' with { type: 'json' };
import type { TLanguage } from '../../contract/constants.js';
import { html, raw } from '../lib/html.js';

/**
 * The customer's recording page with its messages in it (docs/decisions/140): the server writes the
 * messages of the language the page will start in into recording.html, so the page's first frame
 * does not wait for a second request after its script. The page reads them (src/web/i18n/
 * recording-i18n.ts) when they are in the language it detects, and loads its own chunk otherwise.
 */

/** Where recording.html takes the messages (a comment the build keeps; a page without it is sent as it is). */
export const RECORDING_MESSAGES_MARK = '<!--recording-messages-->';

type TCatalogue = typeof en;

/** The parts of a catalogue the recording page reads, as src/web/i18n/recording-messages.{en,fr}.ts pick them. */
function recordingPart(catalogue: TCatalogue) {
  const { common, meta, recording, collectPage, errors } = catalogue;
  return {
    common,
    meta,
    recording,
    collectPage,
    errors: { app: errors.app, reasons: errors.reasons },
  };
}

/** Each language's messages of the page, as they go into a `<script type="application/json">`. */
const MESSAGES_JSON: Record<TLanguage, string> = {
  // `<` escaped: no `</script>` or `<!--` can end the element early.
  en: JSON.stringify(recordingPart(en)).replace(/</g, '\\u003c'),
  fr: JSON.stringify(recordingPart(fr as TCatalogue)).replace(/</g, '\\u003c'),
};

/** For tests: the messages written into the page for `language`. */
export function recordingMessages(language: TLanguage): unknown {
  return JSON.parse(MESSAGES_JSON[language]) as unknown;
}

/** recording.html with the messages of `language` at its mark and `<html lang>` set; unchanged without the mark. */
export function withRecordingMessages(page: string, language: TLanguage): string {
  if (!page.includes(RECORDING_MESSAGES_MARK)) return page;
  const element = html`<script type="application/json" id="recording-messages" data-language="${language}">${raw(MESSAGES_JSON[language])}</script>`.value;
  return page.replace(RECORDING_MESSAGES_MARK, () => element).replace(/<html lang="[^"]*"/, `<html lang="${language}"`);
}
