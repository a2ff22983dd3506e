import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import {
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type TWebhookDelivery,
  type TWebhookDeliveriesQuery,
  type TWebhookDeliveryList,
  type TWebhookEndpoint,
  type TWebhookEndpointBody,
  type TWebhookEndpointPatch,
  type TWebhookEndpointWithSecret,
  type TWebhookEventType,
} from '../../../contract/api/webhooks.schema.js';
import type { AppContext } from '../../context.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import { AppError, invalidData, notFound } from '../../lib/errors.js';
import { deliverWebhookJob } from '../../queue/definitions.js';
import { webhookPayload } from '../events/events.service.js';
import { checkUrlForm, RefusedAddress, resolveEndpoint, systemResolver, type Resolver } from './address.js';
import { addressPolicy, cancelPending } from './delivery.service.js';

/**
 * The company's webhook endpoints (issue 32, decision 210), managed from the dashboard with its session.
 * Every row is read and written through the caller's company; another company's id is a 404.
 */

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const toEndpoint = (row: EndpointRow): TWebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events as TWebhookEventType[],
  enabled: row.enabled,
  created_at: row.createdAt.toISOString(),
  failing_since: row.failingSince?.toISOString() ?? null,
  disabled_reason: row.disabledReason === 'failing' ? 'failing' : null,
});

/** Test seam: the resolver used when an address is checked at creation (the system's by default). */
let creationResolver: Resolver = systemResolver;
export function setCreationResolver(resolver: Resolver | null): void {
  creationResolver = resolver ?? systemResolver;
}

/** The address checked as a delivery would be (form, then DNS and every resolved address); a refusal names the field. */
async function checkAddress(ctx: AppContext, raw: string): Promise<string> {
  const policy = addressPolicy(ctx, creationResolver);
  try {
    const url = checkUrlForm(raw, policy);
    await resolveEndpoint(url, policy);
    return url.toString();
  } catch (error) {
    if (error instanceof RefusedAddress) throw invalidData(error.message, 'url');
    throw error;
  }
}

async function ownEndpoint(ctx: AppContext, companyId: string, id: string): Promise<EndpointRow> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId)));
  if (!row) throw notFound('This webhook endpoint does not exist.');
  return row;
}

export async function listEndpoints(ctx: AppContext, companyId: string): Promise<TWebhookEndpoint[]> {
  const rows = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, companyId)).orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(toEndpoint);
}

export async function createEndpoint(ctx: AppContext, companyId: string, body: TWebhookEndpointBody): Promise<TWebhookEndpointWithSecret> {
  const url = await checkAddress(ctx, body.url);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.companyId, companyId));
  if (n >= WEBHOOK_LIMITS.perCompany)
    throw new AppError('conflict', {
      message: `A company can have at most ${WEBHOOK_LIMITS.perCompany} webhook endpoints. Delete one first.`,
    });
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({
      companyId,
      url,
      events: body.events,
      enabled: body.enabled,
      secret: newSecret(),
    })
    .returning();
  return { ...toEndpoint(row!), secret: row!.secret };
}

export async function updateEndpoint(ctx: AppContext, companyId: string, id: string, patch: TWebhookEndpointPatch): Promise<TWebhookEndpoint> {
  await ownEndpoint(ctx, companyId, id);
  const url = patch.url !== undefined ? await checkAddress(ctx, patch.url) : undefined;
  return ctx.database.transaction(async (_executeSql, tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(patch.events !== undefined ? { events: patch.events } : {}),
        // Turned on again by the company: it starts afresh (no failing streak, no reason).
        ...(patch.enabled !== undefined
          ? {
              enabled: patch.enabled,
              disabledReason: null,
              ...(patch.enabled ? { failingSince: null } : {}),
            }
          : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId)))
      .returning();
    if (!row) throw notFound('This webhook endpoint does not exist.');
    if (patch.enabled === false) await cancelPending(tx, [id]);
    return toEndpoint(row);
  });
}

export async function deleteEndpoint(ctx: AppContext, companyId: string, id: string): Promise<void> {
  const deleted = await ctx.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId)))
    .returning({ id: webhookEndpoints.id });
  if (!deleted.length) throw notFound('This webhook endpoint does not exist.');
}

export async function rotateSecret(ctx: AppContext, companyId: string, id: string): Promise<TWebhookEndpointWithSecret> {
  await ownEndpoint(ctx, companyId, id);
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({ secret: newSecret(), updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId)))
    .returning();
  return { ...toEndpoint(row!), secret: row!.secret };
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

const toDelivery = (row: DeliveryRow, attempts: AttemptRow[]): TWebhookDelivery => ({
  id: row.id,
  type: row.type,
  status: row.status,
  next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  created_at: row.createdAt.toISOString(),
  attempts: attempts.map((a) => ({
    id: a.id,
    ok: a.ok,
    response_status: a.responseStatus,
    duration_ms: a.durationMs,
    error: a.error,
    created_at: a.createdAt.toISOString(),
  })),
});

async function withAttempts(ctx: AppContext, rows: DeliveryRow[]): Promise<TWebhookDelivery[]> {
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await ctx.db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(desc(webhookAttempts.createdAt), desc(webhookAttempts.id))
    : [];
  return rows.map((r) =>
    toDelivery(
      r,
      attempts.filter((a) => a.deliveryId === r.id),
    ),
  );
}

export async function listDeliveries(ctx: AppContext, companyId: string, id: string, query: TWebhookDeliveriesQuery): Promise<TWebhookDeliveryList> {
  await ownEndpoint(ctx, companyId, id);
  const where = and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.companyId, companyId));
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(webhookDeliveries).where(where);
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(query.per_page)
    .offset((query.page - 1) * query.per_page);
  return {
    data: await withAttempts(ctx, rows),
    page: query.page,
    per_page: query.per_page,
    total,
  };
}

const refuseDisabled = (endpoint: EndpointRow) => {
  if (!endpoint.enabled)
    throw new AppError('conflict', {
      message: 'This endpoint is turned off. Turn it on first.',
    });
};

/** Sends a delivery again: the same id (webhook-id) and body, a new series of attempts starting now. */
export async function redeliver(ctx: AppContext, companyId: string, id: string, deliveryId: string): Promise<TWebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, companyId, id);
  refuseDisabled(endpoint);
  return ctx.database.transaction(async (executeSql, tx) => {
    const now = new Date();
    const [row] = await tx
      .update(webhookDeliveries)
      .set({
        status: 'pending',
        seriesStartedAt: now,
        seriesAttempts: 0,
        nextAttemptAt: now,
        lockedUntil: null,
      })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.companyId, companyId)))
      .returning();
    if (!row) throw notFound('This delivery does not exist.');
    await ctx.queue.send(deliverWebhookJob, { deliveryId }, { executeSql });
    return toDelivery(row, []);
  });
}

/** A test event ('webhook.test') to one endpoint, logged as its deliveries are. */
export async function sendTestEvent(ctx: AppContext, companyId: string, id: string): Promise<TWebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, companyId, id);
  refuseDisabled(endpoint);
  return ctx.database.transaction(async (executeSql, tx) => {
    const now = new Date();
    const payload = webhookPayload(WEBHOOK_TEST_EVENT, now, {
      endpoint_id: id,
      message: 'This is a test event.',
    });
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        companyId,
        endpointId: id,
        type: WEBHOOK_TEST_EVENT,
        payload,
        seriesStartedAt: now,
        nextAttemptAt: now,
      })
      .returning();
    await ctx.queue.send(deliverWebhookJob, { deliveryId: row!.id }, { executeSql });
    return toDelivery(row!, []);
  });
}
