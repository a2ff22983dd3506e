import { createHmac } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { requestEvents } from '../../db/schema.js';

/**
 * The funnel's steps (issue 30), as `request_events.kind` stores them:
 * - link_opened: a visitor opened a collection link (once per visitor and day);
 * - sent: the request exists (invitation sent, link copied, or details given on a collection link);
 * - delivered / bounced: the SMTP server accepted or refused an e-mail about the request;
 * - reminded: a reminder went out (detail.automatic says which kind);
 * - opened, device_ok, first_answer, submitted: the customer's steps, once each per request;
 * - unsubscribed: the customer's address left the company's e-mails.
 */
export const REQUEST_EVENT_KINDS = [
  'link_opened',
  'sent',
  'delivered',
  'bounced',
  'reminded',
  'opened',
  'device_ok',
  'first_answer',
  'submitted',
  'unsubscribed',
] as const;
export type TRequestEventKind = (typeof REQUEST_EVENT_KINDS)[number];

export interface RequestEventInput {
  companyId: string;
  requestId?: string | null;
  linkId?: string | null;
  kind: TRequestEventKind;
  /** The request's or link's language ('english' | 'french'). */
  language: string;
  visitorHash?: string | null;
  detail?: Record<string, unknown>;
  at?: Date;
}

/**
 * Records one step. A step that counts once (a request's opened/device_ok/first_answer/submitted, a link's
 * visitor of the day) and was already recorded is skipped: callers record on every call, unconditionally.
 * Pass a transaction's handle as `db` to record with the change it describes.
 */
export async function recordRequestEvent(db: Pick<Db, 'insert'>, event: RequestEventInput): Promise<void> {
  await db
    .insert(requestEvents)
    .values({
      companyId: event.companyId,
      requestId: event.requestId ?? null,
      linkId: event.linkId ?? null,
      kind: event.kind,
      language: event.language,
      visitorHash: event.visitorHash ?? null,
      detail: event.detail ?? {},
      ...(event.at ? { at: event.at } : {}),
    })
    .onConflictDoNothing();
}

/**
 * A link's visitor, without cookies: an HMAC of the address, the browser and the link under the day's
 * salt (`salt`, e.g. publications' daily view salt). Nothing in it turns back into the address, and it
 * changes every day.
 */
export function visitorHashOf(salt: Buffer | string, input: { ip: string; userAgent: string; linkId: string }): string {
  return createHmac('sha256', salt).update(`${input.ip}\n${input.userAgent}\n${input.linkId}`).digest('base64url');
}
