/**
 * @font-face rules of the ten preview fonts, from the same `@fontsource` packages the renderer reads.
 * Only the Latin subset, as the renderer uses, and only the weights it has: the question card draws the
 * 700 file when it exists and the 400 file otherwise; subtitles (libass) embolden a regular face
 * themselves, as the browser does.
 *
 * Imported by the settings screen only: the rules travel in its chunk's stylesheet, and a font file is
 * fetched only when the preview draws with it.
 */
import '@fontsource/anton/latin-400.css';
import '@fontsource/archivo-black/latin-400.css';
import '@fontsource/arimo/latin-400.css';
import '@fontsource/arimo/latin-700.css';
import '@fontsource/comic-neue/latin-400.css';
import '@fontsource/comic-neue/latin-700.css';
import '@fontsource/cousine/latin-400.css';
import '@fontsource/cousine/latin-700.css';
import '@fontsource/dejavu-mono/latin-400.css';
import '@fontsource/dejavu-mono/latin-700.css';
import '@fontsource/dejavu-sans/latin-400.css';
import '@fontsource/dejavu-sans/latin-700.css';
import '@fontsource/fira-sans/latin-400.css';
import '@fontsource/fira-sans/latin-700.css';
import '@fontsource/gelasio/latin-400.css';
import '@fontsource/gelasio/latin-700.css';
import '@fontsource/tinos/latin-400.css';
import '@fontsource/tinos/latin-700.css';
