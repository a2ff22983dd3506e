import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
  /** Extra headers, e.g. RFC 8058's List-Unsubscribe and List-Unsubscribe-Post on every e-mail to a customer (issue 30). */
  headers?: Record<string, string>;
  /** The request this e-mail is about (issue 30): its delivery or bounce, as the SMTP server answers, joins the funnel. */
  requestId?: string;
}

export interface SendMailOptions {
  /**
   * A stable id of this e-mail (the id of the job that sends it). A retried send reuses it: the same
   * Message-ID over SMTP (receiving systems recognise the repeat), the same file in the outbox.
   */
  id?: string;
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  send(message: MailMessage, options?: SendMailOptions): Promise<{ messageId: string }>;
  ping(): Promise<void>;
  close(): void;
}

/**
 * A transporter made on first use: nodemailer is read then, not at start-up (decision 181). `close` closes
 * it if it was made.
 */
function lazyTransporter<T extends Transporter<unknown>>(make: (nodemailer: (typeof import('nodemailer'))['default']) => T) {
  let made: Promise<T> | undefined;
  let closed = false;
  return {
    get: () => (made ??= import('nodemailer').then((module) => make(module.default))),
    close: () => {
      if (closed) return;
      closed = true;
      void made?.then((transporter) => transporter.close(), () => undefined);
    },
  };
}

/** The message as nodemailer takes it (our own bookkeeping fields left out). */
function nodemailerFields(message: MailMessage) {
  const { requestId: _requestId, ...fields } = message;
  return fields;
}

/** SMTP with `smtpUrl`; otherwise `.eml` files in `outboxDir` (read at /dev/outbox outside production). */
export function createMailer(options: { smtpUrl?: string | undefined; outboxDir: string; from: string }): Mailer {
  const domain = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? 'localhost';
  const messageIdOf = (send?: SendMailOptions) => (send?.id ? { messageId: `<${send.id}@${domain}>` } : {});
  const smtpUrl = options.smtpUrl;
  if (smtpUrl) {
    const transporter = lazyTransporter((nodemailer) => nodemailer.createTransport(smtpUrl));
    return {
      transport: 'smtp',
      async send(message, send) {
        const info = await (await transporter.get()).sendMail({ from: options.from, ...nodemailerFields(message), ...messageIdOf(send) });
        return { messageId: info.messageId };
      },
      async ping() {
        await (await transporter.get()).verify();
      },
      close: transporter.close,
    };
  }

  const transporter = lazyTransporter((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    transport: 'outbox',
    async send(message, send) {
      await mkdir(options.outboxDir, { recursive: true });
      const info = await (await transporter.get()).sendMail({ from: options.from, ...nodemailerFields(message), ...messageIdOf(send) });
      // Sortable by time, ending with the e-mail's id: a retried send finds its file and stops.
      const suffix = send?.id ? `-${send.id.replace(/[^0-9A-Za-z-]/g, '')}.eml` : undefined;
      if (suffix && (await readdir(options.outboxDir)).some((f) => f.endsWith(suffix))) return { messageId: info.messageId };
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}${suffix ?? `-${randomUUID().slice(0, 8)}.eml`}`;
      // Written under a temporary name first so the outbox never lists half a file.
      const tmp = path.join(options.outboxDir, `.${suffix ? suffix.slice(1) : name}.part`);
      await writeFile(tmp, info.message);
      await rename(tmp, path.join(options.outboxDir, name));
      return { messageId: info.messageId };
    },
    async ping() {
      await mkdir(options.outboxDir, { recursive: true });
    },
    close: transporter.close,
  };
}
