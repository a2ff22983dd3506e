/**
 * Webhooks (issue 32, decisions 210 and 211): the company's endpoints, their deliveries and attempts.
 * Deliveries follow the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; a JSON body `{ type, timestamp, data }`).
 */
import { z } from 'zod';
import { ZId, ZIsoDateTime } from './common.js';

/** Every event a company can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'testimonial.submitted',
  'testimonial.paid',
  'render.ready',
  'render.failed',
  'publication.published',
  'publication.unpublished',
  'consent.withdrawn',
] as const;
export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, {
  error: 'Unknown event type',
});
export type TWebhookEventType = z.infer<typeof ZWebhookEventType>;

/** The type of the event "send a test event" sends (never recorded as a company event). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = {
  url: 2048,
  perCompany: 20,
  perPage: 50,
} as const;

const ZUrl = z
  .string({ error: 'The address is required' })
  .trim()
  .min(1, 'The address is required')
  .max(WEBHOOK_LIMITS.url, `The address must be at most ${WEBHOOK_LIMITS.url} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'The address must be a full https:// address');

const ZEvents = z
  .array(ZWebhookEventType)
  .min(1, 'Choose at least one event')
  .transform((events) => [...new Set(events)]);

/** `POST /api/webhooks`. */
export const ZWebhookEndpointBody = z.object({
  url: ZUrl,
  events: ZEvents,
  enabled: z.boolean().default(true),
});
export type TWebhookEndpointBody = z.infer<typeof ZWebhookEndpointBody>;

/** `PUT /api/webhooks/:id`: any of the three. */
export const ZWebhookEndpointPatch = z
  .object({
    url: ZUrl.optional(),
    events: ZEvents.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((body) => body.url !== undefined || body.events !== undefined || body.enabled !== undefined, 'Nothing to change');
export type TWebhookEndpointPatch = z.infer<typeof ZWebhookEndpointPatch>;

/** An endpoint as listed: never its secret. */
export const ZWebhookEndpoint = z.object({
  id: ZId,
  url: z.string(),
  events: z.array(ZWebhookEventType),
  enabled: z.boolean(),
  created_at: ZIsoDateTime,
  failing_since: ZIsoDateTime.nullable(),
  /** 'failing': turned off by the system after 5 days of failed deliveries. */
  disabled_reason: z.enum(['failing']).nullable(),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

export const ZWebhookEndpointList = z.object({
  endpoints: z.array(ZWebhookEndpoint),
});
export type TWebhookEndpointList = z.infer<typeof ZWebhookEndpointList>;

/** A creation's or rotation's answer: the endpoint with its signing secret, shown this once. */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z.string(),
});
export type TWebhookEndpointWithSecret = z.infer<typeof ZWebhookEndpointWithSecret>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

/** One attempt at sending a delivery. */
export const ZWebhookAttempt = z.object({
  id: ZId,
  ok: z.boolean(),
  response_status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  created_at: ZIsoDateTime,
});
export type TWebhookAttempt = z.infer<typeof ZWebhookAttempt>;

/** A delivery (its id is the `webhook-id` header) with its attempts, newest first. */
export const ZWebhookDelivery = z.object({
  id: ZId,
  type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  next_attempt_at: ZIsoDateTime.nullable(),
  created_at: ZIsoDateTime,
  attempts: z.array(ZWebhookAttempt),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveriesQuery = z.object({
  page: z.coerce.number({ error: 'The page must be a number' }).int().min(1, 'The page must be 1 or more').default(1),
  per_page: z.coerce
    .number({ error: 'per_page must be a number' })
    .int()
    .min(1)
    .max(WEBHOOK_LIMITS.perPage, `per_page must be at most ${WEBHOOK_LIMITS.perPage}`)
    .default(20),
});
export type TWebhookDeliveriesQuery = z.infer<typeof ZWebhookDeliveriesQuery>;

export const ZWebhookDeliveryList = z.object({
  data: z.array(ZWebhookDelivery),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type TWebhookDeliveryList = z.infer<typeof ZWebhookDeliveryList>;

export const ZWebhookDeliveryParams = z.object({ id: ZId, deliveryId: ZId });
