import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Db, ExecuteSql } from '../../db/client.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import { queueCompanyMail } from '../../mail/send.js';
import { deliverWebhookJob } from '../../queue/definitions.js';
import { systemResolver, type AddressPolicy, type Resolver } from './address.js';
import { sendWebhook, WEBHOOK_TIMEOUT_MS } from './send.js';
import { webhookDisabledEmail } from './webhooks.emails.js';

/**
 * Sending a webhook delivery (issue 32, decision 211). The delivery's row is the truth: a worker claims
 * it (a conditional update: pending, due, not held), sends once, records the attempt, and either marks it
 * succeeded, schedules the next attempt (with its queue message, in the same transaction) or marks it
 * failed at the end of the 24-hour window. A message that runs early, twice or late does nothing; a
 * worker killed mid-send leaves a hold that expires, and the minute's sweep sends it again.
 */

/**
 * When each attempt of a series is made, counted from the start of the series (the event, or "send
 * again"): at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 24 h. Eight attempts in 24 hours.
 */
export const RETRY_SCHEDULE_MS = [0, 5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 24 * 3600_000] as const;
/** An endpoint whose every delivery failed for this long is turned off, and its company told. */
export const FAILING_DISABLE_MS = 5 * 24 * 3600_000;
/** How long a worker holds a delivery while it sends (the send's timeout and a margin). */
export const HOLD_MS = WEBHOOK_TIMEOUT_MS + 20_000;

export function addressPolicy(ctx: AppContext, resolve: Resolver = systemResolver): AddressPolicy {
  return { allowPrivate: ctx.config.webhooksAllowPrivate, resolve };
}

/** Test seam: the resolver deliveries use (the system's by default). */
let deliveryResolver: Resolver = systemResolver;
export function setDeliveryResolver(resolver: Resolver | null): void {
  deliveryResolver = resolver ?? systemResolver;
}

export type AttemptOutcome = 'succeeded' | 'retry' | 'failed' | 'skipped';

/** One attempt at a delivery, if it is due at `now` and no one holds it. */
export async function attemptDelivery(ctx: AppContext, deliveryId: string, now = new Date()): Promise<AttemptOutcome> {
  const [claimed] = await ctx.db
    .update(webhookDeliveries)
    .set({
      lockedUntil: new Date(now.getTime() + HOLD_MS),
      seriesAttempts: sql`${webhookDeliveries.seriesAttempts} + 1`,
      lastAttemptAt: now,
    })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning();
  if (!claimed) return 'skipped';
  const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, claimed.endpointId));
  if (!endpoint || !endpoint.enabled) {
    // Turned off meanwhile: the delivery waits for nothing more ("send again" once it is on).
    await ctx.db.update(webhookDeliveries).set({ status: 'cancelled', lockedUntil: null }).where(eq(webhookDeliveries.id, deliveryId));
    return 'skipped';
  }
  const result = await sendWebhook(
    {
      url: endpoint.url,
      secret: endpoint.secret,
      id: claimed.id,
      payload: claimed.payload,
      now: new Date(),
    },
    addressPolicy(ctx, deliveryResolver),
  );
  const next = RETRY_SCHEDULE_MS[claimed.seriesAttempts];
  const outcome: AttemptOutcome = result.ok ? 'succeeded' : next === undefined ? 'failed' : 'retry';
  const nextAt = next === undefined ? null : new Date(claimed.seriesStartedAt.getTime() + next);
  let disabled = false;
  await ctx.database.transaction(async (executeSql, tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId,
      companyId: claimed.companyId,
      ok: result.ok,
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error?.slice(0, 500) ?? null,
      createdAt: now,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome === 'retry' ? 'pending' : outcome,
        lockedUntil: null,
        ...(outcome === 'retry' && nextAt ? { nextAttemptAt: nextAt } : {}),
      })
      .where(eq(webhookDeliveries.id, deliveryId));
    if (outcome === 'retry' && nextAt) {
      await ctx.queue.send(
        deliverWebhookJob,
        { deliveryId },
        {
          executeSql,
          startAfter: Math.max(1, Math.ceil((nextAt.getTime() - Date.now()) / 1000)),
        },
      );
    }
    if (result.ok) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpoint.id), isNotNull(webhookEndpoints.failingSince)));
      return;
    }
    const [marked] = await tx
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)`,
      })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning({
        failingSince: webhookEndpoints.failingSince,
        enabled: webhookEndpoints.enabled,
      });
    if (marked?.enabled && marked.failingSince && now.getTime() - marked.failingSince.getTime() >= FAILING_DISABLE_MS) {
      const [off] = await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: 'failing', updatedAt: now })
        .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
        .returning({ id: webhookEndpoints.id });
      if (!off) return;
      disabled = true;
      await tx
        .update(webhookDeliveries)
        .set({ status: 'cancelled', lockedUntil: null })
        .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, 'pending')));
      const days = Math.floor((now.getTime() - marked.failingSince.getTime()) / (24 * 3600_000));
      await queueCompanyMail(
        { queue: ctx.queue, db: tx },
        endpoint.companyId,
        (r) =>
          webhookDisabledEmail({
            lang: r.lang,
            brand: ctx.config.brandName,
            to: r.email,
            firstname: r.firstname,
            endpointUrl: endpoint.url,
            days,
            url: `${ctx.config.appUrl}/dashboard/settings`,
          }),
        { executeSql },
      );
    }
  });
  if (disabled) ctx.logger.warn({ endpointId: endpoint.id }, 'webhook endpoint failing for 5 days: turned off');
  return outcome;
}

/**
 * The minute's sweep: due deliveries that no one holds (their message was lost with a killed worker, or
 * ran early) get a message again. Returns how many were sent.
 */
export async function sweepDueDeliveries(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, new Date(now.getTime() - 30_000)),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .limit(500);
  for (const d of due) await ctx.queue.send(deliverWebhookJob, { deliveryId: d.id });
  return due.length;
}

/** Cancels the pending deliveries of endpoints (turned off or deleted by the company). */
export async function cancelPending(db: AppContext['db'], endpointIds: string[]): Promise<void> {
  if (!endpointIds.length) return;
  await db
    .update(webhookDeliveries)
    .set({ status: 'cancelled', lockedUntil: null })
    .where(and(inArray(webhookDeliveries.endpointId, endpointIds), eq(webhookDeliveries.status, 'pending')));
}

/**
 * Presence's recovery, for the `deliver-webhook` jobs of a process found dead (decision 221), in the
 * transaction that buried it: the deliveries they were sending are released at once (their hold was the
 * dead process's) and get a message again, so that a delivery cut mid-send is sent again within
 * seconds, with the same `webhook-id`, instead of waiting for the hold to expire and the minute's sweep.
 * A receiver that got the cut request may see it twice: Standard Webhooks receivers drop duplicates by id.
 */
export async function releaseDeliveriesOfLostWorker(
  ctx: { queue: Pick<AppContext['queue'], 'send'> },
  t: { tx: Db; executeSql: ExecuteSql },
  recovered: { data: unknown }[],
): Promise<void> {
  const ids = recovered.map((job) => (job.data as { deliveryId?: unknown } | null)?.deliveryId).filter((id): id is string => typeof id === 'string');
  if (!ids.length) return;
  const released = await t.tx
    .update(webhookDeliveries)
    .set({ lockedUntil: null })
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.status, 'pending'), isNotNull(webhookDeliveries.lockedUntil)))
    .returning({ id: webhookDeliveries.id });
  for (const d of released) await ctx.queue.send(deliverWebhookJob, { deliveryId: d.id }, { executeSql: t.executeSql });
}
