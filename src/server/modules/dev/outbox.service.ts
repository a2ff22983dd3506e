import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMessage {
  id: string;
  date: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

const ID_PATTERN = /^[0-9A-Za-z-]+\.eml$/;

export function isOutboxId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export async function listOutboxIds(outboxDir: string): Promise<string[]> {
  try {
    return (await readdir(outboxDir)).filter(isOutboxId).sort().reverse();
  } catch {
    return [];
  }
}

export async function readOutboxRaw(outboxDir: string, id: string): Promise<Buffer | null> {
  if (!isOutboxId(id)) return null;
  try {
    return await readFile(path.join(outboxDir, id));
  } catch {
    return null;
  }
}

export async function readOutboxMessage(outboxDir: string, id: string): Promise<OutboxMessage | null> {
  const raw = await readOutboxRaw(outboxDir, id);
  if (!raw) return null;
  const { default: PostalMime } = await import('postal-mime');
  const mail = await PostalMime.parse(raw);
  const text = mail.text ?? '';
  const html = mail.html ?? '';
  const links = [...new Set([...html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&')))];
  return {
    id,
    date: mail.date ?? '',
    to: (mail.to ?? []).map((a) => a.address ?? a.name).join(', '),
    from: mail.from?.address ?? '',
    subject: mail.subject ?? '',
    text,
    html,
    links,
  };
}
