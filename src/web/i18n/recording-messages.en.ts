import { collectPage, common, errors, meta, recording } from './en.json?recording';

/**
 * The recording page's messages in English: the parts of en.json its own entry reads. The query makes
 * the catalogue a module of its own for the bundler, which keeps only these parts of it (the app's
 * copy of the same file is whole). The same parts in every language (recording-entry.test.ts).
 */
export default { common, meta, recording, collectPage, errors: { app: errors.app, reasons: errors.reasons } };
