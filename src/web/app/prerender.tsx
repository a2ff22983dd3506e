import { QueryClientProvider } from '@tanstack/react-query';
import { createInstance } from 'i18next';
import type { ResourceKey } from 'i18next';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { LANGUAGES } from '../../contract/constants.js';
import type { TLanguage } from '../../contract/constants.js';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { createQueryClient } from '../lib/query-client';
import { routes } from './router';

/**
 * The public pages rendered to HTML at build time (docs/decisions/152): the build (scripts/vite-
 * plugins.ts, `prerenderPages`) renders each page of PRERENDERED_PAGES once per language into the
 * app's index.html, the server sends the visitor's language's copy, and main.tsx hydrates it. The
 * first screen then paints from the HTML and its stylesheet alone, before any script has arrived.
 * The tree is the one main.tsx renders (StrictMode, translations, server state, the router), so the
 * browser's first render matches the HTML.
 */

/** Each prerendered path and the name of its files (`landing.en.html`…; src/server/http/web-app.ts reads the same). */
export const PRERENDERED_PAGES = { '/': 'landing' } as const;
export const PRERENDERED_LANGUAGES = LANGUAGES;

const CATALOGUES: Record<TLanguage, ResourceKey> = { en, fr };

/** The page's markup for `#root` and the metadata React hoists into `<head>` (title, description, robots). */
export interface PrerenderedPage {
  root: string;
  head: string;
}

/** The metadata React writes ahead of the markup when it renders without a document (title, meta, link). */
const HOISTED = /^(?:<title>[^<]*<\/title>|<(?:meta|link)\b[^>]*>)+/;
/**
 * Tags that name an address (canonical, og:url, og:image…) need the origin the page is served from,
 * which the build does not know: they are left out, and the browser adds them when it hydrates
 * (components/seo.tsx).
 */
const NAMES_AN_ADDRESS = /\s(?:href|content)="\//;

export async function prerender(pathname: string, language: TLanguage): Promise<PrerenderedPage> {
  if (!LANGUAGES.includes(language)) throw new Error(`prerender: no catalogue for ${language}`);
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    supportedLngs: [...LANGUAGES],
    fallbackLng: false,
    resources: { [language]: { translation: CATALOGUES[language] } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`prerender: ${pathname} answered with a redirect or an error`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={createQueryClient()}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
  // React writes the page's metadata ahead of its markup; it goes into <head> instead.
  const hoisted = HOISTED.exec(html)?.[0] ?? '';
  const head = (hoisted.match(/<title>[^<]*<\/title>|<(?:meta|link)\b[^>]*>/g) ?? []).filter((tag) => !NAMES_AN_ADDRESS.test(tag)).join('');
  return { root: html.slice(hoisted.length), head };
}
