// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n/i18n';
import { ApiKeysCard } from './api-keys-card';
import { renderWithQueries, stubApi } from './card-test-support';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The API keys card of the settings (issue 32), with the real component and translations against a
 * stand-in for the HTTP API: the list, a key created and shown once, revoking asks first.
 */

const renderCard = () => renderWithQueries(<ApiKeysCard />);

const ID = '11111111-1111-4111-8111-111111111111';
const listed = {
  id: ID,
  name: 'CRM sync',
  scope: 'read' as const,
  prefix: 'vr_live_0123456789ab',
  created_at: '2026-11-20T10:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
};
const FULL_KEY = `vr_live_0123456789ab_${'s'.repeat(43)}`;

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

describe('the API keys card', () => {
  it('creates a key and shows it once, with a Copy button and the warning; the list never shows it', async () => {
    const calls = stubApi({
      ['GET /api/api-keys']: [{ status: 200, body: { keys: [] } }, { status: 200, body: { keys: [listed] } }],
      ['POST /api/api-keys']: [{ status: 201, body: { ...listed, key: FULL_KEY } }],
    });
    renderCard();
    expect(await screen.findByTestId('api-keys-empty')).toBeTruthy();

    fireEvent.click(screen.getByTestId('api-keys-create'));
    const dialog = await screen.findByTestId('api-key-dialog');
    // An empty name is refused in place, before any call.
    fireEvent.click(within(dialog).getByTestId('api-key-submit'));
    expect(await within(dialog).findByText('Give the key a name.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('api-key-name'), { target: { value: '  CRM sync ' } });
    fireEvent.click(within(dialog).getByTestId('api-key-submit'));
    const shown = await screen.findByTestId('api-key-created');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'CRM sync', scope: 'read' });
    expect((within(shown).getByTestId('api-key-value') as HTMLTextAreaElement).value).toBe(FULL_KEY);
    expect(within(shown).getByTestId('api-key-copy').textContent).toContain('Copy');
    expect(shown.textContent).toContain('it will not be shown again');

    fireEvent.click(within(shown).getByTestId('api-key-done'));
    await waitFor(() => expect(screen.queryByTestId('api-key-created')).toBeNull());
    const row = await screen.findByTestId(`api-key-row-${ID}`);
    expect(row.textContent).toContain('CRM sync');
    expect(row.textContent).toContain('vr_live_0123456789ab');
    expect(row.textContent).toContain('never used');
    expect(document.body.textContent).not.toContain(FULL_KEY);

    // Opened again, the dialog asks for a new key: the old one is gone for good.
    fireEvent.click(screen.getByTestId('api-keys-create'));
    expect(await screen.findByTestId('api-key-dialog')).toBeTruthy();
    expect(document.body.textContent).not.toContain(FULL_KEY);
  });

  it('asks before revoking; cancel revokes nothing, confirm sends the DELETE', async () => {
    const calls = stubApi({
      ['GET /api/api-keys']: [{ status: 200, body: { keys: [listed] } }, { status: 200, body: { keys: [{ ...listed, revoked_at: '2026-11-28T10:00:00.000Z' }] } }],
      [`DELETE /api/api-keys/${ID}`]: [{ status: 204 }],
    });
    renderCard();
    fireEvent.click(await screen.findByTestId(`api-key-revoke-${ID}`));
    const ask = await screen.findByTestId('api-key-revoke-dialog');
    expect(ask.textContent).toContain('Revoke “CRM sync”?');
    fireEvent.click(within(ask).getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('api-key-revoke-dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    fireEvent.click(screen.getByTestId(`api-key-revoke-${ID}`));
    fireEvent.click(within(await screen.findByTestId('api-key-revoke-dialog')).getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId(`api-key-row-${ID}`).textContent).toContain('Revoked'));
    expect(screen.queryByTestId(`api-key-revoke-${ID}`)).toBeNull();
  });

  it('speaks French', async () => {
    await i18n.changeLanguage('fr');
    stubApi({ ['GET /api/api-keys']: [{ status: 200, body: { keys: [listed] } }] });
    renderCard();
    const row = await screen.findByTestId(`api-key-row-${ID}`);
    expect(row.textContent).toContain('Lecture');
    expect(row.textContent).toContain('Créée le 20/11/2026');
    expect(screen.getByTestId('api-keys-create').textContent).toBe('Créer une clé');
    expect(screen.getByTestId('api-keys-reference').textContent).toBe('Lire la documentation de l’API (nouvel onglet)');
  });

  it('links to the API reference page, in a new tab', async () => {
    stubApi({ ['GET /api/api-keys']: [{ status: 200, body: { keys: [listed] } }] });
    renderCard();
    const link = await screen.findByRole('link', { name: 'Read the API reference (opens in a new tab)' });
    expect(link.getAttribute('href')).toBe('/developers/api');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
  });
});
