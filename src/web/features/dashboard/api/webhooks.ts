import { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../contract/api/paths.js';
import {
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookEndpoint,
  ZWebhookEndpointList,
  ZWebhookEndpointWithSecret,
  type TWebhookDelivery,
  type TWebhookDeliveryList,
  type TWebhookEndpoint,
  type TWebhookEndpointBody,
  type TWebhookEndpointList,
  type TWebhookEndpointPatch,
  type TWebhookEndpointWithSecret,
} from '../../../../contract/api/webhooks.schema.js';
import { apiFetch } from '../../../lib/api-client';

/** The company's webhook endpoints and their deliveries (issue 32, decisions 210 and 211). */
export const webhooksKeys = {
  all: ['webhooks'] as const,
  deliveries: (id: string, page: number) => ['webhooks', 'deliveries', id, page] as const,
};

/** GET /api/webhooks: the endpoints, never their secret. */
export function listWebhooks(signal?: AbortSignal): Promise<TWebhookEndpointList> {
  return apiFetch(API.webhooks.list.path, { method: API.webhooks.list.method, schema: ZWebhookEndpointList, signal });
}
export const webhooksQueryOptions = () => queryOptions({ queryKey: webhooksKeys.all, queryFn: ({ signal }) => listWebhooks(signal) });
export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}

/** GET /api/webhooks/{id}/deliveries: one page of an endpoint's deliveries with their attempts. */
export function listWebhookDeliveries(id: string, page: number, signal?: AbortSignal): Promise<TWebhookDeliveryList> {
  return apiFetch(`${API.webhooks.deliveries.path(id)}?page=${page}&per_page=10`, { method: API.webhooks.deliveries.method, schema: ZWebhookDeliveryList, signal });
}
/** How often an open log asks again while a delivery on it is being sent or about to be retried. */
export const DELIVERY_LOG_POLL_MS = 3000;
/** A delivery whose next attempt is at most this far away is worth watching (retries wait 5 s, then minutes). */
const SOON_MS = 60_000;

/** Whether a delivery's outcome may change within a minute: sending now, or retried shortly. */
export function deliverySettlingSoon(d: TWebhookDeliveryList['data'][number], now = Date.now()): boolean {
  return d.status === 'pending' && (!d.next_attempt_at || Date.parse(d.next_attempt_at) - now <= SOON_MS);
}

export const webhookDeliveriesQueryOptions = (id: string, page: number) =>
  queryOptions({
    queryKey: webhooksKeys.deliveries(id, page),
    queryFn: ({ signal }) => listWebhookDeliveries(id, page, signal),
    // The open log follows a test event or a "send again" to its answer, without a reload.
    refetchInterval: (query) => (query.state.data?.data.some((d) => deliverySettlingSoon(d)) ? DELIVERY_LOG_POLL_MS : false),
  });
export function useWebhookDeliveries(id: string, page: number) {
  return useQuery(webhookDeliveriesQueryOptions(id, page));
}

function useInvalidatingMutation<A, R>(fn: (a: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKeys.all }) });
}

/** POST /api/webhooks: a new endpoint, answered with its signing secret this once. */
export function createWebhook(body: TWebhookEndpointBody): Promise<TWebhookEndpointWithSecret> {
  return apiFetch(API.webhooks.create.path, { method: API.webhooks.create.method, body, schema: ZWebhookEndpointWithSecret });
}
export const useCreateWebhookMutation = () => useInvalidatingMutation(createWebhook);

/** PUT /api/webhooks/{id}: address, events or on/off. */
export function updateWebhook({ id, ...body }: TWebhookEndpointPatch & { id: string }): Promise<TWebhookEndpoint> {
  return apiFetch(API.webhooks.update.path(id), { method: API.webhooks.update.method, body, schema: ZWebhookEndpoint });
}
export const useUpdateWebhookMutation = () => useInvalidatingMutation(updateWebhook);

/** DELETE /api/webhooks/{id}. */
export async function deleteWebhook(id: string): Promise<void> {
  await apiFetch(API.webhooks.remove.path(id), { method: API.webhooks.remove.method, schema: z.unknown() });
}
export const useDeleteWebhookMutation = () => useInvalidatingMutation(deleteWebhook);

/** POST /api/webhooks/{id}/test: a 'webhook.test' delivery. */
export function sendWebhookTest(id: string): Promise<TWebhookDelivery> {
  return apiFetch(API.webhooks.test.path(id), { method: API.webhooks.test.method, schema: ZWebhookDelivery });
}
export const useSendWebhookTestMutation = () => useInvalidatingMutation(sendWebhookTest);

/** POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver: the same delivery (same webhook-id) again. */
export function redeliverWebhook({ id, deliveryId }: { id: string; deliveryId: string }): Promise<TWebhookDelivery> {
  return apiFetch(API.webhooks.redeliver.path(id, deliveryId), { method: API.webhooks.redeliver.method, schema: ZWebhookDelivery });
}
export const useRedeliverWebhookMutation = () => useInvalidatingMutation(redeliverWebhook);
