import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<{ messageId: string }>;
  ping(): Promise<void>;
  close(): void;
}

/** SMTP with `smtpUrl`; otherwise `.eml` files in `outboxDir` (read at /dev/outbox outside production). */
export function createMailer(options: { smtpUrl?: string | undefined; outboxDir: string; from: string }): Mailer {
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      transport: 'smtp',
      async send(message) {
        const info = await transporter.sendMail({ from: options.from, ...message });
        return { messageId: info.messageId };
      },
      async ping() {
        await transporter.verify();
      },
      close: () => transporter.close(),
    };
  }

  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'outbox',
    async send(message) {
      const info = await transporter.sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      // Sortable by time; written under a temporary name first so the outbox never lists half a file.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const tmp = path.join(options.outboxDir, `.${name}.part`);
      await writeFile(tmp, info.message);
      await rename(tmp, path.join(options.outboxDir, name));
      return { messageId: info.messageId };
    },
    async ping() {
      await mkdir(options.outboxDir, { recursive: true });
    },
    close: () => transporter.close(),
  };
}
