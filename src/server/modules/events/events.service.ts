import { and, eq, sql } from 'drizzle-orm';
import { isWebhookEventType, type TActivityEventType, type TActivityOnlyEventType } from '../../../contract/api/activity.schema.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { companyEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import { deliverWebhookJob } from '../../queue/definitions.js';
import type { Tx } from '../jobs/jobs.service.js';

/**
 * A company's events (issue 32, decision 210). `recordEvent` is the one writer: called at the change it
 * reports, in that change's transaction, it inserts the event and, in the same transaction, one delivery
 * per enabled endpoint of the company subscribed to its type, with the queue message that sends it (the
 * transactional outbox). A change that rolls back records, delivers and sends nothing.
 */

/** The body's `data`: small (ids, kind, a public address), never media secrets or signed addresses. */
export type EventData = Record<string, string | number | boolean | null>;

/** The body a receiver gets (Standard Webhooks): `{ type, timestamp, data }`, kept as sent for every attempt. */
export function webhookPayload(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** Who did it: the session's user for a person's change; null (the default) for the system or a customer. */
export interface EventOptions {
  actorUserId?: string | null | undefined;
}

/**
 * An event only the activity log shows (decision 220): a member's action on the company itself. It is
 * never offered to nor delivered to a webhook endpoint, so it needs no queue: only the change's `tx`.
 */
export async function recordActivity(tx: DbOrTx, companyId: string, type: TActivityOnlyEventType, data: EventData, options: EventOptions = {}): Promise<void> {
  await tx.insert(companyEvents).values({ companyId, type, data, actorUserId: options.actorUserId ?? null });
}

export async function recordEvent(
  ctx: { queue: Pick<AppContext['queue'], 'send'> },
  t: Tx,
  companyId: string,
  type: TActivityEventType,
  data: EventData,
  options: EventOptions = {},
): Promise<void> {
  const [event] = await t.tx
    .insert(companyEvents)
    .values({ companyId, type, data, actorUserId: options.actorUserId ?? null })
    .returning();
  // Activity-only events stay in the log: endpoints are offered, and sent, webhook events only.
  if (!isWebhookEventType(type)) return;
  const endpoints = await t.tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.enabled, true), sql`${type} = any(${webhookEndpoints.events})`));
  if (!endpoints.length) return;
  const payload = webhookPayload(type, event!.createdAt, data);
  const deliveries = await t.tx
    .insert(webhookDeliveries)
    .values(
      endpoints.map((e) => ({
        companyId,
        endpointId: e.id,
        eventId: event!.id,
        type,
        payload,
      })),
    )
    .returning({ id: webhookDeliveries.id });
  for (const d of deliveries) await ctx.queue.send(deliverWebhookJob, { deliveryId: d.id }, { executeSql: t.executeSql });
}
