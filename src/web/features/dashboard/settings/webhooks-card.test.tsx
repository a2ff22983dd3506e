// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n/i18n';
import { WebhooksCard } from './webhooks-card';
import { renderWithQueries, stubApi } from './card-test-support';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

/**
 * The webhooks card of the settings (issue 32), with the real component and translations against a
 * stand-in for the HTTP API: an endpoint added with its events, its secret shown once, the delivery log.
 */

const renderCard = () => renderWithQueries(<WebhooksCard />);

const ID = '11111111-1111-4111-8111-111111111111';
const DELIVERY = '22222222-2222-4222-8222-222222222222';
const listed = { id: ID, url: 'https://hooks.example.com/in', events: ['testimonial.submitted', 'render.ready'], enabled: true, created_at: '2026-11-20T10:00:00.000Z', failing_since: null, disabled_reason: null };
const SECRET = `whsec_${'A'.repeat(43)}=`;

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

describe('the webhooks card', () => {
  it('adds an endpoint with its events and shows its secret once; refuses a bad address and no event before any call', async () => {
    const calls = stubApi({
      ['GET /api/webhooks']: [{ status: 200, body: { endpoints: [] } }, { status: 200, body: { endpoints: [listed] } }],
      ['POST /api/webhooks']: [{ status: 201, body: { ...listed, secret: SECRET } }],
    });
    renderCard();
    expect(await screen.findByTestId('webhooks-empty')).toBeTruthy();
    fireEvent.click(screen.getByTestId('webhooks-create'));
    const dialog = await screen.findByTestId('webhook-dialog');
    fireEvent.change(within(dialog).getByTestId('webhook-url'), { target: { value: 'not an address' } });
    fireEvent.click(within(dialog).getByTestId('webhook-event-testimonial.submitted'));
    fireEvent.click(within(dialog).getByTestId('webhook-submit'));
    expect(await within(dialog).findByText('Enter a full address starting with https://')).toBeTruthy();
    expect(within(dialog).getByText('Choose at least one event')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('webhook-url'), { target: { value: ' https://hooks.example.com/in ' } });
    fireEvent.click(within(dialog).getByTestId('webhook-event-testimonial.submitted'));
    fireEvent.click(within(dialog).getByTestId('webhook-event-render.ready'));
    fireEvent.click(within(dialog).getByTestId('webhook-submit'));
    const created = await screen.findByTestId('webhook-created');
    expect((within(created).getByTestId('webhook-secret') as HTMLInputElement).value).toBe(SECRET);
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ url: 'https://hooks.example.com/in', events: ['testimonial.submitted', 'render.ready'], enabled: true });
    fireEvent.click(within(created).getByTestId('webhook-done'));
    expect(await screen.findByTestId(`webhook-row-${ID}`)).toBeTruthy();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('shows the delivery log with status, response code and duration, and sends a delivery again', async () => {
    const calls = stubApi({
      ['GET /api/webhooks']: [{ status: 200, body: { endpoints: [listed] } }],
      [`GET /api/webhooks/${ID}/deliveries?page=1&per_page=10`]: [
        {
          status: 200,
          body: {
            data: [{ id: DELIVERY, type: 'testimonial.submitted', status: 'failed', next_attempt_at: null, created_at: '2026-11-21T10:00:00.000Z', attempts: [{ id: '33333333-3333-4333-8333-333333333333', ok: false, response_status: 500, duration_ms: 42, error: 'The receiver answered 500.', created_at: '2026-11-21T10:00:01.000Z' }] }],
            page: 1,
            per_page: 10,
            total: 1,
          },
        },
      ],
      [`POST /api/webhooks/${ID}/deliveries/${DELIVERY}/redeliver`]: [{ status: 202, body: { id: DELIVERY, type: 'testimonial.submitted', status: 'pending', next_attempt_at: '2026-11-21T10:00:00.000Z', created_at: '2026-11-21T10:00:00.000Z', attempts: [] } }],
    });
    renderCard();
    fireEvent.click(await screen.findByTestId(`webhook-log-toggle-${ID}`));
    const row = await screen.findByTestId(`webhook-delivery-${DELIVERY}`);
    expect(row.textContent).toContain('Failed');
    expect(row.textContent).toContain('response 500');
    expect(row.textContent).toContain('42 ms');
    fireEvent.click(within(row).getByTestId(`webhook-redeliver-${DELIVERY}`));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/redeliver'))).toBe(true));
  });

  it('follows a delivery being sent to its answer while the log is open, with the time of each attempt', async () => {
    const sending = { id: DELIVERY, type: 'webhook.test', status: 'pending', next_attempt_at: null, created_at: '2026-11-21T10:00:00.000Z', attempts: [] };
    const delivered = {
      ...sending,
      status: 'succeeded',
      attempts: [{ id: '33333333-3333-4333-8333-333333333333', ok: true, response_status: 200, duration_ms: 17, error: null, created_at: '2026-11-21T10:00:01.000Z' }],
    };
    const page = (d: unknown) => ({ status: 200, body: { data: [d], page: 1, per_page: 10, total: 1 } });
    const calls = stubApi({
      ['GET /api/webhooks']: [{ status: 200, body: { endpoints: [listed] } }],
      [`GET /api/webhooks/${ID}/deliveries?page=1&per_page=10`]: [page(sending), page(delivered)],
    });
    renderCard();
    fireEvent.click(await screen.findByTestId(`webhook-log-toggle-${ID}`));
    const row = await screen.findByTestId(`webhook-delivery-${DELIVERY}`);
    expect(row.textContent).not.toContain('response 200');
    // No reload: the log asks again while the delivery is pending, and stops once it is settled.
    await waitFor(() => expect(screen.getByTestId(`webhook-delivery-${DELIVERY}`).textContent).toContain('response 200'), { timeout: 8000 });
    const at = new Date('2026-11-21T10:00:01.000Z');
    expect(screen.getByTestId(`webhook-delivery-${DELIVERY}`).textContent).toContain(`${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`);
    const asked = calls.filter((c) => c.path.includes('/deliveries')).length;
    await new Promise((r) => setTimeout(r, 3500));
    expect(calls.filter((c) => c.path.includes('/deliveries')).length).toBe(asked);
  }, 20_000);
});
