import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { DEFAULT_LANGUAGE } from '../contract/constants.js';
import './styles/theme.css';
import { Providers } from './app/providers';
import { router } from './app/router';
import { preloadHeroPoster } from './features/landing/demo-media';
import i18n, { i18nReady } from './i18n/i18n';
import { toSupportedLanguage } from './i18n/language';
import { paths } from './lib/paths';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html.');

// The router has started fetching the page's code and i18n its language's messages (both chunks,
// in parallel); on the landing page the hero's poster, its largest paint on a phone, joins them.
if (window.location.pathname === paths.home) preloadHeroPoster(toSupportedLanguage(i18n.language) ?? DEFAULT_LANGUAGE);

// The first render waits for the messages, so no page ever shows its keys.
// Rendered in slices that yield to the browser, so a slow phone never meets one long task (docs/decisions/150).
void i18nReady.then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    ),
  );
});
