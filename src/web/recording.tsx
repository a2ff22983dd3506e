import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/theme.css';
import { RecordingApp, slugFromPath, tokenFromPath } from './app/recording-app';
import { initRecordingI18n } from './i18n/recording-i18n';

/**
 * The entry of the customer's recording page (recording.html, answered by the server for
 * /testimonial/submit/:token; docs/decisions/125). The messages of one language come first (written
 * into the page by the server, else a small chunk; docs/decisions/139 and 140), then the page
 * renders (it checks the link itself).
 */
const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from recording.html.');

const token = tokenFromPath(window.location.pathname);
const slug = slugFromPath(window.location.pathname);
void initRecordingI18n().then((language) => {
  const root = createRoot(container);
  // Rendered in slices that yield to the browser (docs/decisions/150).
  startTransition(() => root.render(<RecordingApp token={token} slug={slug} language={language} />));
});
