// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TWall, TWallItem } from '../../../../contract/api/wall.schema.js';
import i18n from '../../../i18n/i18n';
import { move, sameOrder, toggle, wallOrderOf } from './wall-order';
import { WallScreen } from './wall-screen';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/** The Wall screen (issue 19) against a stand-in for its two calls. */

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const item = (n: number, name: string, position: number | null): TWallItem => ({
  publicationId: id(n),
  testimonialId: id(n),
  name,
  title: 'Head of Marketing',
  kind: 'answer',
  question: 'What did you like?',
  quote: null,
  posterUrl: null,
  url: `http://app.test/v/slug${n}`,
  publishedAt: '2026-11-26T08:00:00.000Z',
  onWall: position !== null,
  position,
});
const wall = (items: TWallItem[]): TWall => ({
  slug: 'acme-abcdefghij',
  url: 'http://app.test/wall/acme-abcdefghij',
  embedUrl: 'http://app.test/embed/wall/acme-abcdefghij',
  snippet: '<div data-vouchreel-wall="acme-abcdefghij"></div>\n<script src="http://app.test/wall.js" async></script>',
  iframeSnippet: '<iframe src="http://app.test/embed/wall/acme-abcdefghij"></iframe>',
  items,
});

function renderScreen(initial: TWall) {
  const puts: unknown[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { items: string[] };
      puts.push(body);
      const byId = new Map(initial.items.map((i) => [i.publicationId, i]));
      const shown = body.items.map((x, index) => ({ ...byId.get(x)!, onWall: true, position: index + 1 }));
      const rest = initial.items.filter((i) => !body.items.includes(i.publicationId)).map((i) => ({ ...i, onWall: false, position: null }));
      return new Response(JSON.stringify(wall([...shown, ...rest])), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    expect(String(input)).toBe('/api/wall');
    return new Response(JSON.stringify(initial), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const router = createMemoryRouter([{ path: '/dashboard/wall', element: <WallScreen /> }], { initialEntries: ['/dashboard/wall'] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return puts;
}

const names = (testId: string) => screen.queryAllByTestId(testId).map((row) => within(row).getByTestId('wall-item-name').textContent?.split(' · ')[0]);

describe('the wall order', () => {
  it('moves, switches and compares', () => {
    expect(wallOrderOf([item(1, 'A', 2), item(2, 'B', null), item(3, 'C', 1)])).toEqual([id(3), id(1)]);
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(toggle(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggle(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(sameOrder(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameOrder(['a', 'b'], ['b', 'a'])).toBe(false);
  });
});

describe('the Wall screen', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('lists the videos on and off the wall, switches one off and saves the new order in one call', async () => {
    const puts = renderScreen(wall([item(1, 'Claire', 1), item(2, 'Marc', 2), item(3, 'Sofia', null)]));
    await screen.findAllByTestId('wall-row');
    expect(names('wall-row')).toEqual(['Claire', 'Marc']);
    expect(names('wall-off-row')).toEqual(['Sofia']);
    expect((screen.getByTestId('wall-save') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('wall-snippet')).toHaveProperty('value', expect.stringContaining('data-vouchreel-wall="acme-abcdefghij"'));
    expect(screen.getByTestId('wall-preview').getAttribute('href')).toBe('http://app.test/wall/acme-abcdefghij');

    // Marc off, Sofia on (at the end): unsaved until Save.
    const marc = screen.getAllByTestId('wall-row')[1]!;
    const marcSwitch = within(marc).getByRole('switch', { name: 'Show the video of Marc on the wall' });
    expect(marcSwitch.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(marcSwitch);
    fireEvent.click(screen.getByRole('switch', { name: 'Show the video of Sofia on the wall' }));
    expect(names('wall-row')).toEqual(['Claire', 'Sofia']);
    expect(names('wall-off-row')).toEqual(['Marc']);
    expect(screen.getByTestId('wall-dirty').textContent).toBe('Unsaved changes');
    fireEvent.click(screen.getByTestId('wall-save'));
    await waitFor(() => expect(puts).toEqual([{ items: [id(1), id(3)] }]));
    await waitFor(() => expect(screen.queryByTestId('wall-dirty')).toBeNull());
    expect(names('wall-row')).toEqual(['Claire', 'Sofia']);
  });

  it('says what to do when nothing is published, in French too', async () => {
    renderScreen(wall([]));
    expect(await screen.findByText('No published videos yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Go to testimonials/ }).getAttribute('href')).toBe('/dashboard/testimonials');
    cleanup();
    await i18n.changeLanguage('fr');
    renderScreen(wall([]));
    expect(await screen.findByText('Aucune vidéo publiée pour l’instant')).toBeTruthy();
  });
});
