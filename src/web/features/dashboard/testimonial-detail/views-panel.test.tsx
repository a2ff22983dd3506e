// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TViewSeriesResponse } from '../../../../contract/api/views.schema.js';
import i18n from '../../../i18n/i18n';
import { ViewsPanel } from './views-panel';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/** The views panel of the detail screen (issue 19) against a stand-in for its one call. */

const ID = '5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f';
const zero = { started: 0, p25: 0, p50: 0, p75: 0, p100: 0 };

function series(totals: typeof zero, published: number, today = zero): TViewSeriesResponse {
  const days = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(Date.UTC(2026, 10, 1 + i)).toISOString().slice(0, 10);
    const c = i === 29 ? today : zero;
    return { day, ...c, completed: c.p100 };
  });
  return { days, totals, published };
}

function renderPanel(body: TViewSeriesResponse) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    calls.push(String(input));
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ViewsPanel testimonialId={ID} enabled />
    </QueryClientProvider>,
  );
  return calls;
}

describe('views panel', () => {
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('says to publish first when nothing is published, and that nobody watched yet once it is', async () => {
    const calls = renderPanel(series(zero, 0));
    expect(await screen.findByText('Not published yet')).toBeTruthy();
    expect(calls).toEqual([`/api/testimonials/${ID}/views?days=30`]);
    cleanup();
    renderPanel(series(zero, 1));
    expect(await screen.findByText('Nobody has watched yet')).toBeTruthy();
  });

  it('shows the views, how far they got (completed) and the views per day, in English and French', async () => {
    const totals = { started: 4, p25: 4, p50: 3, p75: 2, p100: 1 };
    renderPanel(series(totals, 1, totals));
    expect((await screen.findByTestId('views-total')).textContent).toBe('4');
    expect(screen.getByTestId('views-completion').textContent).toBe('25% completed');
    expect(screen.getByText('Total views')).toBeTruthy();
    const steps = within(screen.getByTestId('views-funnel')).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['Started4 · 100%', 'Past 25%4 · 100%', 'Past 50%3 · 75%', 'Past 75%2 · 50%', 'Completed1 · 25%']);
    // The chart's numbers, for screen readers.
    const table = within(screen.getByTestId('views-chart')).getByRole('table');
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual(['DayViews', '30/114']);

    cleanup();
    await i18n.changeLanguage('fr');
    renderPanel(series(totals, 1, totals));
    expect((await screen.findByTestId('views-completion')).textContent).toMatch(/^25\s%\sde vues complètes$/u);
    expect(screen.getByText('Vues au total')).toBeTruthy();
    expect(within(screen.getByTestId('views-funnel')).getAllByRole('listitem').at(-1)!.textContent).toMatch(/^Vues complètes1 · 25\s%$/u);
    expect(screen.getByText('Vues par jour, 30 derniers jours')).toBeTruthy();
  });
});
