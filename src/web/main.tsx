import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { DEFAULT_LANGUAGE } from '../contract/constants.js';
import './styles/theme.css';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { preloadHeroPoster } from './features/landing/demo-media';
import i18n, { i18nReady } from './i18n/i18n';
import { toSupportedLanguage } from './i18n/language';
import { paths } from './lib/paths';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

/** The language of the page the server sent already drawn (app/prerender.tsx, docs/decisions/152), if it did. */
const prerendered = toSupportedLanguage(container.dataset.prerendered);

// The router has started fetching the page's code and i18n its language's messages (both chunks,
// in parallel); on the landing page the hero's poster, its largest paint on a phone, joins them
// (a prerendered page's HTML asks for it itself).
if (!prerendered && window.location.pathname === paths.home) preloadHeroPoster(toSupportedLanguage(i18n.language) ?? DEFAULT_LANGUAGE);

// The first render waits for the messages, so no page ever shows its keys.
void i18nReady.then(async () => {
  // The HTML is taken over as it is when it is in the language the app starts in; otherwise (a
  // preference kept only in this browser's storage) the app draws its own.
  const hydrate = prerendered !== null && prerendered === toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language);
  const router = await createAppRouter({ prerendered: hydrate });
  const app = (
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>
  );
  // Drawn (or taken over) in slices that yield to the browser, so a slow phone never meets one long
  // task (docs/decisions/150 and 152).
  if (hydrate) {
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  const root = createRoot(container);
  startTransition(() => root.render(app));
});
