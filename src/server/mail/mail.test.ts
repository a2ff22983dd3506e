import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { renderEmail } from './layout.js';
import { createMailer } from './mailer.js';
import { queueMail } from './send.js';

const sample = () =>
  renderEmail({
    lang: 'fr',
    brand: 'Vouchreel',
    heading: 'Votre vidéo est prête',
    paragraphs: ['Bonjour <Anna>, votre vidéo « Témoignage » est prête.'],
    button: { label: 'Voir la vidéo', url: 'http://localhost:3000/dashboard/testimonials/abc?x=1&y=2' },
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien :',
    footer: 'Vous recevez cet e-mail car vous avez un compte Vouchreel.',
  });

describe('e-mail layout', () => {
  it('escapes content, writes the link out and has a plain-text part', () => {
    const { html, text } = sample();
    expect(html).toContain('Bonjour &lt;Anna&gt;');
    expect(html).not.toContain('<Anna>');
    expect(html).toContain('href="http://localhost:3000/dashboard/testimonials/abc?x=1&amp;y=2"');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('max-width:600px');
    expect(text).toContain('Voir la vidéo: http://localhost:3000/dashboard/testimonials/abc?x=1&y=2');
    expect(text).toContain('Bonjour <Anna>');
  });

  it('shows the company name and logo instead of the brand when given', () => {
    const { html, text } = renderEmail({
      lang: 'en',
      brand: 'Vouchreel',
      heading: 'Hi',
      paragraphs: [],
      footer: 'f',
      company: { name: 'Bakery Bloom', logoUrl: 'https://cdn.example/logo.png' },
    });
    expect(html).toContain('Bakery Bloom');
    expect(html).toContain('<img src="https://cdn.example/logo.png"');
    expect(text.startsWith('Bakery Bloom')).toBe(true);
  });
});

describe('SMTP transport', () => {
  let server: SMTPServer;
  let port: number;
  const received: { from: string; to: string[]; raw: Buffer }[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers over SMTP with an HTML and a text part', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: '/nonexistent', from: 'Vouchreel <no-reply@vouchreel.test>' });
    expect(mailer.transport).toBe('smtp');
    await mailer.ping();
    const { html, text } = sample();
    await mailer.send({ to: 'anna@bloom.fr', subject: 'Votre vidéo est prête', html, text });
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['anna@bloom.fr']);
    expect(received[0]?.from).toBe('no-reply@vouchreel.test');
    const parsed = await PostalMime.parse(received[0]!.raw);
    expect(parsed.subject).toBe('Votre vidéo est prête');
    expect(parsed.html).toContain('href="http://localhost:3000/dashboard/testimonials/abc?x=1&amp;y=2"');
    expect(parsed.text).toContain('Voir la vidéo: http://localhost:3000/dashboard/testimonials/abc?x=1&y=2');
  });

  it('reports an unreachable server in ping', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: '/nonexistent', from: 'x <x@x.test>' });
    await expect(mailer.ping()).rejects.toThrow();
    mailer.close();
  });
});

describe('outbox and the mail job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ work: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends a queued e-mail through the worker into the outbox, listed at /dev/outbox', async () => {
    const { html, text } = sample();
    await queueMail(t.ctx, { to: 'anna@bloom.fr', subject: 'Votre vidéo est prête', html, text });

    let files: string[] = [];
    for (let i = 0; i < 100 && files.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      files = (await readdir(t.config.outboxDir).catch(() => [])).filter((f) => f.endsWith('.eml'));
    }
    expect(files).toHaveLength(1);
    const parsed = await PostalMime.parse(await readFile(`${t.config.outboxDir}/${files[0]}`));
    expect(parsed.subject).toBe('Votre vidéo est prête');
    expect(parsed.to?.[0]?.address).toBe('anna@bloom.fr');

    const list = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toMatch(/text\/html/);
    expect(list.body).toContain('Votre vidéo est prête');
    expect(list.body).toContain(`href="/dev/outbox/${files[0]}"`);

    const one = await t.app.inject({ method: 'GET', url: `/dev/outbox/${files[0]}` });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('Voir la vidéo');

    const json = await t.app.inject({ method: 'GET', url: '/dev/outbox/messages.json?to=ANNA@bloom.fr' });
    const messages = json.json() as { subject: string; links: string[] }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.links).toContain('http://localhost:3000/dashboard/testimonials/abc?x=1&y=2');

    const raw = await t.app.inject({ method: 'GET', url: `/dev/outbox/${files[0]}/raw` });
    expect(raw.headers['content-type']).toMatch(/message\/rfc822/);
  });

  it('refuses path tricks and unknown ids in the outbox', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', 'nope.eml', '%2E%2E%2Fpgdata']) {
      const res = await t.app.inject({ method: 'GET', url: `/dev/outbox/${id}` });
      expect(res.statusCode, id).toBe(404);
    }
  });
});
