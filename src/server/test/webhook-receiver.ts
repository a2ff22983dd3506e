import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  type: string;
  data: Record<string, unknown>;
  /** Whether `Webhook.verify` accepted it with the secret the receiver was given. */
  verified: boolean;
  status: number;
}

/**
 * A real receiver on loopback: each delivery is verified with the standardwebhooks library's
 * `Webhook.verify`, recorded, and answered with the status `answer` gives (200 by default).
 */
export async function webhookReceiver(options: { path?: string } = {}) {
  const received: Received[] = [];
  let secret = '';
  let answer: (n: number) => number | { status: number; headers?: Record<string, string>; body?: string } = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
      let verified = false;
      let parsed: { type?: string; data?: Record<string, unknown> } = {};
      try {
        parsed = new Webhook(secret).verify(body, headers) as typeof parsed;
        verified = true;
      } catch {
        try {
          parsed = JSON.parse(body) as typeof parsed;
        } catch {
          parsed = {};
        }
      }
      const a = answer(received.length);
      const reply = typeof a === 'number' ? { status: a } : a;
      received.push({ id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], type: parsed.type ?? '', data: parsed.data ?? {}, verified, status: reply.status });
      res.writeHead(reply.status, reply.headers ?? { 'content-type': 'text/plain' });
      res.end(reply.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hooks'}`,
    port,
    received,
    setSecret: (s: string) => {
      secret = s;
    },
    answerWith: (fn: typeof answer) => {
      answer = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
