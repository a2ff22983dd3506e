// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n/i18n';
import { ReminderSettingsCard } from './reminder-settings';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The automatic reminders card of the settings screen (issue 30), with the real component and
 * translations against a stand-in for the HTTP API: defaults shown, bad days refused in place before any
 * call, the saved value sent as the contract says, the server's translated reason shown in French.
 */

type Reply = { status: number; body: unknown };

function stubApi(routes: Record<string, Reply[]>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const queue = routes[`${method} ${path}`];
    if (!queue?.length) throw new Error(`unexpected call ${method} ${path}`);
    const { status, body } = queue.length > 1 ? queue.shift()! : queue[0]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

function renderCard() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ReminderSettingsCard />
    </QueryClientProvider>,
  );
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the automatic reminders card', () => {
  it('shows the company days and zone, refuses days out of order in place, and saves a third reminder', async () => {
    const calls = stubApi({
      ['GET /api/user/reminder-settings']: [{ status: 200, body: { reminder_days: [3, 7], time_zone: 'Europe/Paris' } }],
      ['PUT /api/user/reminder-settings']: [{ status: 200, body: { reminder_days: [3, 7, 14], time_zone: 'Europe/Paris' } }],
    });
    renderCard();
    const first = (await screen.findByLabelText('Reminder 1')) as HTMLInputElement;
    expect(first.value).toBe('3');
    expect((screen.getByLabelText('Reminder 2') as HTMLInputElement).value).toBe('7');
    expect((screen.getByLabelText('Time zone') as HTMLSelectElement).value).toBe('Europe/Paris');
    expect(screen.getByRole('switch', { name: 'Remind customers automatically' }).getAttribute('aria-checked')).toBe('true');

    fireEvent.change(first, { target: { value: '8' } });
    fireEvent.click(screen.getByTestId('reminder-save'));
    expect(await screen.findByText(/later than the reminder before/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    fireEvent.change(first, { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('reminder-add-day'));
    expect((screen.getByLabelText('Reminder 3') as HTMLInputElement).value).toBe('14');
    expect(screen.queryByTestId('reminder-add-day')).toBeNull(); // three at most
    fireEvent.click(screen.getByTestId('reminder-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/api/user/reminder-settings', body: { reminder_days: [3, 7, 14], time_zone: 'Europe/Paris' } });
  });

  it('turns reminders off with an empty list, and shows the server reason in French', async () => {
    await i18n.changeLanguage('fr');
    const calls = stubApi({
      ['GET /api/user/reminder-settings']: [{ status: 200, body: { reminder_days: [3, 7], time_zone: 'Europe/Paris' } }],
      ['PUT /api/user/reminder-settings']: [{ status: 400, body: { error: 'Choose a time zone from the list.', code: 'invalid_data', reason: 'time_zone_invalid', field: 'time_zone' } }],
    });
    renderCard();
    const toggle = await screen.findByRole('switch', { name: 'Relancer les clients automatiquement' });
    fireEvent.click(toggle);
    expect(screen.queryByLabelText('Relance 1')).toBeNull();
    fireEvent.click(screen.getByTestId('reminder-save'));
    expect((await screen.findByTestId('reminder-settings-save-error')).textContent).toContain('Choisissez un fuseau horaire dans la liste.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ reminder_days: [], time_zone: 'Europe/Paris' });
  });
});
