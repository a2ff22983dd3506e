// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TActivityEvent, TActivityPage } from '../../../../contract/api/activity.schema.js';
import i18n from '../../../i18n/i18n';
import { ActivityScreen } from './activity-screen';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The activity screen (issue 32) with the real component, router and translations against a stand-in
 * for GET /api/activity: sentences per event in both languages, filters written to the address and
 * sent to the API, "load more" following the cursor, and the empty and error states.
 */

const CAMILLE = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Camille Durand',
  email: 'camille@acme.test',
};
const TM = '22222222-2222-4222-8222-222222222222';
const subject = (over: Partial<TActivityEvent['subject']> = {}): TActivityEvent['subject'] => ({
  testimonialId: null,
  customerName: null,
  publicationId: null,
  memberEmail: null,
  role: null,
  previousRole: null,
  keyName: null,
  kind: null,
  ...over,
});
let n = 0;
const event = (type: TActivityEvent['type'], actor: TActivityEvent['actor'], over: Partial<TActivityEvent['subject']> = {}): TActivityEvent => ({
  id: `33333333-3333-4333-8333-${String(++n).padStart(12, '0')}`,
  type,
  at: new Date(Date.now() - n * 60_000).toISOString(),
  actor,
  subject: subject(over),
});

type Reply = { status: number; body: unknown };
function stubApi(reply: (url: URL) => Reply) {
  const calls: URL[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url);
    const { status, body } = reply(url);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

function renderScreen(initial = '/dashboard/activity') {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard/activity',
        element: (
          <>
            <ActivityScreen />
            <Where />
          </>
        ),
      },
    ],
    { initialEntries: [initial] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const page = (events: TActivityEvent[], nextCursor: string | null): TActivityPage => ({
  events,
  nextCursor,
  members: [{ id: CAMILLE.id, name: CAMILLE.name }],
});

beforeEach(async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  // Wide screen: the table.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    onchange: null,
    dispatchEvent: () => false,
  }));
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('activity screen', () => {
  it('writes one sentence per event, links the testimonial, and loads the next page with the cursor', async () => {
    const first = [
      event('publication.published', CAMILLE, {
        testimonialId: TM,
        customerName: 'Marie',
        publicationId: TM,
      }),
      event('consent.withdrawn', null, {
        testimonialId: TM,
        customerName: 'Marie',
      }),
      event('render.ready', null, {
        testimonialId: TM,
        customerName: 'Marie',
        kind: 'intro',
      }),
      event('member.role_changed', CAMILLE, {
        memberEmail: 'leo@acme.test',
        role: 'editor',
        previousRole: 'viewer',
      }),
      event('render.failed', CAMILLE, { testimonialId: TM, customerName: 'Marie', kind: 'export' }),
    ];
    const second = [event('api_key.created', CAMILLE, { keyName: 'Zapier' })];
    const calls = stubApi((url) => ({
      status: 200,
      body: url.searchParams.get('cursor') === 'c1' ? page(second, null) : page(first, 'c1'),
    }));
    renderScreen();

    const rows = await screen.findAllByTestId('activity-row');
    expect(rows).toHaveLength(5);
    const sentences = screen.getAllByTestId('activity-sentence').map((s) => s.textContent);
    expect(sentences).toEqual([
      'Camille Durand published Marie’s testimonial',
      'A customer withdrew consent (Marie)',
      'System: video ready for Marie’s testimonial',
      'Camille Durand changed leo@acme.test’s role from viewer to editor',
      // A render a member asked for is theirs (decision 223).
      'Camille Durand’s video of Marie’s testimonial failed',
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'View testimonial' }).getAttribute('href')).toBe(`/dashboard/testimonials/${TM}`);
    expect(within(rows[1]!).getByText('Customer')).toBeTruthy();
    expect(within(rows[2]!).getByText('System')).toBeTruthy();
    expect(within(rows[4]!).queryByText('System')).toBeNull();
    expect(within(rows[4]!).getByText('Camille Durand')).toBeTruthy();
    expect(within(rows[0]!).getByText('1 minute ago')).toBeTruthy();

    fireEvent.click(screen.getByTestId('activity-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(6));
    expect(screen.getAllByTestId('activity-sentence')[5]!.textContent).toBe('Camille Durand created the API key “Zapier”');
    expect(calls.map((c) => c.searchParams.get('cursor'))).toEqual([null, 'c1']);
    expect(screen.queryByTestId('activity-load-more')).toBeNull();
  });

  it('puts the filters in the address and sends them to the API; a filtered empty log offers to clear them', async () => {
    const calls = stubApi((url) => ({
      status: 200,
      body: url.searchParams.get('actor')
        ? page([], null)
        : page(
            [
              event('testimonial.paid', CAMILLE, {
                testimonialId: TM,
                customerName: 'Marie',
              }),
            ],
            null,
          ),
    }));
    renderScreen();
    await screen.findAllByTestId('activity-row');

    fireEvent.change(screen.getByLabelText('Events'), {
      target: { value: 'publishing' },
    });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('?group=publishing'));
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('type')).toBe('publication.published,publication.unpublished'));

    fireEvent.change(screen.getByLabelText('Member'), {
      target: { value: CAMILLE.id },
    });
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('actor')).toBe(CAMILLE.id));
    expect(screen.getByTestId('where').textContent).toBe(`?group=publishing&actor=${CAMILLE.id}`);
    expect(await screen.findByText('No activity matches these filters')).toBeTruthy();

    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(''));
    expect(await screen.findAllByTestId('activity-row')).toHaveLength(1);

    // The period: from the viewer's local midnight, 6 days before today for the last 7 days.
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: 'week' } });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('?period=week'));
    await waitFor(() => expect(calls.at(-1)!.searchParams.get('from')).not.toBeNull());
    const today = new Date();
    expect(new Date(calls.at(-1)!.searchParams.get('from')!).getTime()).toBe(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6).getTime());
  });

  it('reads a filter from the address, speaks French, and shows the empty and error states', async () => {
    await i18n.changeLanguage('fr');
    const calls = stubApi(() => ({
      status: 200,
      body: page(
        [
          event('publication.unpublished', CAMILLE, {
            testimonialId: TM,
            customerName: 'Marie',
          }),
        ],
        null,
      ),
    }));
    renderScreen('/dashboard/activity?group=publishing');
    expect((await screen.findByTestId('activity-sentence')).textContent).toBe('Camille Durand a dépublié le témoignage de Marie');
    expect(calls[0]!.searchParams.get('type')).toBe('publication.published,publication.unpublished');
    cleanup();

    stubApi(() => ({ status: 200, body: page([], null) }));
    renderScreen();
    expect(await screen.findByText('Rien ne s’est encore passé')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Envoyer une demande' })).toBeTruthy();
    cleanup();

    stubApi(() => ({
      status: 500,
      body: { error: 'boom', code: 'server_error' },
    }));
    renderScreen();
    expect(await screen.findByText('L’activité n’a pas pu être chargée.')).toBeTruthy();
  });
});
