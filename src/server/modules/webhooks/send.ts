import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { checkUrlForm, RefusedAddress, resolveEndpoint, type AddressPolicy } from './address.js';

/** A receiver has this long to answer (connection, request and response). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of the answer is read; the rest is dropped. */
export const WEBHOOK_RESPONSE_LIMIT_BYTES = 64 * 1024;

export interface SendResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * One signed POST of a delivery (Standard Webhooks): `webhook-id` (the delivery's id, the same on every
 * attempt), `webhook-timestamp` (seconds) and `webhook-signature`, signed by the maintained library. The
 * address is checked after DNS and the connection pinned to the checked address; redirects are not
 * followed (a 3xx is a failure); the answer must be 2xx within WEBHOOK_TIMEOUT_MS.
 */
export async function sendWebhook(
  input: {
    url: string;
    secret: string;
    id: string;
    payload: string;
    now?: Date;
  },
  policy: AddressPolicy,
  limits: { timeoutMs?: number; responseLimitBytes?: number } = {},
): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  let target: { address: string; family: 4 | 6 };
  try {
    url = checkUrlForm(input.url, policy);
    target = await resolveEndpoint(url, policy);
  } catch (error) {
    return done({
      ok: false,
      status: null,
      error: error instanceof RefusedAddress ? error.message : 'The address could not be checked.',
    });
  }
  const now = input.now ?? new Date();
  const signature = new Webhook(input.secret).sign(input.id, now, input.payload);
  // The connection goes to the checked address, never to a second lookup's answer.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const timeoutMs = limits.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const responseLimit = limits.responseLimitBytes ?? WEBHOOK_RESPONSE_LIMIT_BYTES;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const body = Buffer.from(input.payload, 'utf8');
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const request = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      lookup: pinned,
      ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'Vouchreel-Webhooks/1',
        'webhook-id': input.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    const timer = setTimeout(() => {
      finish({
        ok: false,
        status: null,
        error: `No answer within ${Math.round(timeoutMs / 1000)} seconds.`,
      });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) =>
      finish({
        ok: false,
        status: null,
        error: `Could not connect: ${(error as NodeJS.ErrnoException).code ?? error.message}.`,
      }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      const end = () => {
        const ok = status >= 200 && status < 300;
        finish({
          ok,
          status,
          error: ok ? null : status >= 300 && status < 400 ? `Redirect (${status}) not followed: give the final address.` : `The receiver answered ${status}.`,
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= responseLimit) end();
      });
      response.on('end', end);
      response.on('error', end);
    });
    request.end(body);
  });
}
