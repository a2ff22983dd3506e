import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  url: string;
  amount_total: number;
  currency: string;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  line_items: { object: 'list'; data: { id: string; object: 'item'; quantity: number; price: { id: string; object: 'price' } }[]; has_more: false; url: string };
}

/**
 * A small local server answering the two Checkout calls the app makes (create and retrieve a
 * session) in the shapes Stripe documents, for integration tests of session creation and fulfilment
 * (stripe-mock does not install here). `priceAmounts` gives each configured price its amount in cents.
 */
export async function startStripeStandIn(priceAmounts: Record<string, number>) {
  const sessions = new Map<string, StandInSession>();
  const requests: { method: string; path: string; body: URLSearchParams; auth: string | undefined }[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.local');
      const body = new URLSearchParams(Buffer.concat(chunks).toString());
      requests.push({ method: req.method ?? '', path: url.pathname, body, auth: req.headers.authorization });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const price = body.get('line_items[0][price]') ?? '';
        if (!(price in priceAmounts)) return send(400, { error: { type: 'invalid_request_error', message: `No such price: '${price}'`, param: 'line_items[0][price]' } });
        const id = `cs_test_${Date.now().toString(36)}${(++n).toString(36)}`;
        const metadata: Record<string, string> = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]!] = v;
        }
        const session: StandInSession = {
          id,
          object: 'checkout.session',
          mode: 'payment',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          amount_total: priceAmounts[price]!,
          currency: 'eur',
          payment_status: 'unpaid',
          status: 'open',
          client_reference_id: body.get('client_reference_id'),
          metadata,
          success_url: body.get('success_url') ?? '',
          cancel_url: body.get('cancel_url') ?? '',
          line_items: { object: 'list', data: [{ id: `li_${n}`, object: 'item', quantity: 1, price: { id: price, object: 'price' } }], has_more: false, url: `/v1/checkout/sessions/${id}/line_items` },
        };
        sessions.set(id, session);
        const { line_items: _items, ...withoutItems } = session;
        return send(200, withoutItems);
      }
      const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        const session = sessions.get(decodeURIComponent(m[1]!));
        if (!session) return send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
        const expand = url.searchParams.getAll('expand[]').includes('line_items') || url.searchParams.getAll('expand[0]').includes('line_items');
        const { line_items, ...rest } = session;
        return send(200, expand ? { ...rest, line_items } : rest);
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sessions,
    requests,
    /** What Stripe does when the customer pays. */
    pay(id: string) {
      const s = sessions.get(id);
      if (s) Object.assign(s, { payment_status: 'paid', status: 'complete' });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
