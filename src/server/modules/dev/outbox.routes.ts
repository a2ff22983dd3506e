import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { sendError } from '../../http/errors.js';
import { html, type SafeHtml } from '../../lib/html.js';
import { listOutboxIds, readOutboxMessage, readOutboxRaw } from './outbox.service.js';

const page = (title: string, body: SafeHtml): string => html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f7f7f9;color:#111827}main{max-width:960px;margin:0 auto;padding:32px 16px}
h1{font-size:20px;margin:0 0 4px}p.note{color:#6b7280;font-size:14px;margin:0 0 24px}table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e5e7eb;border-radius:8px;font-size:14px}
th,td{text-align:left;padding:10px 12px;border-bottom:1px solid #eef0f3;vertical-align:top}th{font-size:12px;color:#6b7280;text-transform:uppercase;letter-spacing:.04em}
a{color:#6d28d9}.empty{padding:48px;text-align:center;color:#6b7280;background:#fff;border:1px dashed #d1d5db;border-radius:8px}
iframe{width:100%;min-height:70vh;border:1px solid #e5e7eb;border-radius:8px;background:#fff}pre{white-space:pre-wrap;background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:16px;font-size:13px}</style>
</head><body><main>${body}</main></body></html>`.value;

/** Whether the socket's peer is this machine (127.0.0.0/8 or ::1, also as IPv4-mapped IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * The development outbox: every e-mail the app wrote to DATA_DIR/outbox, readable and clickable. It
 * holds confirmation and reset links, so it answers only the developer's own machine: the socket's
 * peer, never `request.ip` (X-Forwarded-For could claim loopback). HOST defaults to 127.0.0.1 outside
 * production as well; this holds when someone sets HOST=0.0.0.0 to test from a phone.
 */
export function outboxRoutes(ctx: AppContext) {
  const dir = ctx.config.outboxDir;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      if (!isLoopback(request.socket.remoteAddress)) {
        return sendError(reply, 404, { error: `Nothing here: ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
      }
    });
    app.get('/dev/outbox', async (_request, reply) => {
      const ids = await listOutboxIds(dir);
      const messages = (await Promise.all(ids.slice(0, 200).map((id) => readOutboxMessage(dir, id)))).filter((m) => m !== null);
      const rows = messages.map(
        (m) =>
          html`<tr><td>${new Date(m.date).toLocaleString('en-GB')}</td><td>${m.to}</td><td><a href="/dev/outbox/${m.id}">${m.subject || '(no subject)'}</a></td><td><a href="/dev/outbox/${m.id}/raw">.eml</a></td></tr>`,
      );
      const body = html`<h1>Outbox</h1><p class="note">E-mails written to ${dir} instead of being sent (no SMTP_URL). Newest first.</p>${
        messages.length
          ? html`<table><thead><tr><th>Date</th><th>To</th><th>Subject</th><th>Source</th></tr></thead><tbody>${rows}</tbody></table>`
          : html`<div class="empty">No e-mail yet. Messages appear here as soon as the app sends one.</div>`
      }`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page('Outbox', body));
    });

    app.get('/dev/outbox/messages.json', async (request, reply) => {
      const { to } = z.object({ to: z.string().optional() }).parse(request.query);
      const ids = await listOutboxIds(dir);
      const messages = (await Promise.all(ids.map((id) => readOutboxMessage(dir, id)))).filter((m) => m !== null);
      return reply
        .header('cache-control', 'no-store')
        .send(to ? messages.filter((m) => m.to.toLowerCase().includes(to.toLowerCase())) : messages);
    });

    app.get('/dev/outbox/:id', async (request, reply) => {
      const { id } = z.object({ id: z.string() }).parse(request.params);
      const message = await readOutboxMessage(dir, id);
      if (!message) return reply.status(404).type('text/html; charset=utf-8').send(page('Not found', html`<h1>No such e-mail</h1><p><a href="/dev/outbox">Back to the outbox</a></p>`));
      const body = html`<p><a href="/dev/outbox">← Outbox</a></p><h1>${message.subject}</h1>
<p class="note">To ${message.to} · from ${message.from} · ${new Date(message.date).toLocaleString('en-GB')} · <a href="/dev/outbox/${id}/raw">.eml</a></p>
${message.html && html`<iframe title="E-mail" sandbox="allow-popups allow-top-navigation-by-user-activation" srcdoc="${message.html.replace(/<a /g, '<a target="_top" ')}"></iframe>`}
<h2 style="font-size:14px;margin:24px 0 8px">Plain text</h2><pre>${message.text}</pre>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(message.subject, body));
    });

    app.get('/dev/outbox/:id/raw', async (request, reply) => {
      const { id } = z.object({ id: z.string() }).parse(request.params);
      const raw = await readOutboxRaw(dir, id);
      if (!raw) return reply.status(404).type('text/plain; charset=utf-8').send('No such e-mail.');
      return reply.type('message/rfc822').header('content-disposition', `inline; filename="${id}"`).send(raw);
    });
  };
}
