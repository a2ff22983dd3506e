import { useMutation } from "@tanstack/react-query";
import { API } from "../../../../contract/api/paths.js";
import { ZCheckoutSessionResponse } from "../../../../contract/api/payment.schema.js";
import type {
  TCheckoutSessionResponse,
  TPriceId,
} from "../../../../contract/api/payment.schema.js";
import { apiFetch } from "../../../lib/api-client";

/**
 * POST /api/payment/checkout-session { priceId } → { url }: Stripe Checkout for the package, or our
 * labelled test-mode checkout page when Stripe is not configured. The caller sends the browser there.
 */
export function createCheckoutSession({
  priceId,
}: {
  priceId: TPriceId;
}): Promise<TCheckoutSessionResponse> {
  return apiFetch(API.payment.checkoutSession.path, {
    method: API.payment.checkoutSession.method,
    body: { priceId },
    schema: ZCheckoutSessionResponse,
  });
}

export function useCreateCheckoutSessionMutation() {
  return useMutation({ mutationFn: createCheckoutSession });
}
